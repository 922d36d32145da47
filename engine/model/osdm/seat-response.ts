import { z } from 'zod';
import { TripLegCoverage } from './shapes.ts';
import { CoachDirection, GridSize, LayoutCoordinates, PlaceDirection } from '../../rules/seat-schemas.ts';

/**
 * The seat answers (spec §2.10, §2.11, §4.1 rule 3; CONTRACT §6) as engine/seats/render.ts and
 * engine/seats/place-map.ts render them, in OSDM 3.4 names where OSDM has them.
 */

/** OSDM PlaceAllocation of a booked reservation (spec §2.10): the place it holds on its leg. */
export const PlaceAllocation = z.strictObject({
  accommodationType: z.string(),
  accommodationSubType: z.string(),
  tripLegCoverage: TripLegCoverage,
  reservedPlaces: z.array(
    z.strictObject({
      id: z.string(),
      passengerIds: z.array(z.string()),
      vehicleNumber: z.string(),
      coachNumber: z.string(),
      placeNumbers: z.array(z.string()),
      placeProperties: z.array(z.string()),
    }),
  ),
});

/**
 * OSDM AvailabilityStatus of a place as spec §2.11 uses it: FREE exactly when this passenger may take the place;
 * a place another reservation holds is ALLOCATED (OSDM's word for what the spec calls occupied), any other place
 * RESTRICTED. Clients treat both as not free (docs/seats-in-osdm.md).
 */
export const PlaceStatus = z.enum(['FREE', 'ALLOCATED', 'RESTRICTED']);

/** OSDM PlacePreSelection: a place of a booking's reservation on the leg (spec §2.11 preSelections). */
export const PlacePreSelection = z.strictObject({
  reservationId: z.string(),
  coach: z.string().describe('Coach.number'),
  place: z.string().describe('PlacePosition.number'),
});

/** OSDM PartReference: the offer's reservation offer part or the booking's reservation the map was asked for. */
export const PartReference = z.strictObject({
  contextId: z.string(),
  contextType: z.enum(['OFFER', 'BOOKING']),
  resourceId: z.string(),
  resourceType: z.literal('RESERVATION'),
});

/**
 * GET /availabilities/place-map → 200: OSDM PlaceAvailabilityResponse (spec §2.11). OSDM 3.4 has no Coach.status
 * and no PlacePosition.isSelectable (the spec's table predates 3.4): a place is selectable exactly when FREE.
 */
export const PlaceAvailabilityResponse = z.strictObject({
  vehicleAvailability: z.strictObject({
    reference: PartReference,
    vehicle: z.strictObject({
      coaches: z.array(
        z.strictObject({
          number: z.string(),
          layoutId: z.string(),
          owner: z.string(),
          direction: CoachDirection,
          compartments: z.array(
            z.strictObject({
              number: z.string(),
              status: z.literal('FREE'),
              isSelectable: z.boolean(),
              places: z.array(z.strictObject({ number: z.string(), status: PlaceStatus, placeProperties: z.array(z.string()) })),
            }),
          ),
        }),
      ),
    }),
    preSelections: z.array(PlacePreSelection).optional(),
  }),
});

/** GET /availabilities → 200: the FREE places counted per place-property combination (CONTRACT §6; not in OSDM). */
export const AvailabilityCountResponse = z.strictObject({
  availabilities: z.array(z.strictObject({ placeProperties: z.array(z.string()), count: z.number().int() })),
});

/**
 * GET /availabilities/preferences → 200: OSDM PlaceAvailabilityCollectionResponse. One OSDM AvailablePlace per
 * combination of accommodation type, sub type and place properties that has FREE places for the subject, with
 * how many (numericAvailability); the place map names the places themselves.
 */
export const PlacePreferencesResponse = z.strictObject({
  availablePlaces: z.array(
    z.strictObject({
      accommodationType: z.string(),
      accommodationSubType: z.string(),
      placeProperties: z.array(z.string()),
      numericAvailability: z.number().int(),
      tripLegCoverage: TripLegCoverage,
    }),
  ),
});

/**
 * GET /coach-layouts/{layoutId} → 200: OSDM CoachLayoutResponse. Each place is drawn with its `icon`, whose size
 * is fixed by the UIC icon list (spec §2.11: a seat is 40 px wide, rules/coach-layouts.yaml `icons`); a night
 * coach shows its compartment numbers where OSDM puts them, in `compartmentNumbers`.
 */
export const CoachLayoutResponse = z.strictObject({
  coachLayout: z.strictObject({
    id: z.string(),
    gridSize: GridSize,
    places: z.array(
      z.strictObject({
        icon: z.string(),
        number: z.string(),
        direction: PlaceDirection,
        coords: LayoutCoordinates,
      }),
    ),
    compartmentNumbers: z.array(z.strictObject({ number: z.string(), coords: LayoutCoordinates })).optional(),
  }),
});
