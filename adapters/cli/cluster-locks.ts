import type { Worker } from 'node:cluster';
import type { TrainHoldings } from '../../engine/index.ts';
import type { Store, TrainLock } from '../store/store.ts';

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
 *
 * Places in flight: a worker may let a train go as soon as its booking's write is queued, as one process lets the
 * next booking decide (adapters/service/service.ts), by leaving the places the booking takes with the primary when
 * it lets go. The primary hands them to every later holder of those trains, who counts them as taken, until the
 * worker reports the write settled (the file then answers for them, or they were refused) or dies (its writes die
 * with it: what it committed is in the file, the rest was never acknowledged). An entry both in the file and in
 * flight is counted once (engine `holdingsOf`).
 */

type LockMessage =
  | { kind: 'train-locks'; id: number; keys: string[] }
  | { kind: 'train-locks-release'; id: number; inFlight?: TrainHoldings[] }
  | { kind: 'train-places-settled'; bookingIds: string[] };
type GrantMessage = { kind: 'train-locks-granted'; id: number; inFlight: TrainHoldings[] };

const LOCK_MESSAGES = new Set(['train-locks', 'train-locks-release', 'train-places-settled']);
const isLockMessage = (m: unknown): m is LockMessage => typeof m === 'object' && m !== null && LOCK_MESSAGES.has((m as LockMessage).kind);

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
  /** Per train, per booking: the places a worker left in flight, and which worker. */
  const inFlight = new Map<string, Map<string, { worker: Worker; entry: TrainHoldings }>>();
  const inFlightFor = (r: Request) => r.keys.flatMap((k) => [...(inFlight.get(k)?.values() ?? [])].filter((f) => f.worker !== r.worker).map((f) => f.entry));
  const forget = (worker: Worker, bookingIds?: ReadonlySet<string>) => {
    for (const [train, onTrain] of inFlight) {
      for (const [bookingId, f] of onTrain) if (f.worker === worker && (!bookingIds || bookingIds.has(bookingId))) onTrain.delete(bookingId);
      if (onTrain.size === 0) inFlight.delete(train);
    }
  };
  const grantIfFirst = (r: Request) => {
    if (r.granted || !r.keys.every((k) => queues.get(k)![0] === r)) return;
    r.granted = true;
    if (r.worker.isConnected()) r.worker.send({ kind: 'train-locks-granted', id: r.id, inFlight: inFlightFor(r) } satisfies GrantMessage);
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
    /** Serves `worker`'s lock requests until it exits, then lets go of whatever it held, waited for or left in flight. */
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
        } else if (m.kind === 'train-locks-release') {
          const r = mine.get(m.id);
          if (!r) return;
          // Left before the lock goes, so the next holder is told.
          for (const entry of m.inFlight ?? []) {
            if (!inFlight.has(entry.train)) inFlight.set(entry.train, new Map());
            inFlight.get(entry.train)!.set(entry.bookingId, { worker, entry });
          }
          drop(r);
        } else forget(worker, new Set(m.bookingIds));
      });
      worker.once('exit', () => {
        for (const r of [...mine.values()]) drop(r);
        forget(worker);
      });
    },
  };
}

/** A worker's side: `Store.lockTrains` that asks the primary, for a store several workers share. */
export function trainLocksOfPrimary(): NonNullable<Store['lockTrains']> {
  let next = 0;
  const waiting = new Map<number, (inFlight: TrainHoldings[]) => void>();
  process.on('message', (m: unknown) => {
    const grant = m as GrantMessage;
    if (typeof m !== 'object' || m === null || grant.kind !== 'train-locks-granted') return;
    waiting.get(grant.id)?.(grant.inFlight);
    waiting.delete(grant.id);
  });
  // The channel is gone only when the primary is: this worker is then on its way out, and its locks with it.
  const send = (m: LockMessage) => {
    if (process.connected) process.send!(m);
  };
  return async (keys, work) => {
    const id = ++next;
    const inFlightElsewhere = await new Promise<TrainHoldings[]>((resolve) => {
      waiting.set(id, resolve);
      send({ kind: 'train-locks', id, keys: [...keys] });
    });
    const passed: Array<{ entries: readonly TrainHoldings[]; written: Promise<void> }> = [];
    const lock: TrainLock = { inFlightElsewhere, passOn: (entries, written) => passed.push({ entries, written }) };
    try {
      return await work(lock);
    } finally {
      send({ kind: 'train-locks-release', id, ...(passed.length > 0 ? { inFlight: passed.flatMap((p) => p.entries) } : {}) });
      // Reported after the release that left them, on the same channel, so the primary never hears of them twice.
      for (const { entries, written } of passed) {
        const settled = () => send({ kind: 'train-places-settled', bookingIds: [...new Set(entries.map((e) => e.bookingId))] });
        written.then(settled, settled);
      }
    }
  };
}
