import { readdirSync } from 'node:fs';
import { StateMachine, type AnyStateMachine, type EventObject, type StateValue } from 'xstate';
import { adjacencyMapToArray, getAdjacencyMap, getShortestPaths } from 'xstate/graph';
import { creationKey, INIT, transitionKey } from './model.ts';
import type { ApiCommand, Driver } from './model-command.ts';
import { runOrWriteScenario } from './model-run.ts';

/**
 * The machines' transitions, read off the machines themselves with `xstate/graph`, and the shortest
 * event path to each: what the path-coverage test drives through the API. Every machine exported from
 * machines/*.ts is included, so a new machine, state or event shows up here without a word of test code.
 */

export interface Transition {
  machine: string;
  from: string;
  event: string;
  to: string;
  key: string;
  /** The events from a new entity to this transition, this one included: `xstate.init` first. */
  path: Array<{ event: string; key: string }>;
}

const MACHINES = new URL('../../machines/', import.meta.url);

/** Every state machine exported by a file of machines/. */
export async function loadMachines(): Promise<AnyStateMachine[]> {
  const machines: AnyStateMachine[] = [];
  for (const file of readdirSync(MACHINES)
    .filter((f) => f.endsWith('.ts'))
    .sort()) {
    const mod = (await import(new URL(file, MACHINES).href)) as Record<string, unknown>;
    for (const value of Object.values(mod)) if (value instanceof StateMachine && !machines.includes(value)) machines.push(value);
  }
  return machines;
}

/** `PREBOOKED`, or `FULFILLED.EXCHANGE_ONGOING` for a nested state. */
function stateName(value: StateValue): string {
  if (typeof value === 'string') return value;
  return Object.entries(value)
    .map(([k, v]) => (v === undefined ? k : `${k}.${stateName(v)}`))
    .join(',');
}

/**
 * The transitions of `machine` (every event its states listen to, default events as `getAdjacencyMap`
 * makes them: `{type}`), each with the shortest path that reaches it. A machine whose guards read an
 * event's payload needs that payload here: pass `events` as `getAdjacencyMap` takes them.
 */
export function transitionsOf(machine: AnyStateMachine, events?: readonly EventObject[]): Transition[] {
  const options = events ? { events } : {};
  const toState = new Map(getShortestPaths(machine, options).map((p) => [stateName(p.state.value), p]));
  const seen = new Map<string, Transition>();
  for (const { state, event, nextState } of adjacencyMapToArray(getAdjacencyMap(machine, options))) {
    const from = stateName(state.value);
    const to = stateName(nextState.value);
    const key = transitionKey(machine.id, from, event.type, to);
    if (seen.has(key)) continue;
    const head = toState.get(from);
    if (!head) throw new Error(`${key}: xstate/graph found no path to ${from}`);
    let previous = '·';
    const path = head.steps.map((s) => {
      const at = stateName(s.state.value);
      const k = s.event.type === INIT ? creationKey(machine.id, at) : transitionKey(machine.id, previous, s.event.type, at);
      previous = at;
      return { event: s.event.type, key: k };
    });
    seen.set(key, { machine: machine.id, from, event: event.type, to, key, path: [...path, { event: event.type, key }] });
  }
  return [...seen.values()];
}

/**
 * Drives `t` through the API: along its path, for each step a driver whose commands really take it
 * (the model recorded the transition), trying the next one where a driver does not — the creation of
 * an entity by one command may need the confirmation by the same kind of command. Returns the commands
 * that took the whole path, or says which step no driver took. A run that breaks a property fails at
 * once, with its scenario written (runOrWriteScenario).
 */
export async function drivePath(
  t: Transition,
  drivers: ReadonlyMap<string, readonly Driver[]>,
): Promise<{ commands: ApiCommand[]; taken: Set<string> } | { stuck: string }> {
  let deepest = '';
  const extend = async (i: number, commands: ApiCommand[]): Promise<{ commands: ApiCommand[]; taken: Set<string> } | undefined> => {
    const step = t.path[i]!;
    for (const driver of drivers.get(`${t.machine}:${step.event}`) ?? []) {
      const next = [...commands, ...driver.steps()];
      const { model } = await runOrWriteScenario(next, `path ${t.key}`);
      if (!t.path.slice(0, i + 1).every((p) => model.taken.has(p.key))) {
        deepest ||= `${driver.command} drives ${t.machine}:${step.event}, yet [${next.join(', ')}] ran without error and the model never took ${step.key}: does it fire ${step.event}?`;
        continue;
      }
      if (i === t.path.length - 1) return { commands: next, taken: model.taken };
      const done = await extend(i + 1, next);
      if (done) return done;
    }
    return undefined;
  };
  return (await extend(0, [])) ?? { stuck: deepest || `no driver took ${t.key}` };
}
