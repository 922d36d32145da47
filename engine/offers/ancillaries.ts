import { decide, type Context } from '../model/context.ts';
import type { AncillaryPart, Leg, Money, OfferPassenger } from '../model/records.ts';
import type { DecisionResult } from '../rules/decision.ts';
import type { RuleSet } from '../rules/ruleset.ts';
import type { Currency } from '../rules/schemas.ts';
import { isTrafficDisturbanceTicket } from './passengers.ts';
import { decisionSources, referenceSource } from './price-steps.ts';
import type { PriceStep } from '../model/price-explanation.ts';
import { priceFor } from './pricing.ts';
import type { TravelClass } from '../rules/facts.ts';

/**
 * Spec §2.8: the ancillary groups of each leg (rules/ancillaries.yaml) offered to each passenger, one
 * offer part per item. The airport fee inherits its admission's flexibility (§2.8 rule 5); other items
 * follow the item's own terms (refundable with the admission, not exchangeable: meals are not carried over).
 */
export function offerAncillaries(
  ctx: Context,
  legs: Array<{ leg: Leg; travelClass: TravelClass }>,
  passengers: readonly OfferPassenger[],
  currency: Currency,
  international: boolean,
  admission: { refundable: string; exchangeable: string },
): AncillaryPart[] {
  const { rules } = ctx;
  const parts: AncillaryPart[] = [];
  const share = ancillaryShare(ctx, passengers);
  for (const { leg, travelClass } of legs) {
    const touchesAirport = [leg.origin, leg.destination].some((ref) => rules.stations.byRef(ref)?.airport === true);
    const { outcomes } = decide(ctx, 'ancillaryGroups', {
      touchesAirport,
      travelClass,
      productCategory: leg.category,
    });
    // An item costs the same for every passenger: priced once per leg.
    const prices = new Map(outcomes.flatMap((g) => g.items).map((item) => [item, ancillaryPrice(rules, item, share, currency, international)]));
    for (const group of outcomes)
      for (const p of passengers)
        for (const item of group.items) {
          const def = rules.ancillaryItems[item]!;
          parts.push({
            id: ctx.ids.next('part'),
            passengerRef: p.externalRef,
            legId: leg.id,
            item,
            group: group.group,
            groupMin: group.min,
            isDefault: (group.min > 0 || group.included === true) && group.default === item,
            price: prices.get(item)!,
            refundable: admission.refundable,
            exchangeable: def.inheritsFlexibility ? admission.exchangeable : 'NO',
          });
        }
  }
  return parts;
}

/** Spec §4.1 rule 9, CONTRACT §4a: the share of an item's price an offer's passengers pay (ancillary-prices.yaml). */
export function ancillaryShare(ctx: Context, passengers: readonly OfferPassenger[]): DecisionResult<{ factor: number }> {
  const withTicket = passengers.filter((p) => isTrafficDisturbanceTicket(ctx, p)).length;
  return decide(ctx, 'ancillaryPriceFactor', {
    trafficDisturbanceTickets: withTicket === 0 ? 'NONE' : withTicket === passengers.length ? 'ALL' : 'SOME',
  });
}

/** What one ancillary item costs: its price (ancillary-items.yaml) × the offer's share, rounded and converted like fares. */
export function ancillaryPrice(
  rules: RuleSet,
  item: string,
  share: DecisionResult<{ factor: number }>,
  currency: Currency,
  international: boolean,
  steps?: PriceStep[],
): Money {
  const { price } = rules.ancillaryItems[item]!;
  steps?.push({
    term: 'ancillaryPrice',
    op: 'plus',
    value: price,
    ref: item,
    amount: price,
    currency: rules.tariff.currency,
    sources: [referenceSource(rules, 'ancillary-items.yaml', ['items', item, 'price'])],
  });
  return priceFor(
    rules,
    price,
    share.outcome?.factor ?? 1,
    currency,
    international,
    steps,
    steps && { term: 'ancillaryFactor', sources: decisionSources(share.trace) },
  );
}
