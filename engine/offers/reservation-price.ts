import { decide, type Context } from '../model/context.ts';
import type { Leg, Money } from '../model/records.ts';
import type { DecisionResult } from '../rules/decision.ts';
import type { RuleSet } from '../rules/ruleset.ts';
import type { Currency } from '../rules/schemas.ts';
import { decisionSources } from './price-steps.ts';
import type { PriceStep } from '../model/price-explanation.ts';
import { priceFor } from './pricing.ts';

/** Spec §2.6 rule 2: what a reservation of `productCode` on `leg` costs, as rules/reservation-prices.yaml says; decided once per leg. */
export function decideReservationPrice(ctx: Context, leg: Leg, productCode: string): DecisionResult<{ price: number }> {
  const { travelClass, accommodationType } = ctx.rules.products.products[productCode]!;
  return decide(ctx, 'reservationPrice', { productCategory: leg.category, travelClass, accommodationType });
}

/** One passenger's reservation at the price decided, rounded and converted like fares. */
export function reservationPartPrice(
  rules: RuleSet,
  decided: DecisionResult<{ price: number }>,
  currency: Currency,
  international: boolean,
  steps?: PriceStep[],
): Money {
  const amount = decided.outcome?.price ?? 0;
  steps?.push({ term: 'reservationPrice', op: 'plus', value: amount, amount, currency: rules.tariff.currency, sources: decisionSources(decided.trace) });
  return priceFor(rules, amount, 1, currency, international, steps);
}
