import { enforce, type Context } from '../model/context.ts';
import type { Booking, StoredOffer } from '../model/records.ts';
import type { PlaceSelection } from '../model/osdm/shapes.ts';
import { phrase, violation } from '../rules/violation.ts';
import type { Product } from '../rules/schemas.ts';
import type { FactsOf } from '../rules/facts.ts';

const GENDERS = ['MEN', 'LADIES', 'MIXED'] as const;

/** Whom the place selections of a request may name, and how the request names passengers. */
interface SelectionScope {
  /** The offer's reservation offer parts (when booking) or the booking's reservations (in a patch). */
  reservations: ReadonlyArray<{ id: string; tripId: string; legId: string; passengerId: string }>;
  /** Where they are: 'offer' or 'booking'. */
  owner: 'offer' | 'booking';
  /** A passenger reference as the request gives it → the passenger's id in the booking, if any. */
  idOf: (ref: string) => string | undefined;
  /** A passenger's id → the reference the request should have used. */
  refOf: (passengerId: string) => string;
}

/**
 * Checks that each selection names a reservation of the offer or booking and its leg (86001), and that every
 * passenger it names is one the request may name there (spec §7 86029: the passenger could not be mapped); returns
 * the selections with the passengers named by their booking id, as OSDM's SelectedPlace.passengerRef and a stored
 * booking name them. Spec §2.7 rule 2: a request names a passenger by externalRef when booking, by id afterwards.
 * A place in `places` is for the passenger of the reservation it is listed under; naming anybody else there would
 * leave the place unused, so it is refused too.
 */
export function mapPlaceSelections(selections: PlaceSelection[], scope: SelectionScope, pointer: string): PlaceSelection[] {
  return selections.map((s, i) => {
    const at = `${pointer}/${i}`;
    const r = scope.reservations.find((x) => x.id === s.reservationId);
    if (!r)
      throw violation(
        '86001',
        { reason: phrase('selection-unknown-reservation', { reservationId: s.reservationId, owner: phrase(`resource-${scope.owner}`) }) },
        `${at}/reservationId`,
      );
    // One selection per reservation, one place per passenger: a second one would go unread.
    if (selections.findIndex((x) => x.reservationId === s.reservationId) < i) {
      throw violation('86001', { reason: phrase('selection-twice', { reservationId: s.reservationId }) }, `${at}/reservationId`);
    }
    if ((s.places?.length ?? 0) > 1) throw violation('86001', { reason: phrase('selection-one-place', { reservationId: r.id }) }, `${at}/places/1`);
    if (s.tripLegCoverage.tripId !== r.tripId || s.tripLegCoverage.legId !== r.legId) {
      throw violation(
        '86001',
        { reason: phrase('selection-other-leg', { reservationId: r.id, leg: JSON.stringify({ tripId: r.tripId, legId: r.legId }) }) },
        `${at}/tripLegCoverage`,
      );
    }
    const mapped = (ref: string, where: string, wanted?: string) => {
      const id = scope.idOf(ref);
      if (id === undefined || (wanted !== undefined && id !== wanted)) {
        throw violation('86029', { passengerRef: ref, reservationId: r.id, expected: scope.refOf(r.passengerId) }, where);
      }
      return id;
    };
    const places = s.places?.map((p, j) => ({ ...p, passengerRef: mapped(p.passengerRef, `${at}/places/${j}/passengerRef`, r.passengerId) }));
    const accommodations = s.accommodations?.map((a, j) => ({
      ...a,
      passengerRefs: a.passengerRefs.map((ref, k) => mapped(ref, `${at}/accommodations/${j}/passengerRefs/${k}`)),
    }));
    return { ...s, ...(places ? { places } : {}), ...(accommodations ? { accommodations } : {}) };
  });
}

/**
 * Reads the place selections of a booking request and applies spec §2.5 rule 5 (rules/night-gender.yaml)
 * to every reservation of a shared night compartment. Returns the selections by offer reservation id, their
 * passengers named by booking id (mapPlaceSelections); `passengerIdOf` maps an offer's passenger externalRef.
 */
export function readPlaceSelections(
  ctx: Context,
  offer: StoredOffer,
  given: PlaceSelection[],
  pointer: string,
  passengerIdOf: (externalRef: string) => string | undefined,
): Map<string, PlaceSelection> {
  const selections = mapPlaceSelections(
    given,
    {
      owner: 'offer',
      reservations: offer.reservations.map((r) => ({ id: r.id, tripId: offer.trip.id, legId: r.legId, passengerId: passengerIdOf(r.passengerRef)! })),
      idOf: passengerIdOf,
      refOf: (id) => offer.reservations.find((r) => passengerIdOf(r.passengerRef) === id)!.passengerRef,
    },
    pointer,
  );
  const byReservation = new Map<string, PlaceSelection>();
  selections.forEach((s) => byReservation.set(s.reservationId, s));
  offer.reservations.forEach((r) => {
    const product = ctx.rules.products.products[r.product.code]!;
    const selection = byReservation.get(r.id);
    const index = selection ? selections.indexOf(selection) : -1;
    const genders = gendersAskedFor(selection, passengerIdOf(r.passengerRef)!);
    enforceGender(ctx, 'CREATE', product, genders, false, index >= 0 ? `${pointer}/${index}/accommodations` : pointer);
  });
  return byReservation;
}

/** The gender place properties a selection asks for one passenger (named by booking id). */
function gendersAskedFor(selection: PlaceSelection | undefined, passengerId: string): Array<(typeof GENDERS)[number]> {
  return (selection?.accommodations ?? [])
    .filter((a) => a.passengerRefs.includes(passengerId))
    .flatMap((a) => a.placeProperties.filter((p): p is (typeof GENDERS)[number] => (GENDERS as readonly string[]).includes(p)));
}

/**
 * Spec §2.5 rule 5 in a booking patch (rules/night-gender.yaml): the gender of a shared compartment was given at
 * creation and cannot be patched; a selection that asks for another one is 86005 at its accommodations.
 */
export function checkPatchedGenders(ctx: Context, booking: Booking, selections: readonly PlaceSelection[], pointer: string): void {
  selections.forEach((selection, index) => {
    const r = booking.reservations.find((x) => x.id === selection.reservationId);
    const product = r && ctx.rules.products.products[r.product.code];
    if (!r || !product) return;
    const genders = gendersAskedFor(selection, r.passengerId);
    const changed = genders.some((g) => g !== r.placeAllocation?.gender);
    enforceGender(ctx, 'PATCH', product, genders, changed, `${pointer}/${index}/accommodations`);
  });
}

/** Spec §2.5 rule 5, as rules/night-gender.yaml decides it for one reservation of the product. */
function enforceGender(
  ctx: Context,
  stage: FactsOf<'nightGender'>['stage'],
  product: Pick<Product, 'compartment' | 'accommodationType'>,
  genders: readonly (typeof GENDERS)[number][],
  genderChanged: boolean,
  at: string,
): void {
  const facts = {
    stage,
    compartment: product.compartment ?? 'NONE',
    accommodationType: product.accommodationType,
    genderCount: genders.length,
    gender: genders[0] ?? 'NONE',
    genderChanged,
  } as const;
  enforce(ctx, 'nightGender', facts, at);
}
