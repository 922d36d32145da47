import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { client, resellerHeaders, root, token } from './fixtures.ts';
import { lifecycle, STEPS, stepsOverTrains } from './lifecycle.ts';
import { DURATION } from './load.ts';
import { report, type CaseReport } from './measure.ts';
import { pin } from './processes.ts';

/**
 * `serve --workers N` on SQLite: whole lifecycles (offers → booking → fulfillment, then the refund that gives the
 * place back, so the train never sells out) from CONCURRENCY loops for DURATION seconds, with one worker and with
 * two. Reported as sales per second; the load average beside them, since on a shared machine they say little alone.
 * The servers may run on every core, the load generator's included.
 *
 * Twice per server: every sale on one train, as the lifecycle case sells, where the workers take turns on that
 * train's lock; and the sales spread over TRAINS trains (the same departure on as many days), as a sandbox's many
 * resellers sell, where they need not.
 */
const CONCURRENCY = Number(process.env['BENCH_LIFECYCLE_CONCURRENCY'] ?? 16);
const WORKERS = (process.env['BENCH_WORKERS'] ?? '1,2').split(',').map(Number);
const TRAINS = 8;

async function serveWorkers(workers: number, store: string) {
  const child = spawn(process.execPath, ['bin/signalbox.js', 'serve', '--port', '0', '--store', store, '--quiet', '--workers', String(workers)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // The bench's process is pinned to one core, and a child inherits it: the workers get every core instead, before
  // the primary forks them (they inherit the primary's), so that a second worker has a core to run on.
  pin(child.pid!, `0-${cpus().length - 1}`);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`signalbox serve exited with ${code}`)));
  });
  return {
    base,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Lifecycles completed in `seconds`, from `concurrency` loops. */
async function salesPerSecond(base: string, seconds: number, concurrency: number, steps = STEPS): Promise<number> {
  const accessToken = await token(base);
  const c = client(base, concurrency);
  const headers = resellerHeaders(accessToken);
  const send = (method: string, path: string, body?: unknown) => c.send(method, path, body, headers);
  let done = 0;
  let n = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        await lifecycle(send, steps, n++);
        done++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  c.close();
  return done / elapsed;
}

export async function run(): Promise<CaseReport> {
  const r = report('workers', `serve --workers N on SQLite: sales/s, ${CONCURRENCY} concurrent loops, ${DURATION} s per run`);
  const dir = mkdtempSync(join(tmpdir(), 'signalbox-bench-workers-'));
  try {
    for (const workers of WORKERS) {
      const server = await serveWorkers(workers, `sqlite:${join(dir, `w${workers}.db`)}`);
      try {
        const named = `${workers} worker${workers > 1 ? 's' : ''}`;
        await salesPerSecond(server.base, Math.min(2, DURATION), CONCURRENCY); // warm-up
        const load = loadavg()[0]!;
        r.row(`sales/s, ${named}, every sale on one train`, '/s', [await salesPerSecond(server.base, DURATION, CONCURRENCY)]);
        r.row(`sales/s, ${named}, sales spread over ${TRAINS} trains`, '/s', [
          await salesPerSecond(server.base, DURATION, CONCURRENCY, stepsOverTrains(TRAINS)),
        ]);
        r.row(`  load average (1 min) before the runs, ${named}`, '', [load]);
      } finally {
        await server.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return r;
}
