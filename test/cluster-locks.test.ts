import { EventEmitter } from 'node:events';
import type { Worker } from 'node:cluster';
import { describe, expect, it } from 'vitest';
import { trainLockGranter } from '../adapters/cli/cluster-locks.ts';

/**
 * The primary's train locks of `serve --workers N`, driven with stand-in workers: what each is granted, in order,
 * and what a worker's death lets go — also when its last request reaches the primary after its death, as
 * node:cluster may deliver it.
 */

class StandInWorker extends EventEmitter {
  readonly granted: number[] = [];
  dead = false;
  isConnected = () => !this.dead;
  isDead = () => this.dead;
  send = (m: { id: number }) => this.granted.push(m.id);
  ask = (id: number, keys: string[]) => this.emit('message', { kind: 'train-locks', id, keys });
  release = (id: number) => this.emit('message', { kind: 'train-locks-release', id });
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
});
