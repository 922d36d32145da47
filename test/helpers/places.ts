import { expect } from 'vitest';
import { BookingResponse } from '../../engine/model/osdm/booking-response.ts';
import { PlaceAvailabilityResponse } from '../../engine/model/osdm/seat-response.ts';

/**
 * Bookings made at once, each asking for the same place: every one was answered, exactly one got that place, and no
 * two got the same place. Returns each booking's place as `coach/place`.
 */
export function expectThePlaceSoldOnce(
  answers: ReadonlyArray<{ status: number; body: unknown }>,
  wanted: { coachNumber: string; placeNumber: string },
): string[] {
  for (const x of answers) expect(x.status, JSON.stringify(x.body)).toBe(200);
  const places = answers.map((x) => {
    const [place] = BookingResponse.parse(x.body).booking.bookedOffers[0]!.reservations[0]!.placeAllocation!.reservedPlaces;
    return `${place!.coachNumber}/${place!.placeNumbers[0]}`;
  });
  expect(
    places.filter((p) => p === `${wanted.coachNumber}/${wanted.placeNumber}`),
    places.join(' '),
  ).toHaveLength(1);
  expect(new Set(places).size, places.join(' ')).toBe(answers.length);
  return places;
}

/** The first free place of a place map's answer (GET /v3/availabilities/place-map), as a place selection names it. */
export function firstFreePlace(placeMap: unknown): { coachNumber: string; placeNumber: string } {
  return PlaceAvailabilityResponse.parse(placeMap).vehicleAvailability.vehicle.coaches.flatMap((c) =>
    c.compartments.flatMap((k) => k.places.filter((p) => p.status === 'FREE').map((p) => ({ coachNumber: c.number, placeNumber: p.number }))),
  )[0]!;
}
