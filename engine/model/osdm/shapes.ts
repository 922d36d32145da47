import { z } from 'zod';
import { DATE_TIME_WITH_OFFSET } from '../../rules/time.ts';
import { Currency } from '../../rules/schemas.ts';

/**
 * The small OSDM 3.4 shapes every response is built from, each defined once here (DESIGN: one source per
 * shape) and used by the response schemas of engine/offers, engine/booking, engine/aftersales and engine/seats.
 * The renderers decide what is sent; these schemas say it, for GET /openapi.json and for the scenario
 * runner's check of every response (docs/scenarios.md).
 */

/** An instant as the renderers write it: ISO 8601 with `Z` or an offset (OSDM `date-time`). */
export const Instant = z.string().regex(DATE_TIME_WITH_OFFSET, 'an ISO 8601 date-time with Z or an offset');

/** OSDM VatDetail. */
export const Vat = z.strictObject({
  countryCode: z.string(),
  amount: z.number().int(),
  percentage: z.number(),
  scope: z.literal('NATIONAL'),
});

/** OSDM Price: an amount in minor units, scale 2 (CONTRACT §4), SEK or EUR (spec §1.6); VAT on domestic trips (spec §2.6 rule 9). */
export const Price = z.strictObject({
  currency: Currency,
  amount: z.number().int().describe('In minor units (öre, cents).'),
  scale: z.number().int().describe('Always 2 (CONTRACT §4).'),
  vats: z.array(Vat).optional(),
});

/** OSDM reference by id (`reservationRefs`, `bookingParts`, …). */
export const Ref = z.strictObject({ id: z.string() });

/** OSDM TripCoverage: which trip and legs an offer or part covers. */
export const TripCoverage = z.strictObject({ coveredTripId: z.string(), coveredLegIds: z.array(z.string()) });

/** OSDM TripLegCoverage: one leg of one trip. */
export const TripLegCoverage = z.strictObject({ tripId: z.string(), legId: z.string() });

/** OSDM ProductLegAssociation; a travel pass product covers no leg (spec §4.2 rule 3). */
export const ProductLegAssociation = z.strictObject({ productId: z.string(), legIds: z.array(z.string()).optional() });

/** OSDM FulfillmentOption. */
export const FulfillmentOption = z.strictObject({ type: z.string(), media: z.string() });

/**
 * OSDM Fulfillment.status as this operator uses it (engine/model/records.ts Fulfillment). CONFIRMED: confirmed, its
 * ticket not issued yet (OSDM's asynchronous fulfillment), which only a sandbox's fault fulfillment-pending shows.
 */
export const FulfillmentStatus = z.enum(['CONFIRMED', 'FULFILLED', 'REFUNDED', 'EXCHANGED', 'RELEASED']);

/**
 * OSDM Fulfillment as a booking, and the aftersales offers and operations that cover it, list it; the ticket number
 * is `controlNumber` (CONTRACT §4b). OSDM defines no `objectType` on Fulfillment.
 */
export const FulfillmentSummary = z.strictObject({
  id: z.string(),
  status: FulfillmentStatus,
  bookingRef: z.string(),
  createdOn: Instant,
  controlNumber: z.string().optional(),
  bookingParts: z.array(Ref),
});

/** OSDM BookingPartStatus as this operator uses it (engine/model/records.ts). */
export const BookingPartStatus = z.enum(['PREBOOKED', 'ON_HOLD', 'CONFIRMED', 'FULFILLED', 'CANCELLED', 'EXCHANGE_ONGOING', 'EXCHANGED', 'RELEASED']);

/**
 * OSDM 3.4 WarningCollection: `"warnings": {"warnings": [Warning]}` (MAPPING §3). Our Warning carries `code` and
 * `detail` only (rules/errors.yaml `warnings:`), the fields OSDM's Warning allows besides `type` and `instance`.
 */
export const WarningCollection = z
  .strictObject({
    warnings: z.array(z.strictObject({ code: z.string(), detail: z.string() })).min(1),
  })
  .describe('OSDM 3.4 warnings: the operation went through, but the caller should know.');

/**
 * OSDM PlaceSelection (spec §2.10 rule 2): exact places, accommodations with place properties, or a
 * reference place. Given inside the OfferSelection (OSDM) or at the top of the booking request (spec §2.6);
 * CONTRACT §4b accepts both. OSDM requires the leg the reservation covers (`tripLegCoverage`) and, for
 * accommodations, whom they are for and the accommodation type and sub type.
 */
export const PlaceSelection = z.strictObject({
  reservationId: z.string().min(1),
  tripLegCoverage: TripLegCoverage,
  places: z.array(z.strictObject({ coachNumber: z.string(), placeNumber: z.string(), passengerRef: z.string() })).optional(),
  accommodations: z
    .array(
      z.strictObject({
        passengerRefs: z.array(z.string()).min(1),
        accommodationType: z.string(),
        accommodationSubType: z.string(),
        placeProperties: z.array(z.string()).default([]),
      }),
    )
    .optional(),
  referencePlace: z.strictObject({ coachNumber: z.string(), placeNumber: z.string() }).optional(),
});
export type PlaceSelection = z.infer<typeof PlaceSelection>;
