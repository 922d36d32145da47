import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * Every numbered example in examples/ (`NN-name.sh`, `.ts`, `.js`) runs as a user would run it, and prints what its
 * own `prints:` comment lines say: `# prints: text` (a substring) or `// prints: /regex/flags`. An example that
 * names nothing must still print something. Shell examples start their own server on a free port.
 */
const run = promisify(execFile);
const examples = readdirSync('examples')
  .filter((f) => /^\d\d-[\w-]+\.(sh|ts|js|mjs)$/.test(f))
  .sort();

function commandOf(file: string): [string, string[]] {
  const path = `examples/${file}`;
  if (file.endsWith('.sh')) return ['bash', [path]];
  if (file.endsWith('.ts')) return [process.execPath, ['--import', 'tsx', path]];
  return [process.execPath, [path]];
}

/** The `prints:` lines of an example, as matchers of its output. */
function expectedOutputOf(file: string): Array<string | RegExp> {
  return [...readFileSync(`examples/${file}`, 'utf8').matchAll(/^(?:#|\/\/) prints: (.+)$/gm)].map(([, said]) => {
    const regex = /^\/(.+)\/([a-z]*)$/.exec(said!.trim());
    return regex ? new RegExp(regex[1]!, regex[2]) : said!.trim();
  });
}

describe('the numbered examples', () => {
  it('are there, numbered from 01', () => {
    expect(examples[0]).toMatch(/^01-/);
  });

  it.each(examples)(
    '%s runs and prints what it says it prints',
    async (file) => {
      const { BASE: _base, PORT: _port, ...env } = process.env;
      const [command, args] = commandOf(file);
      const { stdout } = await run(command, args, { env, timeout: 60_000 }).catch((e: { stdout?: string; stderr?: string; message: string }) => {
        throw new Error(`${file} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
      });
      expect(stdout.trim()).not.toBe('');
      for (const expected of expectedOutputOf(file)) {
        if (typeof expected === 'string') expect(stdout).toContain(expected);
        else expect(stdout).toMatch(expected);
      }
    },
    70_000,
  );

  it('each is listed in the README', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(examples.filter((file) => !readme.includes(`examples/${file}`))).toEqual([]);
  });
});
