import type { Booking, Leg, Trip } from './records.ts';

/**
 * A train is its vehicle number and service date: the local date of the leg's departure, as the timetable
 * shows it (rules/timetable.yaml). Places are held per train (issue "Seats": inventory).
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

/**
 * The trains an offer request names, read loosely from the raw body (the engine validates it properly), so
 * the service can load the bookings on them before the engine decides what is still free.
 */
export function trainKeysOfOfferRequest(body: unknown): string[] {
  const trips = (body as { tripSpecifications?: unknown } | null)?.tripSpecifications;
  if (!Array.isArray(trips)) return [];
  const keys = trips.flatMap((t) => (Array.isArray((t as { legs?: unknown })?.legs) ? (t as { legs: unknown[] }).legs : []).flatMap((l) => {
    const timed = (l as { timedLeg?: { start?: { serviceDeparture?: { timetabledTime?: unknown } }; service?: { vehicleNumbers?: unknown } } })?.timedLeg;
    const departure = timed?.start?.serviceDeparture?.timetabledTime;
    const vehicles = timed?.service?.vehicleNumbers;
    return typeof departure === 'string' && Array.isArray(vehicles) && typeof vehicles[0] === 'string' ? [trainKey({ vehicleNumber: vehicles[0], departure })] : [];
  }));
  return [...new Set(keys)];
}
