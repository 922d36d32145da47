import type { Worker } from 'node:cluster';
import type { Store } from '../store/store.ts';

/**
 * Train locks across the workers of `serve --workers N` on one SQLite file: the primary holds them, the workers ask
 * over the cluster's IPC channel. SQLite has no lock another process can wait on the way PostgreSQL's advisory locks
 * are waited on, and the primary is the one process every worker talks to.
 *
 * A request names all its keys at once and is granted when it is first in line on every one of them: requests queue
 * in the order they arrive, on every key together, so two requests never each hold a key the other waits for. A
 * worker's locks go when it answers, or when it dies (a crashed worker never keeps a train locked). What a dead
 * worker asked is ignored even when it arrives after its death: node:cluster may deliver a worker's last messages
 * after its 'exit', and such a request would otherwise hold its trains for ever.
 */

type LockMessage = { kind: 'train-locks'; id: number; keys: string[] } | { kind: 'train-locks-release'; id: number };
type GrantMessage = { kind: 'train-locks-granted'; id: number };

const isLockMessage = (m: unknown): m is LockMessage =>
  typeof m === 'object' && m !== null && ((m as LockMessage).kind === 'train-locks' || (m as LockMessage).kind === 'train-locks-release');

interface Request {
  worker: Worker;
  id: number;
  keys: string[];
  granted: boolean;
  /** The requests of its worker still held or waiting. */
  of: Map<number, Request>;
}

/** The primary's side: answers the lock requests of `worker` (call it for every worker forked). */
export function trainLockGranter() {
  const queues = new Map<string, Request[]>();
  const grantIfFirst = (r: Request) => {
    if (r.granted || !r.keys.every((k) => queues.get(k)![0] === r)) return;
    r.granted = true;
    if (r.worker.isConnected()) r.worker.send({ kind: 'train-locks-granted', id: r.id } satisfies GrantMessage);
  };
  const drop = (r: Request) => {
    r.of.delete(r.id);
    const next: Request[] = [];
    for (const k of r.keys) {
      const queue = queues.get(k)!.filter((x) => x !== r);
      if (queue.length === 0) queues.delete(k);
      else {
        queues.set(k, queue);
        next.push(queue[0]!);
      }
    }
    for (const n of next) grantIfFirst(n);
  };
  return {
    /** Serves `worker`'s lock requests until it exits, then lets go of whatever it held or waited for. */
    serve(worker: Worker) {
      const mine = new Map<number, Request>();
      worker.on('message', (m: unknown) => {
        if (!isLockMessage(m) || worker.isDead()) return;
        if (m.kind === 'train-locks') {
          const r: Request = { worker, id: m.id, keys: [...new Set(m.keys)], granted: false, of: mine };
          mine.set(m.id, r);
          for (const k of r.keys) {
            const queue = queues.get(k);
            if (queue) queue.push(r);
            else queues.set(k, [r]);
          }
          grantIfFirst(r);
        } else {
          const r = mine.get(m.id);
          if (r) drop(r);
        }
      });
      worker.once('exit', () => {
        for (const r of [...mine.values()]) drop(r);
      });
    },
  };
}

/** A worker's side: `Store.lockTrains` that asks the primary, for a store several workers share. */
export function trainLocksOfPrimary(): NonNullable<Store['lockTrains']> {
  let next = 0;
  const waiting = new Map<number, () => void>();
  process.on('message', (m: unknown) => {
    const grant = m as GrantMessage;
    if (typeof m !== 'object' || m === null || grant.kind !== 'train-locks-granted') return;
    waiting.get(grant.id)?.();
    waiting.delete(grant.id);
  });
  return async (keys, work) => {
    const id = ++next;
    await new Promise<void>((resolve) => {
      waiting.set(id, resolve);
      process.send!({ kind: 'train-locks', id, keys: [...keys] } satisfies LockMessage);
    });
    try {
      return await work();
    } finally {
      // The channel is gone only when the primary is: this worker is then on its way out, and its locks with it.
      if (process.connected) process.send!({ kind: 'train-locks-release', id } satisfies LockMessage);
    }
  };
}
