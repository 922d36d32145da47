import { expect } from 'vitest';
import { BookingResponse } from '../../engine/model/osdm/booking-response.ts';

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
