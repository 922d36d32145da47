import { z } from 'zod';
import { enforce, type Context } from '../context.ts';
import type { StoredOffer } from '../model.ts';
import { TripLegCoverage } from '../osdm/shapes.ts';
import { violation } from '../violation.ts';

/**
 * OSDM PlaceSelection (spec §2.10 rule 2): exact places, accommodations with place properties, or a
 * reference place. Given inside the OfferSelection (OSDM) or at the top of the booking request (spec §2.6);
 * CONTRACT §4b accepts both. OSDM requires the leg the reservation covers (`tripLegCoverage`) and, for
 * accommodations, whom they are for and the accommodation type and sub type.
 */
const objectType = z.string().optional();
export const PlaceSelection = z.strictObject({
  objectType,
  reservationId: z.string().min(1),
  tripLegCoverage: TripLegCoverage,
  places: z.array(z.strictObject({ objectType, coachNumber: z.string(), placeNumber: z.string(), passengerRef: z.string() })).optional(),
  accommodations: z.array(z.strictObject({
    objectType,
    passengerRefs: z.array(z.string()).min(1),
    accommodationType: z.string(),
    accommodationSubType: z.string(),
    placeProperties: z.array(z.string()).default([]),
  })).optional(),
  referencePlace: z.strictObject({ objectType, coachNumber: z.string(), placeNumber: z.string() }).optional(),
});
export type PlaceSelection = z.infer<typeof PlaceSelection>;

const GENDERS = ['MEN', 'LADIES', 'MIXED'] as const;

/** A reservation a place selection may name, with the leg it covers and its passenger. */
export interface SelectableReservation {
  id: string;
  tripId: string;
  legId: string;
  passengerId: string;
}

/**
 * Checks that each selection says the leg of the reservation it names (86001) and that every passenger it names
 * is one the request may name there (spec §7 86029: the passenger could not be mapped), and returns the selections
 * with the passengers named by their booking id, as OSDM's SelectedPlace.passengerRef and a stored booking name
 * them. `idOf` maps a reference as the request gives it to a passenger id of the booking: the externalRef when
 * booking, the passenger's id in a patch (spec §2.7 rule 2). A place in `places` is for the passenger of the
 * reservation it is listed under; naming anybody else there would leave the place unused, so it is refused too.
 */
export function mapPlaceSelections(
  selections: PlaceSelection[], reservations: readonly SelectableReservation[], idOf: (ref: string) => string | undefined,
  refOf: (passengerId: string) => string, pointer: string,
): PlaceSelection[] {
  return selections.map((s, i) => {
    const at = `${pointer}/${i}`;
    const r = reservations.find((x) => x.id === s.reservationId);
    if (!r) return s;
    if (s.tripLegCoverage.tripId !== r.tripId || s.tripLegCoverage.legId !== r.legId) {
      throw violation('86001', { reason: `placeSelections[${i}].tripLegCoverage must be the leg of reservation ${r.id}: {"tripId":"${r.tripId}","legId":"${r.legId}"}` }, `${at}/tripLegCoverage`);
    }
    const unmapped = (ref: string, where: string) =>
      violation('86029', { passengerRef: ref, reservationId: r.id, expected: refOf(r.passengerId) }, where);
    const places = s.places?.map((p, j) => {
      const id = idOf(p.passengerRef);
      if (id !== r.passengerId) throw unmapped(p.passengerRef, `${at}/places/${j}/passengerRef`);
      return { ...p, passengerRef: id };
    });
    const accommodations = s.accommodations?.map((a, j) => {
      const ids = a.passengerRefs.map((ref, k) => idOf(ref) ?? (() => { throw unmapped(ref, `${at}/accommodations/${j}/passengerRefs/${k}`); })());
      return { ...a, passengerRefs: ids };
    });
    return { ...s, ...(places ? { places } : {}), ...(accommodations ? { accommodations } : {}) };
  });
}

/**
 * Reads the place selections of a booking request and applies spec §2.5 rule 5 (rules/night-gender.yaml)
 * to every reservation of a shared night compartment. Returns the selections by offer reservation id, their
 * passengers named by booking id (mapPlaceSelections); `passengerIdOf` maps an offer's passenger externalRef.
 */
export function readPlaceSelections(ctx: Context, offer: StoredOffer, given: PlaceSelection[], pointer: string, passengerIdOf: (externalRef: string) => string | undefined): Map<string, PlaceSelection> {
  const reservations = offer.reservations.map((r) => ({ id: r.id, tripId: offer.trip.id, legId: r.legId, passengerId: passengerIdOf(r.passengerRef)! }));
  const externalRefOf = (id: string) => offer.reservations.find((r) => passengerIdOf(r.passengerRef) === id)!.passengerRef;
  const selections = mapPlaceSelections(given, reservations, passengerIdOf, externalRefOf, pointer);
  const byReservation = new Map<string, PlaceSelection>();
  selections.forEach((s) => byReservation.set(s.reservationId, s));
  offer.reservations.forEach((r) => {
    const product = ctx.rules.products.products[r.product.code]!;
    const selection = byReservation.get(r.id);
    const genders = (selection?.accommodations ?? [])
      .filter((a) => a.passengerRefs.includes(passengerIdOf(r.passengerRef)!))
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
