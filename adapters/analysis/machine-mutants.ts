import type { MutantResult } from '../http/openapi/studio-schemas.ts';
import { readFileSync } from 'node:fs';
import type { AnyStateMachine } from 'xstate';
import { bookingPartMachine } from '../../machines/booking-part.ts';
import { bookingMachine } from '../../machines/booking.ts';
import { exchangeMachine } from '../../machines/exchange.ts';
import { fulfillmentMachine } from '../../machines/fulfillment.ts';
import { aftersalesOfferMachine } from '../../machines/offers.ts';

/**
 * Wrong versions of the machines that say which operation may happen when: a transition removed (the event is no
 * longer allowed in that state), or its target changed to another state. Each is one answer of the machine replaced
 * while the scenarios run (engine `withMachineAnswer`), the machine's file untouched.
 */
export const MACHINES: ReadonlyArray<{ machine: AnyStateMachine; file: string }> = [
  { machine: bookingMachine, file: 'machines/booking.ts' },
  { machine: bookingPartMachine, file: 'machines/booking-part.ts' },
  { machine: fulfillmentMachine, file: 'machines/fulfillment.ts' },
  { machine: aftersalesOfferMachine, file: 'machines/offers.ts' },
  { machine: exchangeMachine, file: 'machines/exchange.ts' },
];

/**
 * A mutant of a machine as the report names it (`MutantResult`, before its verdict: `decision` the machine's id, `row`
 * the state the transition leaves), with the event and the answer that replaces the machine's: another state, or
 * null for "not allowed".
 */
export type MachineMutant = Omit<MutantResult, 'kind' | 'verdict' | 'killedBy'> & {
  kind: 'transition-removed' | 'target-changed';
  event: string;
  next: string | null;
};

type On = Record<string, string | { target?: string } | undefined>;

/** `file:line:col` of the transition, found as its state's block and its event's key in the machine's file. */
function placeOf(file: string, lines: readonly string[], state: string, event: string): string {
  const from = lines.findIndex((l) => new RegExp(`^\\s*${state}: \\{`).test(l));
  const at = lines.findIndex((l, i) => i > from && new RegExp(`^\\s*${event}:`).test(l));
  const line = at >= 0 ? at : Math.max(from, 0);
  return `${file}:${line + 1}:${(lines[line]?.search(/\S/) ?? 0) + 1}`;
}

export function machineMutants(only?: readonly string[]): Array<{ mutant: MachineMutant; machine: AnyStateMachine }> {
  const out: Array<{ mutant: MachineMutant; machine: AnyStateMachine }> = [];
  for (const { machine, file } of MACHINES) {
    if (only && !only.includes(machine.id)) continue;
    const lines = readFileSync(file, 'utf8').split('\n');
    const states = machine.config.states as Record<string, { on?: On }>;
    const names = Object.keys(states);
    let n = 0;
    for (const [state, node] of Object.entries(states)) {
      for (const [event, to] of Object.entries(node.on ?? {})) {
        const target = typeof to === 'string' ? to : to?.target;
        if (!target) continue;
        const at = placeOf(file, lines, state, event);
        const add = (kind: MachineMutant['kind'], next: string | null, change: string) =>
          out.push({
            machine,
            mutant: { id: `${machine.id}:${++n}`, decision: machine.id, file, at, row: state, event, kind, next, change: `${state}: ${change}` },
          });
        add('transition-removed', null, `${event} → ${target} removed`);
        const other = names.find((s) => s !== target && s !== state) ?? names.find((s) => s !== target);
        if (other) add('target-changed', other, `${event} → ${other} instead of ${target}`);
      }
    }
  }
  return out;
}
