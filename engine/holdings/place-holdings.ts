import { ENDED_PART_STATUSES, isExpired, PROVISIONAL_STATES } from '../state/booking-state.ts';
import type { Booking, BookedReservation, Leg } from '../model/records.ts';
import { trainKey } from '../model/train.ts';
import { tripOfPart } from '../model/trips.ts';
import { isPendingOperation } from '../state/aftersales-state.ts';

/** A place held on a train over the interval of the leg holding it. */
export interface Holding {
  train: string;
  coachNumber: string;
  placeNumber: string;
  compartment?: string;
  gender?: string;
  private: boolean;
  /** Its passenger is alone in the compartment (spec §2.4): nobody may join, of this booking or another. */
  alone?: boolean;
  from: number;
  to: number;
  bookingId: string;
  reservationId: string;
  passengerId: string;
  /** A place a pre-booked exchange holds for its new trip: until the operation's time limit (spec §3). */
  until?: string;
}

export const interval = (leg: Pick<Leg, 'departure' | 'arrival'>) => ({ from: Date.parse(leg.departure), to: Date.parse(leg.arrival) });
export const overlaps = (a: { from: number; to: number }, b: { from: number; to: number }) => a.from < b.to && b.from < a.to;

/** Whether a reservation still holds its place at `now`: not freed, and its booking not expired (spec §3). */
export function holds(booking: Booking, r: BookedReservation, now: Date): boolean {
  return !!r.placeAllocation && !ENDED_PART_STATUSES.has(r.status) && !isExpired(booking, now);
}

/**
 * What one booking holds on one train, as a store indexes it (Store.holdingsOnTrain): written with every
 * change of the booking, so that deciding what is free reads a few small records instead of every booking
 * ever made on the train. Whether they still hold at a given instant is decided by `holdingsOf`: a
 * provisional booking holds `until` its confirmation time limit (spec §3).
 */
export interface TrainHoldings {
  train: string;
  bookingId: string;
  /** The confirmation time limit of a provisional booking (ISO); absent once it is confirmed. */
  until?: string;
  holdings: Holding[];
}

/** The bookings on a train, as the engine's callers give them: whole bookings, or their index entries. */
export type OnTrain = Booking | TrainHoldings;

/**
 * The index entries of a booking: one per train it holds places on, none for a train it gave every place back on.
 * Its reservations hold (those of a confirmed exchange included, on their new trip), and so do the new reservations
 * of an exchange still pre-booked, until that operation's time limit.
 */
export function trainHoldingsOf(booking: Booking): TrainHoldings[] {
  const until = PROVISIONAL_STATES.has(booking.machine.value) ? booking.confirmationTimeLimit : undefined;
  const operations = booking.exchangeOperations ?? [];
  const byTrain = new Map<string, Holding[]>();
  const add = (r: BookedReservation, leg: Leg | undefined, limit?: string) => {
    if (!r.placeAllocation || ENDED_PART_STATUSES.has(r.status) || !leg) return;
    const h = { ...holding(booking.id, r, leg), ...(limit ? { until: limit } : {}) };
    byTrain.set(h.train, [...(byTrain.get(h.train) ?? []), h]);
  };
  for (const r of booking.reservations)
    add(
      r,
      tripOfPart(booking, r.id).legs.find((l) => l.id === r.legId),
    );
  for (const op of operations) {
    if (!isPendingOperation(op.state)) continue;
    for (const r of op.reservations)
      add(
        r,
        op.trip.legs.find((l) => l.id === r.legId),
        op.validUntil,
      );
  }
  return [...byTrain].map(([train, holdings]) => ({ train, bookingId: booking.id, ...(until ? { until } : {}), holdings }));
}

const isBooking = (x: OnTrain): x is Booking => 'reservations' in x;
export const bookingIdOf = (x: OnTrain) => (isBooking(x) ? x.id : x.bookingId);

/** The places the given bookings (or their index entries) hold at `now`, on every train (Holding.train says which). */
export function holdingsOf(onTrains: readonly OnTrain[], now: Date): Holding[] {
  const out: Holding[] = [];
  const seen = new Set<string>();
  const at = now.getTime();
  for (const x of onTrains) {
    for (const entry of isBooking(x) ? trainHoldingsOf(x) : [x]) {
      const key = `${entry.bookingId}\u0000${entry.train}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (entry.until !== undefined && at >= Date.parse(entry.until)) continue;
      for (const h of entry.holdings) if (h.until === undefined || at < Date.parse(h.until)) out.push(h);
    }
  }
  return out;
}

export function holding(bookingId: string, r: Pick<BookedReservation, 'id' | 'passengerId' | 'placeAllocation'>, leg: Leg): Holding {
  const a = r.placeAllocation!;
  return {
    train: trainKey(leg),
    coachNumber: a.coachNumber,
    placeNumber: a.placeNumber,
    ...(a.compartment ? { compartment: a.compartment } : {}),
    ...(a.gender ? { gender: a.gender } : {}),
    private: a.private ?? false,
    ...(a.alone ? { alone: true } : {}),
    ...interval(leg),
    bookingId,
    reservationId: r.id,
    passengerId: r.passengerId,
  };
}
