import cluster, { type Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { pino, type Logger } from 'pino';
import { trainLockGranter } from './cluster-locks.ts';
import type { PrimaryMessage, WorkerMessage } from './shutdown.ts';

export interface PrimaryOptions {
  workers: number;
  /** The log the workers write too (null: --quiet). */
  log: Logger;
  /** Printed once every worker listens. */
  banner: (url: string) => string;
}

/** A logger for the primary, as the workers' are made from serve's options. */
export function primaryLogger(options: false | { level: string; stream?: NodeJS.WritableStream }): Logger {
  if (options === false) return pino({ enabled: false });
  return options.stream ? pino({ level: options.level }, options.stream) : pino({ level: options.level });
}

/**
 * The primary of `serve --workers N` (node:cluster): forks the workers, which share its port; holds their train
 * locks (cluster-locks.ts); prints the banner once all listen; starts another worker when one dies; on SIGTERM or
 * SIGINT stops them all, each finishing its requests in flight, and exits 0 when every one did (1 otherwise). A
 * second signal kills them and exits 1 at once. The workers end by themselves when the primary dies (node:cluster).
 */
export function runPrimary({ workers, log, banner }: PrimaryOptions): Promise<number> {
  // Tokens one worker issues must be valid on the others: one key for all, random when the operator sets none.
  const env = { SIGNALBOX_JWT_SECRET: process.env['SIGNALBOX_JWT_SECRET'] ?? randomBytes(32).toString('base64url') };
  const locks = trainLockGranter();
  let started = false;
  let stopping: string | undefined;
  let failed = false;
  const listening = new Set<Worker>();
  const stillListening = new Set<Worker>();

  return new Promise<number>((resolve) => {
    const fork = () => {
      const worker = cluster.fork(env);
      locks.serve(worker);
      worker.on('message', (m: WorkerMessage) => {
        if (m?.kind === 'listening') {
          listening.add(worker);
          stillListening.add(worker);
          if (!started && listening.size === workers) {
            started = true;
            process.stdout.write(banner(m.url));
            resolve(0);
          } else if (started) log.info({ pid: worker.process.pid }, 'worker listening');
        } else if (m?.kind === 'stopped-listening') stoppedListening(worker);
      });
    };
    const stoppedListening = (worker: Worker) => {
      if (!stillListening.delete(worker) || stillListening.size > 0 || !stopping) return;
      log.info(`${stopping}: finishing in-flight requests`);
    };
    cluster.on('exit', (worker, code, signal) => {
      listening.delete(worker);
      stoppedListening(worker);
      if (stopping && code !== 0) failed = true;
      if (stopping) {
        if (Object.keys(cluster.workers ?? {}).length === 0) {
          log.info('shut down');
          process.exit(failed ? 1 : 0);
        }
        return;
      }
      if (!started) {
        // A worker that cannot start (port taken, store unreadable) would fail again: give up instead of looping.
        log.error({ pid: worker.process.pid, code, signal }, 'a worker exited before listening: stopping');
        for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGKILL');
        resolve(1);
        return;
      }
      log.warn({ pid: worker.process.pid, code, signal }, 'worker died: starting another');
      fork();
    });
    const shutdown = (signal: string) => {
      if (stopping) {
        log.warn(`${signal} again: exiting without waiting`);
        for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGKILL');
        process.exit(1);
      }
      stopping = signal;
      log.info({ workers: Object.keys(cluster.workers ?? {}).length }, `${signal}: stopping the workers`);
      for (const w of Object.values(cluster.workers ?? {})) if (w?.isConnected()) w.send({ kind: 'stop', signal } satisfies PrimaryMessage);
    };
    process.on('SIGTERM', () => shutdown('SIGTERM'));
    process.on('SIGINT', () => shutdown('SIGINT'));
    for (let i = 0; i < workers; i++) fork();
  });
}
