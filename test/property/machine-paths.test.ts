/**
 * Path coverage from the machines: every transition of every machine exported by
 * machines/*.ts, found with `xstate/graph`, is driven through the HTTP API along its shortest path
 * (e.g. booking: PREBOOKED --EXPIRE--> EXPIRED is "offers, book, 61 minutes pass, confirm").
 *
 * Each step of a path is taken by the command that says it drives it (`drives` in the command's spec,
 * test/property/commands/*.ts); the model records the transitions the API really took, and each test
 * asserts its whole path was taken. A new state or event of a machine is a new test here, failing with
 * the name of the transition and the command to write until one drives it.
 */
import { describe, expect, it } from 'vitest';
import { driversOf, loadCommandSpecs } from '../helpers/model-command.ts';
import { drivePath, loadMachines, transitionsOf } from '../helpers/model-coverage.ts';

const drivers = driversOf(await loadCommandSpecs());
const machines = await loadMachines();
const transitions = machines.flatMap((m) => transitionsOf(m));
const taken = new Set<string>();

describe('every transition of machines/*.ts is taken through the HTTP API', () => {
  it('finds the machines and their transitions', () => {
    expect(machines.map((m) => m.id)).toContain('booking');
    expect(transitions.map((t) => t.key)).toContain('booking: PREBOOKED --CONFIRM--> FULFILLED');
  });

  // engine/state/machine.ts keeps XState's answer per (state, event type): true only while no transition has a guard.
  it('no machine has a guard, so the next state depends on the state and the event type alone', () => {
    const guarded = machines.flatMap((m) =>
      [...m.root.transitions.values()]
        .flat()
        .concat(Object.values(m.states).flatMap((s) => [...s.transitions.values()].flat()))
        .filter((t) => t.guard)
        .map((t) => `${m.id}: ${t.source.key} --${t.eventType}-->`),
    );
    expect(guarded).toEqual([]);
  });

  for (const t of transitions) {
    it(
      t.key,
      async () => {
        const undriven = [...new Set(t.path.map((p) => `${t.machine}:${p.event}`))].filter((k) => !drivers.has(k));
        if (undriven.length > 0) {
          throw new Error(
            `no command drives ${undriven.join(', ')}, so no test takes ${t.key} (path: ${t.path.map((p) => p.event).join(' → ')}).\n` +
              `Add a command under test/property/commands/ whose spec has drives: { '${undriven[0]}': () => [...] } (see confirm.ts).`,
          );
        }
        const driven = await drivePath(t, drivers);
        if ('stuck' in driven) throw new Error(`${t.key} is not taken: ${driven.stuck}`);
        for (const k of driven.taken) taken.add(k);
      },
      30_000,
    );
  }

  it('has taken every transition of every machine', () => {
    expect(
      transitions.filter((t) => !taken.has(t.key)).map((t) => t.key),
      'transitions no path test took (see the failures above)',
    ).toEqual([]);
  });
});
