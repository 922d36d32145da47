import type { AnyStateMachine } from 'xstate';
import { can, initialState, step } from '../../engine/machine.ts';
import { durationMs } from '../../engine/time.ts';
import { bookingMachine } from '../../machines/booking.ts';
import { engine } from './server.ts';

/**
 * The deliberately small model the property test checks the API against (the QuickCheck state-machine
 * tradition): what exists, in which machine state, until when, and what time it is. Entities are named
 * by the scenario variables that hold their ids (`booking2`), never by the ids themselves, so a command
 * sequence reads — and is written out — as a scenario.
 *
 * The model moves its entities with the real machines (`fire`), so it can never allow what the machines
 * forbid, and it records every transition it takes: the path-coverage test asks that each one is taken.
 */

/** The virtual clock's start, as the scenarios write it. */
export const START = '2026-11-20T10:00:00+01:00';

export interface ModelOffer {
  /** The scenario variable holding the offerId. */
  readonly id: string;
  readonly passengers: ReadonlyArray<{ readonly ref: string; readonly age: number }>;
  /** preBookableUntil, ms: bookable while now ≤ this (CONTRACT §4a). */
  readonly bookableUntil: number;
  /**
   * Variables of its reservations in shared night-train compartments: each needs one gender place
   * property at booking (spec §2.5 rule 5, rules/night-gender.yaml).
   */
  readonly sharedPlaces: readonly string[];
}

export interface ModelBooking {
  readonly id: string;
  /** The variable holding booking.provisionalPrice.amount (a new one after a repricing patch), for the confirmed price. */
  price: string;
  /** The booking machine's state (machines/booking.ts) as the model knows it. */
  state: string;
  /** confirmationTimeLimit, ms: a provisional booking is expired from this instant on (spec §3, §8). */
  readonly timeLimit: number;
  /** Its passengers: the variable of each passenger id, and whether first and last name are there (spec §2.6). */
  readonly passengers: Array<{ readonly id: string; complete: boolean }>;
  /** Whether it has a (complete) purchaser. */
  purchaser: boolean;
  /** Variables of its reservations' ids (for place selections). */
  readonly reservations: readonly string[];
  /** Variables of its fulfillment ids, from the first confirmation on; they never change after. */
  fulfillments: string[];
}

export interface Model {
  /** The virtual clock, ms. */
  now: number;
  offers: ModelOffer[];
  bookings: ModelBooking[];
  /** Counter for unique externalRefs. */
  sequence: number;
  /** Transitions taken, as `transitionKey` strings. */
  readonly taken: Set<string>;
}

export function newModel(): Model {
  return { now: new Date(START).getTime(), offers: [], bookings: [], sequence: 0, taken: new Set() };
}

/** Lifetimes from rules/limits.yaml: the model reads the analysts' numbers, it does not repeat them. */
export const lifetimes = () => ({
  offer: durationMs(engine().rules.limits.offerBookableFor),
  provisionalBooking: durationMs(engine().rules.limits.provisionalBookingLifetime),
});

/** How a transition is named in coverage reports: `booking: PREBOOKED --CONFIRM--> FULFILLED`. */
export const transitionKey = (machine: string, from: string, event: string, to: string) => `${machine}: ${from} --${event}--> ${to}`;
/** Creating an entity counts as the machine's `xstate.init` from nowhere. */
export const INIT = 'xstate.init';
export const creationKey = (machine: string, initial: string) => transitionKey(machine, '·', INIT, initial);

/** The initial state of `machine` for a new entity, recording its creation. */
export function enter(m: Model, machine: AnyStateMachine): string {
  const initial = initialState(machine);
  m.taken.add(creationKey(machine.id, initial));
  return initial;
}

/**
 * Moves `entity` by `event` as the machine says, recording the transition. The commands fire only after
 * the API answered as predicted, so a recorded transition is one the real system took too.
 */
export function fire(m: Model, machine: AnyStateMachine, entity: { state: string }, event: string): void {
  const next = step(machine, entity.state, { type: event });
  if (next === undefined) throw new Error(`model error: ${machine.id} does not allow ${event} in ${entity.state}`);
  m.taken.add(transitionKey(machine.id, entity.state, event, next));
  entity.state = next;
}

/** The booking's state at the model's now: a provisional booking past its time limit is expired, looked at or not. */
export function bookingStateAt(m: Readonly<Model>, b: Readonly<ModelBooking>): string {
  return PROVISIONAL.includes(b.state) && m.now >= b.timeLimit ? 'EXPIRED' : b.state;
}
/** The booking states with a confirmationTimeLimit (engine/booking/lifecycle.ts `isExpired`). */
export const PROVISIONAL = ['PREBOOKED', 'ON_HOLD'];

/**
 * What the clock and the booking machine say to `event` on `b` before any rule is asked
 * (engine/booking/lifecycle.ts `move`): nothing when allowed, else the refusal the API must give.
 */
export function bookingRefusal(m: Readonly<Model>, b: Readonly<ModelBooking>, event: string): { status: number; body: { code: string } } | undefined {
  if (bookingStateAt(m, b) === 'EXPIRED') return { status: 409, body: { code: 'X_BOOKING_EXPIRED' } };
  if (!can(bookingMachine, b.state, { type: event })) return { status: 409, body: { code: 'X_BOOKING_STATE' } };
  return undefined;
}

/** An operation found `b` past its time limit: the model's booking takes EXPIRE, once. */
export function foundExpired(m: Model, b: ModelBooking): void {
  if (b.state !== 'EXPIRED') fire(m, bookingMachine, b, 'EXPIRE');
}

export const isBookable = (m: Readonly<Model>, o: ModelOffer) => m.now <= o.bookableUntil;

/** Confirmable as far as data go: every passenger named, a purchaser there (spec §2.7 rule 3; README "Warnings"). */
export const isComplete = (b: Readonly<ModelBooking>) => b.purchaser && b.passengers.every((p) => p.complete);

/**
 * Commands aim at an entity by an index into those that qualify, counted from the newest: the command
 * stays meaningful whatever ran before it (and while fast-check shrinks), and index 0 is the latest.
 */
export function pick<T>(items: readonly T[], index: number): T | undefined {
  return items.length === 0 ? undefined : items[items.length - 1 - (index % items.length)];
}

export { bookingMachine };
export const iso = (ms: number) => new Date(ms).toISOString();
/** `${name}`: a reference to a scenario variable. */
export const ref = (name: string) => '${' + name + '}';
