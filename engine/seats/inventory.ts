import { isExpired } from '../booking/lifecycle.ts';
import type { Booking, BookedReservation, Leg } from '../model.ts';
import { trainKey } from './train.ts';

/** What a reservation holds (stored on it, rendered as OSDM placeAllocation, spec §2.10). */
export interface PlaceAllocation {
  vehicleNumber: string;
  coachNumber: string;
  placeNumber: string;
  layoutId: string;
  accommodationSubType: string;
  placeProperties: string[];
  /** The compartment of a night coach. */
  compartment?: string;
  /** The gender a shared compartment takes from its first passenger (spec §2.5 rule 6). */
  gender?: string;
  /** Held as a private compartment: nobody of another booking may join it (spec §2.5). */
  private?: boolean;
}

/** A place held on a train over the interval of the leg holding it. */
export interface Holding {
  train: string;
  coachNumber: string;
  placeNumber: string;
  compartment?: string;
  gender?: string;
  private: boolean;
  from: number;
  to: number;
  bookingId: string;
  reservationId: string;
  passengerId: string;
}

/** Parts that gave their place back (spec §4.1 rule 5: released; refunded; exchanged). */
const FREED = new Set(['CANCELLED', 'RELEASED', 'EXCHANGED']);

export const interval = (leg: Pick<Leg, 'departure' | 'arrival'>) => ({ from: Date.parse(leg.departure), to: Date.parse(leg.arrival) });
export const overlaps = (a: { from: number; to: number }, b: { from: number; to: number }) => a.from < b.to && b.from < a.to;

/** Whether a reservation still holds its place at `now`: not freed, and its booking not expired (spec §3). */
export function holds(booking: Booking, r: BookedReservation, now: Date): boolean {
  return !!r.placeAllocation && !FREED.has(r.status) && !isExpired(booking, now);
}

/** The places the given bookings hold at `now` (on every train; Holding.train says which). */
export function holdingsOf(bookings: readonly Booking[], now: Date): Holding[] {
  const out: Holding[] = [];
  const seen = new Set<string>();
  for (const b of bookings) {
    if (seen.has(b.id)) continue;
    seen.add(b.id);
    for (const r of b.reservations) {
      const leg = b.trip.legs.find((l) => l.id === r.legId);
      if (!leg || !holds(b, r, now)) continue;
      out.push(holding(b.id, r, leg));
    }
  }
  return out;
}

export function holding(bookingId: string, r: Pick<BookedReservation, 'id' | 'passengerId' | 'placeAllocation'>, leg: Leg): Holding {
  const a = r.placeAllocation!;
  return {
    train: trainKey(leg), coachNumber: a.coachNumber, placeNumber: a.placeNumber,
    ...(a.compartment ? { compartment: a.compartment } : {}), ...(a.gender ? { gender: a.gender } : {}),
    private: a.private ?? false, ...interval(leg), bookingId, reservationId: r.id, passengerId: r.passengerId,
  };
}
