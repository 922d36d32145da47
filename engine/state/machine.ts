import { initialTransition, transition, type AnyStateMachine, type EventFromLogic, type StateValueFrom } from 'xstate';

/**
 * Pure steps over XState machines whose snapshots are stored as their `value` (DESIGN "Machines").
 *
 * The machines in machines/ have neither guards nor context: the next state depends on the state and the
 * event's type alone. XState answers each (state, event type) once per machine and the answer is kept, so a
 * request does not build snapshots and actors again for a question already answered.
 */
const answers = new WeakMap<AnyStateMachine, Map<string, string | null>>();

/** The machine's kept answers, by state and event type. */
function answersOf(machine: AnyStateMachine): Map<string, string | null> {
  let known = answers.get(machine);
  if (!known) answers.set(machine, (known = new Map<string, string | null>()));
  return known;
}
const keyOf = (state: string, eventType: string) => `${state}\u0000${eventType}`;

const initials = new WeakMap<AnyStateMachine, string>();

export function initialState<M extends AnyStateMachine>(machine: M): StateValueFrom<M> {
  let state = initials.get(machine);
  if (state === undefined) initials.set(machine, (state = initialTransition(machine as AnyStateMachine)[0].value as string));
  return state;
}

/** The next state for `event`, or undefined when the machine does not allow it in `state`. */
export function step<M extends AnyStateMachine>(machine: M, state: StateValueFrom<M>, event: EventFromLogic<M>): StateValueFrom<M> | undefined {
  const known = answersOf(machine);
  const key = keyOf(state, String(event.type));
  let next = known.get(key);
  if (next === undefined) {
    const snapshot = machine.resolveState({ value: state, context: {} });
    next = snapshot.can(event) ? (transition(machine as AnyStateMachine, snapshot, event)[0].value as string) : null;
    known.set(key, next);
  }
  return next ?? undefined;
}

/** Whether the machine tags `state` with `tag` (a question the machine answers for each of its states). */
export function hasTag<M extends AnyStateMachine>(machine: M, state: StateValueFrom<M>, tag: string): boolean {
  return machine.root.states[state as string]?.tags.includes(tag) ?? false;
}

export function can<M extends AnyStateMachine>(machine: M, state: StateValueFrom<M>, event: EventFromLogic<M>): boolean {
  return step(machine, state, event) !== undefined;
}

/**
 * Runs `run` with one answer of the machine replaced: in `state`, `eventType` leads to `next` (another state), or is
 * not allowed (null). This is how `signalbox mutate` makes a wrong machine (a transition removed, a target changed) to
 * see whether the scenarios notice. The answer is changed for every caller in the process until `run` settles, so
 * only a process that serves nothing else may call it (the CLI's mutation run, never a server).
 */
export async function withMachineAnswer<T>(machine: AnyStateMachine, state: string, eventType: string, next: string | null, run: () => Promise<T>): Promise<T> {
  const known = answersOf(machine);
  const key = keyOf(state, eventType);
  const had = known.has(key);
  const was = known.get(key);
  known.set(key, next);
  try {
    return await run();
  } finally {
    if (had) known.set(key, was!);
    else known.delete(key);
  }
}
