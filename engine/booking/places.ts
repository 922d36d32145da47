import { z } from 'zod';
import { enforce, type Context } from '../context.ts';
import type { StoredOffer } from '../model.ts';
import { parseRequest } from '../validate.ts';

/**
 * OSDM PlaceSelection (spec §2.10 rule 2): exact places, accommodations with place properties, or a
 * reference place. Given inside the OfferSelection (OSDM) or at the top of the booking request (spec §2.6);
 * CONTRACT §4b accepts both.
 */
const objectType = z.string().optional();
export const PlaceSelection = z.strictObject({
  objectType,
  reservationId: z.string().min(1),
  tripLegCoverage: z.unknown().optional(),
  places: z.array(z.strictObject({ objectType, coachNumber: z.string(), placeNumber: z.string(), passengerRef: z.string() })).optional(),
  accommodations: z.array(z.strictObject({
    objectType,
    passengerRefs: z.array(z.string()).optional(),
    accommodationType: z.string().optional(),
    accommodationSubType: z.string().optional(),
    placeProperties: z.array(z.string()).default([]),
  })).optional(),
  referencePlace: z.strictObject({ objectType, coachNumber: z.string(), placeNumber: z.string() }).optional(),
});
export type PlaceSelection = z.infer<typeof PlaceSelection>;

const GENDERS = ['MEN', 'LADIES', 'MIXED'] as const;

/**
 * Reads the place selections of a booking request and applies spec §2.5 rule 5 (rules/night-gender.yaml)
 * to every reservation of a shared night compartment. Returns the selections by offer reservation id.
 */
export function readPlaceSelections(ctx: Context, offer: StoredOffer, raw: unknown[], pointer: string): Map<string, PlaceSelection> {
  const selections = parseRequest(z.array(PlaceSelection), raw, pointer);
  const byReservation = new Map<string, PlaceSelection>();
  selections.forEach((s) => byReservation.set(s.reservationId, s));
  offer.reservations.forEach((r) => {
    const product = ctx.rules.products.products[r.product.code]!;
    const selection = byReservation.get(r.id);
    const genders = (selection?.accommodations ?? [])
      .filter((a) => !a.passengerRefs || a.passengerRefs.includes(r.passengerRef))
      .flatMap((a) => a.placeProperties.filter((p): p is (typeof GENDERS)[number] => (GENDERS as readonly string[]).includes(p)));
    const index = selection ? selections.indexOf(selection) : -1;
    enforce(ctx, 'nightGender', {
      compartment: product.compartment ?? 'NONE',
      accommodationType: product.accommodationType,
      genderCount: genders.length,
      gender: genders[0] ?? 'NONE',
    }, index >= 0 ? `${pointer}/${index}/accommodations` : pointer);
  });
  return byReservation;
}
