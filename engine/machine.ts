import { initialTransition, transition, type AnyStateMachine, type EventObject } from 'xstate';

/** Pure steps over XState machines whose snapshots are stored as their `value` (DESIGN "Machines"). */
export function initialState(machine: AnyStateMachine): string {
  return initialTransition(machine)[0].value as string;
}

/** The next state for `event`, or undefined when the machine does not allow it in `state`. */
export function step(machine: AnyStateMachine, state: string, event: EventObject): string | undefined {
  const snapshot = machine.resolveState({ value: state, context: {} });
  if (!snapshot.can(event)) return undefined;
  return transition(machine, snapshot, event)[0].value as string;
}

export function can(machine: AnyStateMachine, state: string, event: EventObject): boolean {
  return machine.resolveState({ value: state, context: {} }).can(event);
}
