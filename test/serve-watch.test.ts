import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resellerToken } from './helpers/process.ts';

/**
 * `signalbox serve --watch` as an analyst uses it: it starts with its banner, an edit of rules/ reaches the
 * Customer API as well as the Reseller API, and Ctrl-C (SIGINT) shuts it down cleanly with exit status 0.
 */
describe('signalbox serve --watch', () => {
  const dir = mkdtempSync(join(tmpdir(), 'signalbox-watch-'));
  const rules = join(dir, 'rules');
  cpSync('rules', rules, { recursive: true });
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts with its banner, serves reloaded rules on the Customer API, and exits 0 on SIGINT', async () => {
    child = spawn(process.execPath, ['bin/signalbox.js', 'serve', '--watch', '--port', '0', '--store', 'memory', '--rules', rules], {
      env: { ...process.env, SIGNALBOX_JWT_SECRET: 'watch-test', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const proc = child;
    let stdout = '';
    let stderr = '';
    const waiters: Array<() => void> = [];
    proc.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      waiters.splice(0).forEach((w) => w());
    });
    proc.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => proc.once('close', (code) => resolve(code)));
    const until = async (what: string, test: () => boolean) => {
      const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
      while (!test()) {
        if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`exited while waiting for ${what}\nstdout:\n${stdout}\nstderr:\n${stderr}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          proc.once('close', () => resolve());
        });
      }
      clearTimeout(timer);
    };

    await until('the banner', () => /listening on http:\/\/\S+ \(reloading rules on change\)/.test(stdout));
    expect(stdout).toContain('docs: http://');
    const base = /listening on (http:\/\/\S+)/.exec(stdout)![1]!;
    // The banner names the studio, read-only without --sandbox or --edit.
    const studio = /studio: (http:\/\/\S+)/.exec(stdout)?.[1];
    expect(studio).toBe(`${base}/studio`);
    expect((await fetch(studio!)).headers.get('content-type')).toMatch(/^text\/html/);
    expect(await (await fetch(`${studio}/api/mode`)).json()).toMatchObject({ edit: false, sandbox: false });
    const token = await resellerToken(base);
    const lookup = async () => {
      const res = await fetch(`${base}/customer/contacts/email`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'ocp-apim-subscription-key': 'demo-subscription-key', 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'anna.svensson@example.se' }),
      });
      return ((await res.json()) as { firstName?: string }).firstName;
    };
    expect(await lookup()).toBe('Anna');

    const file = join(rules, 'customers.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('- firstName: Anna ', '- firstName: Annika '));
    await until('the reload', () => stdout.includes('rules reloaded'));
    expect(await lookup()).toBe('Annika');

    proc.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
  }, 30_000);
});
