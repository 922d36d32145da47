import type { Context } from '../model/context.ts';
import type { Leg } from '../model/records.ts';
import { interval, type Holding } from '../holdings/place-holdings.ts';
import { candidatesFor, compartmentTerms, selectable, type Candidate } from './places.ts';
import { trainKey } from '../model/train.ts';

/**
 * Capacity drives offers: a product is offered only when every leg that needs a
 * reservation still has a free place of that product for each passenger; a fully booked train therefore
 * gives empty offers (spec §2.3). A product whose passengers are each alone in a compartment (spec §2.4)
 * needs a whole free compartment per passenger. A train without seat data in rules/fleet.yaml is not limited here.
 */
export function hasRoom(ctx: Context, legs: ReadonlyArray<{ leg: Leg; code: string }>, passengers: number, held: readonly Holding[]): boolean {
  const { rules } = ctx;
  return legs.every(({ leg, code }) => {
    if (rules.products.productCategories[leg.category]?.reservation !== 'mandatory') return true;
    const candidates = candidatesFor(rules, leg.category, code);
    if (candidates.length === 0) return true;
    const train = trainKey(leg);
    const onTrain = held.filter((h) => h.train === train);
    const seeker = { ...interval(leg), bookingId: '', ...compartmentTerms(rules, code), wheelchair: false };
    // Nobody holds a place on this train: every place but the wheelchair places (spec §2.10 rule 6) is free.
    const isFree = onTrain.length === 0 ? (c: Candidate) => !c.wheelchair : (c: Candidate) => selectable(c, seeker, onTrain);
    // What one passenger takes: a place, or for a passenger alone (spec §2.4) the whole compartment of the place.
    const rooms = new Set<string>();
    let free = 0;
    for (const c of candidates) {
      if (!isFree(c)) continue;
      if (seeker.alone && c.place.compartment) {
        const room = `${c.coach.number}\u0000${c.place.compartment}`;
        if (rooms.has(room)) continue;
        rooms.add(room);
      }
      if (++free >= passengers) return true;
    }
    return false;
  });
}
