import type { AnyStateMachine } from 'xstate';
import { can, initialState, step } from '../../engine/state/machine.ts';
import { durationMs } from '../../engine/rules/time.ts';
import { bookingMachine, type BookingEvent, type BookingState } from '../../machines/booking.ts';
import { exchangeMachine } from '../../machines/exchange.ts';
import { fulfillmentMachine } from '../../machines/fulfillment.ts';
import { bookingPartMachine } from '../../machines/booking-part.ts';
import { aftersalesOfferMachine } from '../../machines/offers.ts';
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
  /** The fixture trip it is on (exchange needs a later train between the same places). */
  readonly trip?: string;
  /** Departure of the trip's first leg, ms (on-hold is cut at departure − 24 h, rules/on-hold.yaml). */
  readonly departure?: number;
  /** Whether its reservations take private compartments (numberOfPrivateCompartments 1, spec §2.5 rule 2). */
  readonly privateRooms?: boolean;
}

export interface ModelBooking {
  readonly id: string;
  /** The variable holding booking.provisionalPrice.amount (a new one after a repricing patch), for the confirmed price. */
  price: string;
  /** The booking machine's state (machines/booking.ts) as the model knows it. */
  state: string;
  /** confirmationTimeLimit, ms: a provisional booking is expired from this instant on (spec §3, §8); on-hold moves it. */
  timeLimit: number;
  /** When it was made, ms (the on-hold limit counts from here, rules/on-hold.yaml). */
  readonly createdAt: number;
  /** The sales application that made it (rules/sales-applications.yaml): aftersales requests for it are sent with the same. */
  readonly salesApplication: SalesApplication;
  /** Its offer's trip and departure (ms), when known. */
  readonly trip?: string;
  readonly departure?: number;
  /** Whether its places are private compartments (its offer's `privateRooms`). */
  readonly privateRooms?: boolean;
  /** The passengers' ages, in order, as patched (an exchange re-sends them). */
  readonly ages: number[];
  /** Whether every admission was `exchangeable: YES` when booked. */
  readonly exchangeable: boolean;
  /** Whether it was put on hold once (rules/on-hold.yaml: once per booking). */
  onHoldUsed: boolean;
  /** When it was confirmed, ms (cleanup is allowed for 60 minutes after, rules/cleanup.yaml). */
  confirmedAt?: number;
  /** The status of each fulfillment (by variable) as the model knows it: FULFILLED, REFUNDED, RELEASED, EXCHANGED. */
  fulfillmentStatus: Record<string, string>;
  /** Its parts' status until it is confirmed (machines/booking-part.ts): PREBOOKED, ON_HOLD, then FULFILLED. */
  readonly parts: { state: string };
  /** From the confirmation on, the status of the parts of each fulfillment (by variable): they move together. */
  partStatus: Record<string, string>;
  /** Whether an exchange was confirmed on it (its parts then have a second generation). */
  exchanged: boolean;
  /** Invariant bookkeeping: each CANCELLED part's refundAmount as first seen (a part is refunded once). */
  readonly refunded: Map<string, number>;
  /** Its passengers: the variable of each passenger id, and whether first and last name are there (spec §2.6). */
  readonly passengers: Array<{ readonly id: string; complete: boolean }>;
  /** Whether it has a (complete) purchaser. */
  purchaser: boolean;
  /** Variables of its reservations' ids (for place selections). */
  readonly reservations: readonly string[];
  /** Variables of its fulfillment ids, from the first confirmation on; they never change after. */
  fulfillments: string[];
}

export type SalesApplication = 'WEB_SE' | 'AGENT_SE';

/** A refund, release or on-hold offer (machines/offers.ts). */
export interface ModelAftersalesOffer {
  readonly id: string;
  readonly kind: 'refund' | 'release' | 'onHold';
  /** The booking's variable. */
  readonly booking: string;
  state: string;
  /** validUntil, ms: confirmable while now < this (engine/aftersales/offers.ts isLive). */
  readonly validUntil: number;
  /** The fulfillments it covers (refund, release). */
  readonly fulfillments: readonly string[];
  /** On-hold: the new confirmationTimeLimit, ms. */
  readonly increasedTTL?: number;
  /** Refund: the refundableAmount it quoted (spec §3 rule 1: what confirming it refunds). */
  readonly quote?: number;
}

/** Exchange offers of one request (not machine entities) and the exchange operation made of one (machines/exchange.ts). */
interface ModelExchangeOffer {
  readonly id: string;
  readonly booking: string;
  readonly bookableUntil: number;
  readonly fulfillments: readonly string[];
  readonly passengers: number;
}
export interface ModelExchangeOperation {
  readonly id: string;
  readonly booking: string;
  state: string;
  /** validUntil, ms: the provisional lifetime from its creation. */
  readonly validUntil: number;
  readonly fulfillments: readonly string[];
}

export interface Model {
  /** The virtual clock, ms. */
  now: number;
  offers: ModelOffer[];
  bookings: ModelBooking[];
  aftersales: ModelAftersalesOffer[];
  exchangeOffers: ModelExchangeOffer[];
  operations: ModelExchangeOperation[];
  /** Counter for unique externalRefs. */
  sequence: number;
  /** Transitions taken, as `transitionKey` strings. */
  readonly taken: Set<string>;
}

export function newModel(): Model {
  return { now: new Date(START).getTime(), offers: [], bookings: [], aftersales: [], exchangeOffers: [], operations: [], sequence: 0, taken: new Set() };
}

/** Lifetimes from rules/limits.yaml: the model reads the analysts' numbers, it does not repeat them. */
export const lifetimes = () => ({
  offer: durationMs(engine().rules.limits.offerBookableFor),
  provisionalBooking: durationMs(engine().rules.limits.provisionalBookingLifetime),
  aftersalesOffer: durationMs(engine().rules.limits.aftersalesOfferValidFor),
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
/** The booking states with a confirmationTimeLimit (engine/state/booking-state.ts `isExpired`). */
export const PROVISIONAL = ['PREBOOKED', 'ON_HOLD'];

/**
 * What the clock and the booking machine say to `event` on `b` before any rule is asked
 * (engine/state/booking-state.ts `move`): nothing when allowed, else the refusal the API must give.
 */
export function bookingRefusal(m: Readonly<Model>, b: Readonly<ModelBooking>, event: string): { status: number; body: { code: string } } | undefined {
  if (bookingStateAt(m, b) === 'EXPIRED') return { status: 409, body: { code: 'X_BOOKING_EXPIRED' } };
  if (!can(bookingMachine, b.state as BookingState, { type: event } as BookingEvent)) return { status: 409, body: { code: 'X_BOOKING_STATE' } };
  return undefined;
}

/** An operation found `b` past its time limit: the model's booking takes EXPIRE, once. */
export function foundExpired(m: Model, b: ModelBooking): void {
  if (b.state !== 'EXPIRED') fire(m, bookingMachine, b, 'EXPIRE');
}

export const isBookable = (m: Readonly<Model>, o: ModelOffer) => m.now <= o.bookableUntil;

/**
 * The model does not count a train's rooms: it books private compartments on a trip only so often that the fixture
 * trains always have rooms left (nine passengers take at most four rooms; a night train has 18 first-class rooms).
 */
const PRIVATE_BOOKINGS_PER_TRIP = 3;
export const roomsLeft = (m: Readonly<Model>, o: ModelOffer) =>
  !o.privateRooms || m.bookings.filter((b) => b.privateRooms && b.trip === o.trip).length < PRIVATE_BOOKINGS_PER_TRIP;

/** Confirmable as far as data go: every passenger named, a purchaser there (spec §2.7 rule 3; docs/api-behaviour.md "Warnings"). */
export const isComplete = (b: Readonly<ModelBooking>) => b.purchaser && b.passengers.every((p) => p.complete);

/**
 * Commands aim at an entity by an index into those that qualify, counted from the newest: the command
 * stays meaningful whatever ran before it (and while fast-check shrinks), and index 0 is the latest.
 */
export function pick<T>(items: readonly T[], index: number): T | undefined {
  return items.length === 0 ? undefined : items[items.length - 1 - (index % items.length)];
}

/** Confirmed, whatever happened since: a confirmed price and fulfillments (spec §3). */
export const CONFIRMED_STATES = ['FULFILLED', 'CANCELLED'];

/** A refund, release or on-hold offer that can still be confirmed (engine/aftersales/offers.ts isLive). */
export const isLive = (m: Readonly<Model>, o: Readonly<ModelAftersalesOffer>) => o.state === 'PROPOSED' && m.now < o.validUntil;
/** An exchange operation still pre-booked and within its lifetime. */
export const isLiveOperation = (m: Readonly<Model>, o: Readonly<ModelExchangeOperation>) => o.state === 'PREBOOKED' && m.now < o.validUntil;

/** Spec §4.1 rule 10: a live refund or release offer or exchange operation blocks the others (X_CONCURRENT_AFTERSALES). */
export function busy(m: Readonly<Model>, b: Readonly<ModelBooking>): boolean {
  return (
    m.aftersales.some((o) => o.booking === b.id && o.kind !== 'onHold' && isLive(m, o)) || m.operations.some((o) => o.booking === b.id && isLiveOperation(m, o))
  );
}

/**
 * Any aftersales call and the fulfillment call first settle an exchange operation past its lifetime
 * (engine/aftersales/exchange.ts expireOperations): EXPIRED, its originals FULFILLED again.
 */
export function settleOperations(m: Model, b: ModelBooking): void {
  for (const o of m.operations) {
    if (o.booking !== b.id || o.state !== 'PREBOOKED' || m.now < o.validUntil) continue;
    fire(m, exchangeMachine, o, 'EXPIRE');
    for (const f of o.fulfillments) firePart(m, b, f, 'CANCEL_EXCHANGE');
  }
}

/** The fulfillments of `b` in `statuses`. */
export const fulfillmentsIn = (b: Readonly<ModelBooking>, ...statuses: string[]) =>
  b.fulfillments.filter((f) => statuses.includes(b.fulfillmentStatus[f] ?? 'FULFILLED'));

export const findBooking = (m: Readonly<Model>, id: string) => m.bookings.find((b) => b.id === id)!;

/** Moves fulfillment `f` of `b` by the fulfillment machine (REFUND, RELEASE, EXCHANGE), recording the transition. */
export function fireFulfillment(m: Model, b: ModelBooking, f: string, event: string): void {
  const fulfillment = { state: b.fulfillmentStatus[f] ?? 'FULFILLED' };
  fire(m, fulfillmentMachine, fulfillment, event);
  b.fulfillmentStatus[f] = fulfillment.state;
  // The parts of the fulfillment follow it (engine/aftersales/tickets.ts withStatus); the events have the same names.
  firePart(m, b, f, event);
}

/** Moves the parts of fulfillment `f` of `b` by the part machine, recording the transition. */
export function firePart(m: Model, b: ModelBooking, f: string, event: string): void {
  const parts = { state: b.partStatus[f] ?? 'FULFILLED' };
  fire(m, bookingPartMachine, parts, event);
  b.partStatus[f] = parts.state;
}

export { aftersalesOfferMachine, bookingMachine, bookingPartMachine, exchangeMachine, fulfillmentMachine };
export const iso = (ms: number) => new Date(ms).toISOString();
/** `${name}`: a reference to a scenario variable. */
export const ref = (name: string) => '${' + name + '}';
