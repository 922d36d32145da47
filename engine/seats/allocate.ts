import { decide, type Context } from '../model/context.ts';
import type { Booking, BookedReservation } from '../model/records.ts';
import type { Warning } from '../model/records.ts';
import type { PlaceSelection } from '../model/osdm/shapes.ts';
import { violation } from '../rules/violation.ts';
import { holding, interval, type Holding } from '../holdings/place-holdings.ts';
import type { PlaceAllocation } from '../model/records.ts';
import { candidatesFor, compartmentTerms, selectable, type Candidate, type Seeker } from './places.ts';
import { trainKey } from '../model/train.ts';

interface AllocationRequest {
  booking: Booking;
  /** What other reservations hold on the booking's trains (loaded by the service, engine/holdings/place-holdings.ts). */
  held: readonly Holding[];
  /** The reservations to place; the others keep what they hold. */
  targets: ReadonlySet<string>;
  /**
   * Spec §2.10 rule 3: at creation an unavailable place gets another one and a warning; by patch it is
   * 86035 and the current place is kept.
   */
  mode: 'create' | 'patch';
  /** Where the reservation's place selection was in the request. */
  pointerOf: (reservationId: string) => string;
}

const distance = (a: Candidate, b: Candidate) => Math.hypot(a.place.coords.x - b.place.coords.x, a.place.coords.y - b.place.coords.y);
const same = (c: Candidate, coach: string, place: string) => c.coach.number === coach && c.place.number === place;
/** A filter predicate that lets through the first element `test` accepts and nothing after it (nor tests it). */
const firstOnly = <T>(test: (x: T) => boolean) => {
  let found = false;
  return (x: T) => !found && (found = test(x));
};

/**
 * Places each target reservation on a free place of a coach that sells its product (rules/fleet.yaml), in
 * request order, honouring its place selection (spec §2.10 rule 2): exact `places`, `accommodations`
 * (required properties refused when no place has them, preferred ones fall back with a warning, rule 4) and a
 * `referencePlace` (the nearest free place in its coach). Wheelchair users get wheelchair places (rule 6);
 * shared compartments keep one gender, private ones one booking, a 2nd-class private group one compartment
 * (spec §2.5 rules 4, 6). Pure: what others hold comes in.
 */
export function allocate(ctx: Context, req: AllocationRequest): { reservations: BookedReservation[]; warnings: Warning[] } {
  const { rules } = ctx;
  const { booking, targets, mode } = req;
  const fleet = rules.fleet;
  const held: Holding[] = req.held.filter((h) => !targets.has(h.reservationId));
  const warnings: Warning[] = [];
  const placed = new Map<string, Candidate>();

  const reservations = booking.reservations.map((r) => {
    if (!targets.has(r.id)) return r;
    const leg = booking.trip.legs.find((l) => l.id === r.legId);
    const product = rules.products.products[r.product.code];
    const candidates = leg && product ? candidatesFor(rules, leg.category, r.product.code) : [];
    if (!leg || !product || candidates.length === 0) return r;
    const passenger = booking.passengers.find((p) => p.id === r.passengerId)!;
    const selection = r.placeSelection as PlaceSelection | undefined;
    const pointer = req.pointerOf(r.id);
    const wanted = [...new Set((selection?.accommodations ?? []).filter((a) => a.passengerRefs.includes(passenger.id)).flatMap((a) => a.placeProperties))];
    const shared = product.compartment === 'SHARED';
    // Spec §2.5 rule 5: the gender is given at creation and cannot be patched later.
    const gender = !shared ? undefined : mode === 'patch' ? r.placeAllocation?.gender : wanted.find((p) => fleet.genderPlaceProperties.includes(p));
    const required = wanted.filter((p) => fleet.requiredPlaceProperties.includes(p) && !fleet.genderPlaceProperties.includes(p));
    const preferred = wanted.filter((p) => !fleet.requiredPlaceProperties.includes(p) && fleet.supportedPlaceProperties.includes(p));
    const wheelchair = (passenger.prmNeeds ?? []).includes(fleet.wheelchair.prmNeed) || required.some((p) => fleet.wheelchair.placeProperties.includes(p));
    const seeker: Seeker = {
      ...interval(leg),
      bookingId: booking.id,
      reservationId: r.id,
      ...compartmentTerms(rules, r.product.code),
      ...(gender ? { gender } : {}),
      wheelchair,
    };
    const train = trainKey(leg);
    const onTrain = held.filter((h) => h.train === train);
    const fits = (c: Candidate) => selectable(c, seeker, onTrain) && required.every((p) => c.place.placeProperties.includes(p));
    // Selections name passengers by their booking id (engine/booking/places.ts mapPlaceSelections).
    const exactIndex = (selection?.places ?? []).findIndex((p) => p.passengerRef === passenger.id);
    // Near the reference place, else near the booking's previous passenger on this leg.
    const ref = selection?.referencePlace;
    const previous = [...placed.entries()].reverse().find(([id]) => booking.reservations.find((x) => x.id === id)?.legId === r.legId)?.[1];
    const anchor = ref ? candidates.find((c) => same(c, ref.coachNumber, ref.placeNumber)) : previous;
    // Nothing asked for, nothing preferred, nobody to sit near, no private group: the ranking below would pick the
    // first place that fits in layout order, so the search stops there instead of weighing every place of the train.
    const plain = !seeker.private && exactIndex < 0 && preferred.length === 0 && !anchor;
    let pool = plain ? candidates.filter(firstOnly(fits)) : candidates.filter(fits);

    // Spec §2.5 rule 4: a private group stays in its compartment while it has room; where rules/private-groups.yaml
    // says so (2nd class) the whole group must fit in one compartment.
    if (seeker.private) {
      const ours = onTrain.filter((h) => h.bookingId === booking.id && h.compartment && h.from === seeker.from);
      const inOurs = pool.filter((c) => ours.some((h) => h.coachNumber === c.coach.number && h.compartment === c.place.compartment));
      if (inOurs.length > 0) pool = inOurs;
      else if (
        decide(ctx, 'privateGroup', {
          travelClass: product.travelClass,
          accommodationType: product.accommodationType,
          compartmentEach: product.compartmentEach,
        }).outcome?.oneCompartment
      ) {
        const group = booking.reservations.filter(
          (x) => targets.has(x.id) && !placed.has(x.id) && x.legId === r.legId && x.product.code === r.product.code,
        ).length;
        const room = (c: Candidate) => pool.filter((o) => o.coach.number === c.coach.number && o.place.compartment === c.place.compartment).length;
        pool = pool.filter((c) => room(c) >= group);
      }
    }
    if (pool.length === 0) {
      throw violation('86035', {}, required.length > 0 ? `${pointer}/accommodations` : pointer);
    }

    let chosen: Candidate | undefined;
    if (exactIndex >= 0) {
      const exact = selection!.places![exactIndex]!;
      chosen = pool.find((c) => same(c, exact.coachNumber, exact.placeNumber));
      if (!chosen) {
        if (mode === 'patch') throw violation('86035', {}, `${pointer}/places/${exactIndex}`);
        warnings.push({ code: 'X_PLACE_NOT_AVAILABLE', params: { coachNumber: exact.coachNumber, placeNumber: exact.placeNumber } });
      }
    }
    if (!chosen) {
      const matched = (c: Candidate) => preferred.filter((p) => c.place.placeProperties.includes(p)).length;
      // A compartment is a room: within it nearness does not matter, other compartments come in layout order.
      const near = (c: Candidate) => !!anchor && c.coach.number === anchor.coach.number && c.place.compartment === anchor.place.compartment;
      // The first place by (most preferred properties, near the anchor, distance to it), in layout order on ties.
      let bestKey: [number, number, number] | undefined;
      for (const c of pool) {
        const isNear = near(c);
        const key: [number, number, number] = [-matched(c), isNear ? 0 : 1, isNear && !c.place.compartment ? distance(c, anchor!) : 0];
        if (!bestKey || key[0] < bestKey[0] || (key[0] === bestKey[0] && (key[1] < bestKey[1] || (key[1] === bestKey[1] && key[2] < bestKey[2])))) {
          bestKey = key;
          chosen = c;
        }
      }
      const best: Candidate = chosen!; // the pool is not empty (checked above)
      chosen = best;
      const missing = preferred.filter((p) => !best.place.placeProperties.includes(p));
      if (missing.length > 0 && mode === 'create') warnings.push({ code: 'X_PLACE_PREFERENCE_NOT_MET', params: { properties: missing.join(', ') } });
    }

    const allocation: PlaceAllocation = {
      vehicleNumber: leg.vehicleNumber,
      coachNumber: chosen.coach.number,
      placeNumber: chosen.place.number,
      layoutId: chosen.coach.layout,
      placeProperties: [...chosen.place.placeProperties, ...(gender && chosen.place.compartment ? [gender] : [])],
      ...(chosen.place.compartment ? { compartment: chosen.place.compartment } : {}),
      ...(gender && chosen.place.compartment ? { gender } : {}),
      ...(seeker.private ? { private: true } : {}),
      ...(seeker.alone ? { alone: true } : {}),
    };
    const next = { ...r, placeAllocation: allocation };
    placed.set(r.id, chosen);
    held.push(holding(booking.id, next, leg));
    return next;
  });
  return { reservations, warnings };
}
