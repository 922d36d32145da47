import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * The README's five-minute tour is `examples/tour.sh`: run here against a served instance (the script starts
 * one on a free port), and every block the README shows must be the script's, so neither can drift.
 */
const run = promisify(execFile);

describe('the five-minute tour', () => {
  it('runs from a token to a ticket against a served instance, ids captured on the way', async () => {
    const { BASE: _base, PORT: _port, ...env } = process.env;
    const { stdout } = await run('bash', ['examples/tour.sh'], { env, timeout: 60_000 });
    expect(stdout).toContain('{"status":"ok"}');
    expect(stdout).toMatch(/^2 klass, standardplats: \d+ SEK$/m);
    expect(stdout).toMatch(/^booking (\w+), ticket \1-1$/m);
  }, 70_000);

  it('the README shows the script\'s own commands, with no placeholders', () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('## A five-minute tour'), readme.indexOf('**5. Run the scenarios**'));
    const script = readFileSync('examples/tour.sh', 'utf8');
    const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks).toHaveLength(4);
    // The first block starts `npm start` where the script starts its own server on a free port.
    const shown = blocks.map((b) => b.split('\n').filter((l) => !/^(npm start|BASE=)/.test(l)).join('\n'));
    for (const block of shown) expect(script).toContain(block);
    for (const block of blocks) expect(block).not.toMatch(/<[a-z]\w*>|…/i);
  });
});
