import type { Booking, Leg, Trip } from '../model.ts';

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
