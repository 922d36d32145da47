import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { requestorHeader, passengers, upcomingTrip } from './helpers/server.ts';
import { resellerToken } from './helpers/process.ts';

/**
 * Graceful shutdown: SIGTERM to `signalbox serve` stops new connections, lets a request in flight finish,
 * closes the store and exits 0. The request is made "in flight" deterministically: its headers are sent, the server
 * logs that it came in, and only after SIGTERM is the rest of its body sent.
 */
describe('signalbox serve on SIGTERM', () => {
  const dir = mkdtempSync(join(tmpdir(), 'signalbox-shutdown-'));
  const db = join(dir, 'signalbox.db');
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('finishes the request in flight, closes the store and exits 0', async () => {
    child = spawn(process.execPath, ['bin/signalbox.js', 'serve', '--port', '0', '--store', `sqlite:${db}`], {
      // debug: the "incoming request" line tells that the request in flight has arrived.
      env: { ...process.env, SIGNALBOX_JWT_SECRET: 'shutdown-test', LOG_LEVEL: 'debug' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const proc = child;
    let stdout = '';
    let stderr = '';
    const logs: Array<Record<string, unknown>> = [];
    const waiters: Array<{ test: () => boolean; resolve: () => void }> = [];
    const settle = () => {
      for (const w of [...waiters])
        if (w.test()) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
    };
    proc.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      logs.length = 0;
      for (const line of stdout.split('\n'))
        if (line.startsWith('{'))
          try {
            logs.push(JSON.parse(line) as Record<string, unknown>);
          } catch {
            /* a partial line */
          }
      settle();
    });
    proc.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => proc.once('close', (code) => resolve(code)));
    const until = (what: string, test: () => boolean, ms = 20_000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`waited ${ms} ms for ${what}\nstdout:\n${stdout}\nstderr:\n${stderr}`)), ms);
        waiters.push({
          test,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
        settle();
      });
    const logged = (msg: string, extra: (l: Record<string, unknown>) => boolean = () => true) => logs.some((l) => l['msg'] === msg && extra(l));

    await until('the banner', () => /listening on http:\/\/\S+/.test(stdout));
    const base = /listening on (http:\/\/\S+)/.exec(stdout)![1]!;
    expect(stdout).toContain(`docs: ${base}/docs`);
    const token = await resellerToken(base);

    // A slow-ish request (six trips, five passengers) whose body arrives in two halves.
    const trips = ['ST', 'IC', 'RE', 'ST', 'IC', 'RE'].map((category, i) => {
      const t = upcomingTrip(category, 10 + i);
      t.externalRef = `trip-${i}`;
      t.legs[0]!.externalRef = `leg-${i}`;
      return t;
    });
    const body = Buffer.from(JSON.stringify({ tripSpecifications: trips, anonymousPassengerSpecifications: passengers(35, 34, 8, 70, 17) }));
    const answer = new Promise<{ status: number; body: string; connection?: string }>((resolve, reject) => {
      const req = request(
        `${base}/v3/offers`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            requestor: requestorHeader(),
            'content-type': 'application/json',
            'content-length': body.length,
            'x-request-id': 'in-flight-1',
          },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => {
            text += c.toString();
          });
          res.on('end', () => resolve({ status: res.statusCode!, body: text, ...(res.headers.connection ? { connection: res.headers.connection } : {}) }));
        },
      );
      req.on('error', reject);
      req.write(body.subarray(0, body.length >> 1));
      void until('the request to arrive', () => logged('incoming request', (l) => l['reqId'] === 'in-flight-1'))
        .then(() => {
          proc.kill('SIGTERM');
          return until('the signal to be seen', () => logged('SIGTERM: finishing in-flight requests'));
        })
        .then(async () => {
          // No new connections any more…
          await expect(fetch(`${base}/health`)).rejects.toThrow();
          // …but the request in flight is served.
          req.end(body.subarray(body.length >> 1));
        })
        .catch(reject);
    });

    const res = await answer;
    expect(res.status, res.body).toBe(200);
    expect((JSON.parse(res.body) as { offers: unknown[] }).offers.length).toBeGreaterThan(0);
    expect(await exited).toBe(0);
    expect(res.connection).toBe('close');
    expect(logged('store closed', (l) => String(l['store']).startsWith('sqlite:'))).toBe(true);
    expect(logged('shut down')).toBe(true);
    // SQLite removes the write-ahead log when the last connection closes cleanly.
    expect(existsSync(`${db}-wal`)).toBe(false);
    expect(existsSync(db)).toBe(true);
  }, 30_000);
});
