import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter, once } from 'node:events';
import type { Worker } from 'node:cluster';
import { afterEach, describe, expect, it } from 'vitest';
import { trainLockGranter } from '../adapters/cli/cluster-locks.ts';
import type { TrainHoldings } from '../engine/index.ts';

/** A booking's places on a train, as a worker leaves them in flight. */
const entry = (bookingId: string, train: string): TrainHoldings => ({
  train,
  bookingId,
  holdings: [{ train, coachNumber: '1', placeNumber: '11', private: false, from: 0, to: 1, bookingId, reservationId: 'r1', passengerId: 'p1' }],
});

/**
 * The primary's train locks of `serve --workers N`, driven with stand-in workers: what each is granted, in order,
 * and what a worker's death lets go — also when its last request reaches the primary after its death, as
 * node:cluster may deliver it.
 */

class StandInWorker extends EventEmitter {
  readonly granted: number[] = [];
  /** Per grant, the bookings whose places in flight it was told of. */
  readonly toldOf = new Map<number, string[]>();
  dead = false;
  isConnected = () => !this.dead;
  isDead = () => this.dead;
  send = (m: { id: number; inFlight: TrainHoldings[] }) => {
    this.granted.push(m.id);
    this.toldOf.set(
      m.id,
      m.inFlight.map((e) => `${e.bookingId}@${e.train}`),
    );
  };
  ask = (id: number, keys: string[]) => this.emit('message', { kind: 'train-locks', id, keys });
  release = (id: number, inFlight?: TrainHoldings[]) => this.emit('message', { kind: 'train-locks-release', id, ...(inFlight ? { inFlight } : {}) });
  settled = (...bookingIds: string[]) => this.emit('message', { kind: 'train-places-settled', bookingIds });
  die = () => {
    this.dead = true;
    this.emit('exit', null, 'SIGKILL');
  };
}

function twoWorkers() {
  const locks = trainLockGranter();
  const a = new StandInWorker();
  const b = new StandInWorker();
  locks.serve(a as unknown as Worker);
  locks.serve(b as unknown as Worker);
  return { a, b };
}

describe('train locks held by the primary', () => {
  it('grants a train to one worker at a time, in the order asked', () => {
    const { a, b } = twoWorkers();
    a.ask(1, ['train-1']);
    b.ask(1, ['train-1']);
    expect([a.granted, b.granted]).toEqual([[1], []]);
    a.release(1);
    expect(b.granted).toEqual([1]);
  });

  it('lets go of what a worker held when it dies', () => {
    const { a, b } = twoWorkers();
    a.ask(1, ['train-1', 'train-2']);
    b.ask(1, ['train-2']);
    a.die();
    expect(b.granted).toEqual([1]);
  });

  it('ignores a request that reaches it after its worker died, so the train stays free for the others', () => {
    const { a, b } = twoWorkers();
    a.die();
    a.ask(7, ['train-1']);
    b.ask(1, ['train-1']);
    expect(b.granted).toEqual([1]);
    expect(a.granted).toEqual([]);
  });

  it("tells the next holder of a train the places another worker's booking left in flight, until that worker reports them settled", () => {
    const { a, b } = twoWorkers();
    a.ask(1, ['train-1']);
    a.release(1, [entry('booking-a', 'train-1')]);
    b.ask(1, ['train-1', 'train-2']);
    expect(b.toldOf.get(1)).toEqual(['booking-a@train-1']);
    b.release(1);
    b.ask(3, ['train-1']);
    expect(b.toldOf.get(3)).toEqual(['booking-a@train-1']);
    b.release(3);
    // Its own places in flight a worker knows itself.
    a.ask(2, ['train-1']);
    expect(a.toldOf.get(2)).toEqual([]);
    a.release(2);
    a.settled('booking-a');
    b.ask(2, ['train-1']);
    expect(b.toldOf.get(2)).toEqual([]);
  });

  it('forgets the places in flight of a worker that died: what it committed is in the file, the rest was never acknowledged', () => {
    const { a, b } = twoWorkers();
    a.ask(1, ['train-1']);
    a.release(1, [entry('booking-a', 'train-1')]);
    a.die();
    b.ask(1, ['train-1']);
    expect(b.toldOf.get(1)).toEqual([]);
  });
});

/**
 * Both sides over a real IPC channel: the primary's granter here, two worker processes running the worker's side
 * (test/fixtures/train-lock-worker.ts), each told when to book and when its write settles.
 */
describe("a worker's side of the train locks", () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const c of children.splice(0)) c.kill();
  });

  async function workerProcess(locks: ReturnType<typeof trainLockGranter>) {
    const child = fork('test/fixtures/train-lock-worker.ts', { execPath: process.execPath, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    children.push(child);
    const asWorker = Object.assign(child, { isConnected: () => child.connected, isDead: () => child.exitCode !== null || child.signalCode !== null });
    locks.serve(asWorker as unknown as Worker);
    await once(child, 'message');
    /** Resolves with the first message from the worker that `pick` takes, after the primary has read it. */
    const next = <T>(pick: (m: Record<string, unknown>) => T | undefined) =>
      new Promise<T>((resolve) => {
        const got = (m: Record<string, unknown>) => {
          const picked = pick(m);
          if (picked === undefined) return;
          child.off('message', got);
          resolve(picked);
        };
        child.on('message', got);
      });
    return {
      /** Books `bookingId` on train-1: the bookings it was told are in flight elsewhere, once it has let go. */
      async book(bookingId: string) {
        const told = next((m) => (m['told'] === bookingId ? (m['inFlightElsewhere'] as string[]) : undefined));
        const released = next((m) => (m['kind'] === 'train-locks-release' ? true : undefined));
        child.send({ do: 'book', bookingId, keys: ['train-1'], entries: [entry(bookingId, 'train-1')] });
        const inFlightElsewhere = await told;
        await released;
        return inFlightElsewhere;
      },
      /** Its write of `bookingId` committed (`write`) or refused (`fail`); resolves once the primary heard so. */
      async settle(bookingId: string, how: 'write' | 'fail') {
        const settled = next((m) => (m['kind'] === 'train-places-settled' ? true : undefined));
        child.send({ do: how, bookingId });
        await settled;
      },
    };
  }

  it("hands a booking's places over with the lock, until its write is committed or refused", async () => {
    const locks = trainLockGranter();
    const [a, b] = await Promise.all([workerProcess(locks), workerProcess(locks)]);
    expect(await a.book('a-1')).toEqual([]);
    expect(await b.book('b-1')).toEqual(['a-1']);
    await a.settle('a-1', 'write');
    await b.settle('b-1', 'fail');
    expect(await a.book('a-2')).toEqual([]);
    expect(await b.book('b-2')).toEqual(['a-2']);
    await a.settle('a-2', 'fail');
    expect(await b.book('b-3')).toEqual([]);
  });
});
