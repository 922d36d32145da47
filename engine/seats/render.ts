import type { z } from 'zod';
import type { Booking, BookedReservation } from '../model/records.ts';
import type { RuleSet } from '../rules/ruleset.ts';
import { tripOfPart } from '../model/trips.ts';
import type { PlaceAllocation } from '../model/osdm/seat-response.ts';
import type { PlaceSelection } from '../model/osdm/shapes.ts';

/**
 * OSDM PlaceSelection of a booked reservation: what was asked for it, under the reservation's own id and leg
 * (a selection made at booking named the offer's reservation offer part), passengers named by id.
 */
export function renderPlaceSelection(booking: Booking, r: BookedReservation): PlaceSelection {
  const { places, accommodations, referencePlace } = r.placeSelection as PlaceSelection;
  return {
    reservationId: r.id,
    tripLegCoverage: { tripId: tripOfPart(booking, r.id).id, legId: r.legId },
    ...(places ? { places } : {}),
    ...(accommodations ? { accommodations } : {}),
    ...(referencePlace ? { referencePlace } : {}),
  };
}

/** OSDM PlaceAllocation of a reservation (spec §2.10): the place it holds on its leg. */
export function renderPlaceAllocation(rules: RuleSet, booking: Booking, r: BookedReservation): z.infer<typeof PlaceAllocation> {
  const a = r.placeAllocation!;
  return {
    accommodationType: rules.products.products[r.product.code]?.accommodationType ?? 'SEAT',
    accommodationSubType: rules.products.accommodationSubType,
    tripLegCoverage: { tripId: tripOfPart(booking, r.id).id, legId: r.legId },
    reservedPlaces: [
      {
        id: `${a.coachNumber}-${a.placeNumber}`,
        passengerIds: [r.passengerId],
        vehicleNumber: a.vehicleNumber,
        coachNumber: a.coachNumber,
        placeNumbers: [a.placeNumber],
        placeProperties: a.placeProperties,
      },
    ],
  };
}
