import type { RuleSet } from '../rules/ruleset.ts';
import type { CoachLayout, FleetCoach, LayoutPlace } from '../rules/seat-schemas.ts';
import { overlaps, type Holding } from '../holdings/place-holdings.ts';

/** A place of the fleet (rules/fleet.yaml, rules/coach-layouts.yaml) that a product may be sold on. */
export interface Candidate {
  coach: FleetCoach;
  layout: CoachLayout;
  place: LayoutPlace;
  /** Spec §2.10 rule 6: a wheelchair place (its properties name one of rules/fleet.yaml `wheelchair.placeProperties`). */
  wheelchair: boolean;
}

/** The places of a category's trains whose coaches sell the product, in train and layout order. */
export function candidatesFor(rules: RuleSet, category: string, productCode: string): readonly Candidate[] {
  // The fleet is part of the rules: the list is made once per rule set, category and product.
  let known = candidateLists.get(rules);
  if (!known) candidateLists.set(rules, (known = new Map<string, readonly Candidate[]>()));
  const key = `${category}\u0000${productCode}`;
  let list = known.get(key);
  if (!list) {
    const coaches = rules.fleet.categories[category]?.coaches ?? [];
    list = coaches
      .filter((c) => c.products.includes(productCode))
      .flatMap((coach) => {
        const layout = rules.coachLayouts.layouts[coach.layout]!;
        return layout.places.map((place) => candidate(rules, coach, layout, place));
      });
    known.set(key, list);
  }
  return list;
}

/** A place as a candidate, its wheelchair flag decided once (the lists are made once per rule set). */
export const candidate = (rules: RuleSet, coach: FleetCoach, layout: CoachLayout, place: LayoutPlace): Candidate => ({
  coach,
  layout,
  place,
  wheelchair: place.placeProperties.some((p) => rules.fleet.wheelchair.placeProperties.includes(p)),
});
const candidateLists = new WeakMap<RuleSet, Map<string, readonly Candidate[]>>();

/** What others hold, by coach: made once per list of holdings, as every candidate of a train asks it. */
const byCoach = new WeakMap<readonly Holding[], Map<string, Holding[]>>();
function heldInCoach(held: readonly Holding[], coach: string): readonly Holding[] {
  if (held.length === 0) return held; // an empty train (most offers): no index to make
  let index = byCoach.get(held);
  if (!index) {
    index = new Map();
    for (const h of held) {
      const list = index.get(h.coachNumber);
      if (list) list.push(h);
      else index.set(h.coachNumber, [h]);
    }
    byCoach.set(held, index);
  }
  return index.get(coach) ?? [];
}

/** Who asks for a place: one reservation of one passenger on one leg (spec §2.11 "this passenger, this leg"). */
export interface Seeker {
  from: number;
  to: number;
  bookingId: string;
  /** The reservation itself: what it holds now does not stand in its way. */
  reservationId?: string;
  /** Spec §2.5: a private compartment admits nobody of another booking. */
  private: boolean;
  /** Spec §2.4 (JREFAP2): a private compartment for this passenger alone, nobody of the same booking either. */
  alone: boolean;
  /** Spec §2.5 rule 6: MEN, LADIES or MIXED in a shared compartment; unknown in an offer context. */
  gender?: string;
  /** Spec §2.10 rule 6: a passenger with prmNeeds WHEELCHAIR. */
  wheelchair: boolean;
}

/** How a product's reservations hold compartments (products.yaml `compartment`, `compartmentEach`). */
export function compartmentTerms(rules: RuleSet, productCode: string): Pick<Seeker, 'private' | 'alone'> {
  const product = rules.products.products[productCode];
  return { private: product?.compartment === 'PRIVATE', alone: product?.compartmentEach ?? false };
}

/**
 * Whether the seeker may hold the place, given what others hold on the train: nobody holds it over an
 * overlapping interval; wheelchair places are for wheelchair users and they get nothing else (spec §2.10 rule 6);
 * a compartment held privately admits no other booking, one held by a passenger alone nobody else, and a shared
 * one only passengers of its gender (spec §2.4, §2.5 rules 4, 6).
 */
export function selectable(c: Candidate, seeker: Seeker, held: readonly Holding[]): boolean {
  if (c.wheelchair !== seeker.wheelchair) return false;
  const inCoach = heldInCoach(held, c.coach.number);
  if (inCoach.length === 0) return true; // most coaches of an offer's train: nothing to compare
  const others = inCoach.filter((h) => h.reservationId !== seeker.reservationId && overlaps(h, seeker));
  if (others.some((h) => h.placeNumber === c.place.number)) return false;
  const compartment = c.place.compartment;
  if (!compartment) return true;
  const mates = others.filter((h) => h.compartment === compartment);
  if (seeker.alone || mates.some((h) => h.alone)) return mates.length === 0;
  if (seeker.private) return mates.every((h) => h.bookingId === seeker.bookingId);
  if (mates.some((h) => h.private && h.bookingId !== seeker.bookingId)) return false;
  return seeker.gender === undefined || mates.every((h) => h.gender === undefined || h.gender === seeker.gender);
}
