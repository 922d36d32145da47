import { decide, type Context } from '../model/context.ts';
import type { OfferPassenger } from '../model/records.ts';
import type { TravelClass } from '../rules/facts.ts';

/**
 * Spec §2.9 last paragraph: who in an offer gets the family discount. The roles and the number of
 * children a grantor covers come from rules/family-discount.yaml; this only hands the grants out,
 * to children in the order of the request.
 */
export function familyDiscounted(ctx: Context, passengers: readonly OfferPassenger[], travelClass: TravelClass): Set<string> {
  let grants = 0;
  const children: string[] = [];
  for (const p of passengers) {
    const { outcome } = decide(ctx, 'familyDiscountRole', {
      internalType: p.internalType,
      age: p.age,
      travelClass,
    });
    if (outcome?.role === 'grantor') grants += outcome.grants ?? 0;
    if (outcome?.role === 'child') children.push(p.externalRef);
  }
  return new Set(children.slice(0, grants));
}
