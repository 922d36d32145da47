import type { OfferCollectionRequest } from './osdm/offer-request.ts';
import type { Booking, Leg, Trip } from './records.ts';
import type { Calendar } from '../rules/calendar.ts';

/**
 * A train is its vehicle number and operating day: the local date of the leg's departure in the operator's
 * calendar (CONTRACT §4, engine/rules/calendar.ts), whatever offset the departure was written with. Places are
 * held per train (engine/holdings/place-holdings.ts).
 */
export function trainKey(leg: Pick<Leg, 'vehicleNumber' | 'departure'> & Partial<Pick<Leg, 'operatingDay'>>): string {
  // A leg stored before legs carried their operating day is named as it was then, by its departure's written date,
  // so that the places it holds are still found.
  return `${leg.vehicleNumber}/${leg.operatingDay ?? leg.departure.slice(0, 10)}`;
}

export function trainKeysOfTrip(trip: Trip): string[] {
  return [...new Set(trip.legs.map(trainKey))];
}

/** Every train a booking holds or held places on: its trip and the new trips of its exchange operations. */
export function trainKeysOfBooking(booking: Booking): string[] {
  return [...new Set([booking.trip, ...(booking.exchangeOperations ?? []).map((o) => o.trip)].flatMap(trainKeysOfTrip))];
}

/** The trains a validated offer request names, so the caller can load the bookings on them before the engine decides what is still free. */
export function trainKeysOfOfferRequest(request: Pick<OfferCollectionRequest, 'tripSpecifications'>, calendar: Calendar): string[] {
  const keys = (request.tripSpecifications ?? []).flatMap((t) =>
    t.legs.flatMap(({ timedLeg }) => {
      const vehicleNumber = timedLeg.service.vehicleNumbers[0];
      if (vehicleNumber === undefined) return [];
      const departure = timedLeg.start.serviceDeparture.timetabledTime;
      return [trainKey({ vehicleNumber, departure, operatingDay: calendar.dayOf(departure) })];
    }),
  );
  return [...new Set(keys)];
}
