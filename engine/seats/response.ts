import { z } from 'zod';
import { TripLegCoverage } from '../osdm/shapes.ts';
import { GridSize, PlaceCoords, PlaceDirection } from '../rules/seat-schemas.ts';

/**
 * The seat answers (spec §2.10, §2.11, §4.1 rule 3; CONTRACT §6) as engine/seats/render.ts and
 * engine/seats/place-map.ts render them, in OSDM 3.4 names where OSDM has them.
 */

/** OSDM PlaceAllocation of a booked reservation (spec §2.10): the place it holds on its leg. */
export const PlaceAllocation = z.strictObject({
  accommodationType: z.string(),
  accommodationSubType: z.string(),
  tripLegCoverage: TripLegCoverage,
  reservedPlaces: z.array(z.strictObject({
    id: z.string(),
    passengerIds: z.array(z.string()),
    vehicleNumber: z.string(),
    coachNumber: z.string(),
    placeNumbers: z.array(z.string()),
    placeProperties: z.array(z.string()),
  })),
});

/** OSDM PlacePosition.status as spec §2.11 uses it: FREE exactly when this passenger may take the place. */
export const PlaceStatus = z.enum(['FREE', 'OCCUPIED', 'RESTRICTED']);

/** A place of a booking's reservations on the leg (spec §2.11 preSelections). */
export const PreSelection = z.strictObject({
  reservationId: z.string(),
  passengerRef: z.string(),
  passengerId: z.string(),
  coachNumber: z.string(),
  placeNumber: z.string(),
});

/**
 * GET /availabilities/place-map → 200: OSDM PlaceAvailabilityResponse. Its `vehicleAvailability` differs from
 * OSDM 3.4 PlaceAvailability (which nests the coaches under a required `vehicle`): the renderer puts
 * tripLegCoverage, vehicleNumber and coaches at its top.
 */
export const PlaceAvailabilityResponse = z.strictObject({
  vehicleAvailability: z.strictObject({
    tripLegCoverage: TripLegCoverage,
    vehicleNumber: z.string(),
    coaches: z.array(z.strictObject({
      number: z.string(),
      status: z.literal('FREE'),
      layoutId: z.string(),
      owner: z.string(),
      direction: PlaceDirection,
      compartments: z.array(z.strictObject({
        number: z.string(),
        status: z.literal('FREE'),
        isSelectable: z.boolean(),
        places: z.array(z.strictObject({ number: z.string(), status: PlaceStatus, isSelectable: z.boolean(), placeProperties: z.array(z.string()) })),
      })),
    })),
    preSelections: z.array(PreSelection).optional(),
  }),
});

/** GET /availabilities → 200: the FREE places counted per place-property combination (CONTRACT §6; not in OSDM). */
export const AvailabilityCountResponse = z.strictObject({
  availabilities: z.array(z.strictObject({ placeProperties: z.array(z.string()), count: z.number().int() })),
});

/** GET /availabilities/preferences → 200: OSDM PlaceAvailabilityCollectionResponse, each place by coach and number. */
export const PlacePreferencesResponse = z.strictObject({
  availablePlaces: z.array(z.strictObject({ coachNumber: z.string(), placeNumber: z.string(), placeProperties: z.array(z.string()) })),
});

/** GET /coach-layouts/{layoutId} → 200: OSDM CoachLayoutResponse; `seatWidth` (40 px, spec §2.11) is our addition. */
export const CoachLayoutResponse = z.strictObject({
  coachLayout: z.strictObject({
    id: z.string(),
    gridSize: GridSize,
    seatWidth: z.number().int(),
    places: z.array(z.strictObject({
      number: z.string(),
      coords: PlaceCoords,
      direction: PlaceDirection,
      placeProperties: z.array(z.string()),
      compartmentNumber: z.string().optional(),
    })),
  }),
});
