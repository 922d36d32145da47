import type { Booking, Trip } from './records.ts';

/**
 * The trip a booking part travels on: the new trip of the exchange operation that made it, else the booking's
 * own. Leg ids are the reseller's externalRefs and may repeat from one trip to the next (`leg-1` in both), so a
 * part's legs are looked up in its own trip, never among the legs of every trip.
 */
export function tripOfPart(booking: Booking, partId: string): Trip {
  for (const op of booking.exchangeOperations ?? []) {
    if (op.admissions.some((p) => p.id === partId) || op.reservations.some((p) => p.id === partId) || op.ancillaries.some((p) => p.id === partId))
      return op.trip;
  }
  return booking.trip;
}
