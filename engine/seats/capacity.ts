import type { Context } from '../model/context.ts';
import type { Leg } from '../model/records.ts';
import type { ProductCategoryCode } from '../rules/schemas.ts';
import { interval, type Holding } from '../holdings/place-holdings.ts';
import { candidatesFor, selectable } from './places.ts';
import { trainKey } from '../model/train.ts';

/**
 * Issue "Seats": capacity drives offers. A product is offered only when every leg that needs a
 * reservation still has a free place of that product for each passenger; a fully booked train therefore
 * gives empty offers (spec §2.3). A train without seat data in rules/fleet.yaml is not limited here.
 */
export function hasRoom(ctx: Context, legs: ReadonlyArray<{ leg: Leg; code: string }>, passengers: number, held: readonly Holding[]): boolean {
  const { rules } = ctx;
  return legs.every(({ leg, code }) => {
    if (rules.products.productCategories[leg.category as ProductCategoryCode]?.reservation !== 'mandatory') return true;
    const candidates = candidatesFor(rules, leg.category, code);
    if (candidates.length === 0) return true;
    const train = trainKey(leg);
    const onTrain = held.filter((h) => h.train === train);
    let free = 0;
    if (onTrain.length === 0) {
      // Nobody holds a place on this train: every place but the wheelchair places (spec §2.10 rule 6) is free.
      for (const c of candidates) if (!c.wheelchair && ++free >= passengers) return true;
      return false;
    }
    const seeker = { ...interval(leg), bookingId: '', private: rules.products.products[code]?.compartment === 'PRIVATE', wheelchair: false };
    for (const c of candidates) {
      if (selectable(c, seeker, onTrain) && ++free >= passengers) return true;
    }
    return false;
  });
}
