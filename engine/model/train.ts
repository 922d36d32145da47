import type { OfferCollectionRequest } from './osdm/offer-request.ts';
import type { Booking, Leg, Trip } from './records.ts';

/**
 * A train is its vehicle number and service date: the local date of the leg's departure, as the timetable
 * shows it (rules/timetable.yaml). Places are held per train (engine/holdings/place-holdings.ts).
 */
export function trainKey(leg: Pick<Leg, 'vehicleNumber' | 'departure'>): string {
  return `${leg.vehicleNumber}/${leg.departure.slice(0, 10)}`;
}

export function trainKeysOfTrip(trip: Trip): string[] {
  return [...new Set(trip.legs.map(trainKey))];
}

/** Every train a booking holds or held places on: its trip and the new trips of its exchange operations. */
export function trainKeysOfBooking(booking: Booking): string[] {
  return [...new Set([booking.trip, ...(booking.exchangeOperations ?? []).map((o) => o.trip)].flatMap(trainKeysOfTrip))];
}

/** The trains a validated offer request names, so the caller can load the bookings on them before the engine decides what is still free. */
export function trainKeysOfOfferRequest(request: Pick<OfferCollectionRequest, 'tripSpecifications'>): string[] {
  const keys = (request.tripSpecifications ?? []).flatMap((t) =>
    t.legs.flatMap(({ timedLeg }) => {
      const vehicleNumber = timedLeg.service.vehicleNumbers[0];
      return vehicleNumber === undefined ? [] : [trainKey({ vehicleNumber, departure: timedLeg.start.serviceDeparture.timetabledTime })];
    }),
  );
  return [...new Set(keys)];
}
