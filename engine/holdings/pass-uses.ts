import type { OfferCollectionRequest } from '../model/osdm/offer-request.ts';
import type { BookedAdmission, Booking } from '../model/records.ts';
import { interval, overlaps } from './place-holdings.ts';
import { ENDED_PART_STATUSES, PROVISIONAL_STATES } from '../state/booking-state.ts';
import { tripOfPart } from '../model/trips.ts';
import { isPendingOperation } from '../state/aftersales-state.ts';

/**
 * Spec §2.7 rule 8: "two concurrent trips with the same pass are not allowed". A travel pass that pays for an
 * admission (AdmissionPart.travelPasses) is busy over that admission's journey, from its first departure to its
 * last arrival, for as long as the admission travels: a provisional booking until its confirmation time limit, a
 * pre-booked exchange until the operation's. A store indexes these uses by pass (Store.passUses), as it indexes
 * places by train.
 */
export interface PassUse {
  pass: string;
  bookingId: string;
  from: number;
  to: number;
  /** The instant the use ends unless confirmed (ISO); absent once it is. */
  until?: string;
}

/** What a booking's passes are busy with; a provisional booking's uses end at its time limit (`until`). */
export function passUsesOf(booking: Booking): PassUse[] {
  const until = PROVISIONAL_STATES.has(booking.machine.value) ? booking.confirmationTimeLimit : undefined;
  const uses: PassUse[] = [];
  const add = (a: Pick<BookedAdmission, 'id' | 'legIds' | 'status' | 'travelPasses'>, limit?: string) => {
    if (!a.travelPasses || ENDED_PART_STATUSES.has(a.status)) return;
    const legs = tripOfPart(booking, a.id).legs.filter((l) => a.legIds.includes(l.id));
    if (legs.length === 0) return;
    const span = { from: interval(legs[0]!).from, to: interval(legs[legs.length - 1]!).to };
    for (const pass of a.travelPasses) uses.push({ pass, bookingId: booking.id, ...span, ...(limit ? { until: limit } : {}) });
  };
  for (const a of booking.admissions) add(a, until);
  for (const op of booking.exchangeOperations ?? []) if (isPendingOperation(op.state)) for (const a of op.admissions) add(a, op.validUntil);
  return uses;
}

/** Every pass a booking's admissions were ever paid with, so a store can drop the uses that ended. */
export function passesOfBooking(booking: Booking): string[] {
  const admissions = [...booking.admissions, ...(booking.exchangeOperations ?? []).flatMap((o) => o.admissions)];
  return [...new Set(admissions.flatMap((a) => a.travelPasses ?? []))];
}

/**
 * Whether a pass already pays, at `now`, for another journey overlapping `journey` (spec §2.7 rule 8: such a pass is
 * ignored in an offer request, as an expired one is).
 */
export function busyPasses(uses: readonly PassUse[], now: Date, journey: { from: number; to: number }): (pass: string) => boolean {
  const at = now.getTime();
  const busy = new Set(uses.filter((u) => (u.until === undefined || at < Date.parse(u.until)) && overlaps(u, journey)).map((u) => u.pass));
  return (pass) => busy.has(pass);
}

/**
 * The rides a multi-ride pass has given at `now` (spec §2.7 rule 8: a used-up pass is ignored): one for each admission
 * it pays for, confirmed or still held; a refund, a cleanup or an expiry gives the ride back (the use is gone).
 */
export function ridesTaken(uses: readonly PassUse[], now: Date): (pass: string) => number {
  const at = now.getTime();
  const taken = new Map<string, number>();
  for (const u of uses) if (u.until === undefined || at < Date.parse(u.until)) taken.set(u.pass, (taken.get(u.pass) ?? 0) + 1);
  return (pass) => taken.get(pass) ?? 0;
}

/** The travel pass numbers the passengers of stored offers carry, for the service to load (Store.soldPasses). */
export function travelPassesOfOffers(offers: Iterable<{ passengers: ReadonlyArray<{ cards: ReadonlyArray<{ type: string; number?: string }> }> }>): string[] {
  const numbers = [...offers].flatMap((o) => o.passengers.flatMap((p) => p.cards.flatMap((c) => (c.type === 'TRAVEL_PASS' && c.number ? [c.number] : []))));
  return [...new Set(numbers)];
}

/** The travel pass numbers a validated offer request's passengers carry, for the caller to load (Store.soldPasses, Store.passUses). */
export function travelPassesOfOfferRequest(request: Pick<OfferCollectionRequest, 'anonymousPassengerSpecifications'>): string[] {
  return travelPassesOfOffers([{ passengers: request.anonymousPassengerSpecifications }]);
}
