import { decide, type Context } from '../model/context.ts';
import type { DecisionResult, DecisionTrace } from '../rules/decision.ts';
import type { Money, OfferPassenger, Trip } from '../model/records.ts';
import type { Currency, Flexibility } from '../rules/schemas.ts';
import { minutesBetween } from '../rules/time.ts';
import { familyDiscounted } from './family-discount.ts';
import { isTrafficDisturbanceTicket } from './passengers.ts';
import { decisionSources } from './price-steps.ts';
import type { PriceStep } from '../model/price-explanation.ts';
import { fullFare, priceFor, type FactorStep } from './pricing.ts';
import type { RuleSet } from '../rules/ruleset.ts';
import { coveringPass } from './travel-passes.ts';
import { busyPasses, ridesTaken, type PassUse } from '../holdings/pass-uses.ts';
import { interval } from '../holdings/place-holdings.ts';
import type { TravelClass } from '../rules/facts.ts';

/**
 * Each passenger's admission price for a trip and product: the tariff's full fare × the passenger's share
 * (fare-factors.yaml, with the family discount of the group), or 0 with a covering travel pass (CONTRACT §4a),
 * whose card number comes with it (spec §2.7 rule 8: a pass pays for one trip at a time).
 * Offers price with it, and a booking reprices with it when a passenger's age is patched (spec §2.7 rule 4).
 * Given `explain`, each passenger's arithmetic is written into it, by passenger ref (explain-prices.ts).
 */
export function admissionPrices(
  ctx: Context,
  trip: Trip,
  productCode: string,
  flexibility: Flexibility,
  passengers: readonly OfferPassenger[],
  currency: Currency,
  passUses: readonly PassUse[] = [],
  shares: PassengerShares = passengerShares(),
  explain?: Map<string, PriceStep[]>,
): Map<string, { price: Money; travelPass?: string }> {
  const { rules } = ctx;
  const main = trip.legs.find((l) => l.id === trip.mainLegId)!;
  const travelClass = rules.products.products[productCode]!.travelClass;
  const minutes = minutesBetween(trip.legs[0]!.departure, trip.legs[trip.legs.length - 1]!.arrival);
  const fareSteps: PriceStep[] | undefined = explain && [];
  const fare = fullFare(rules, main.category, minutes, productCode, flexibility, fareSteps);
  const known = shares.get(travelClass);
  const ofClass = known ?? { discounted: familyDiscountedTraced(ctx, passengers, travelClass), factors: new Map<string, DecisionResult<{ factor: number }>>() };
  if (known) ctx.traces.push(...known.discounted.traces);
  else shares.set(travelClass, ofClass);
  const discounted = ofClass.discounted.granted;
  const prices = new Map<string, { price: Money; travelPass?: string }>();
  // No pass in use anywhere (most requests): nothing can be busy, and the journey's interval need not be parsed.
  const busy =
    passUses.length === 0
      ? undefined
      : busyPasses(passUses, ctx.now, { from: interval(trip.legs[0]!).from, to: interval(trip.legs[trip.legs.length - 1]!).to });
  const taken = passUses.length === 0 ? undefined : ridesTaken(passUses, ctx.now);
  for (const p of passengers) {
    const pass = coveringPass(ctx, p, trip, travelClass, busy, taken);
    // The covering pass's decision is the last one coveringPass made.
    const coverage = explain && pass ? ctx.traces.at(-1) : undefined;
    let factor = ofClass.factors.get(p.externalRef);
    if (factor) ctx.traces.push(factor.trace);
    else {
      factor = decide(ctx, 'fareFactor', {
        internalType: p.internalType,
        age: p.age,
        trafficDisturbanceTicket: isTrafficDisturbanceTicket(ctx, p),
        familyDiscount: discounted.has(p.externalRef),
      });
      ofClass.factors.set(p.externalRef, factor);
    }
    const { outcome } = factor;
    const steps: PriceStep[] | undefined = fareSteps && [...fareSteps];
    const price = priceFor(
      rules,
      fare,
      pass ? 0 : (outcome?.factor ?? 1),
      currency,
      trip.international,
      steps,
      steps &&
        (pass ? { term: 'travelPass', ref: pass, sources: decisionSources(coverage) } : fareFactorStep(rules, factor, ofClass.discounted, p, passengers)),
    );
    if (steps) explain!.set(p.externalRef, steps);
    prices.set(p.externalRef, pass ? { price, travelPass: pass } : { price });
  }
  return prices;
}

/**
 * What the passengers' type and age decide for their share of a fare, per travel class: the family discount and each
 * passenger's fare factor. The products of one class in an offer request ask the same of the same passengers, so
 * `createOffers` hands one of these to every offer it prices; the decisions are made once and their traces kept
 * again at the same places, so the traces read exactly as if they had been evaluated for each offer.
 */
export type PassengerShares = Map<
  TravelClass,
  {
    discounted: { granted: Set<string>; traces: DecisionTrace[] };
    factors: Map<string, DecisionResult<{ factor: number }>>;
  }
>;
export const passengerShares = (): PassengerShares => new Map();

/**
 * The fare factor as a step: its row, and for a child with the family discount the familyDiscountRole rows that gave
 * it: the child's, then each grantor's (familyDiscounted decides once per passenger in the request's order, so its
 * traces line up with the passengers).
 */
function fareFactorStep(
  rules: RuleSet,
  factor: DecisionResult<{ factor: number }>,
  discounted: { granted: Set<string>; traces: DecisionTrace[] },
  passenger: OfferPassenger,
  passengers: readonly OfferPassenger[],
): FactorStep {
  const sources = decisionSources(factor.trace);
  if (discounted.granted.has(passenger.externalRef)) {
    const rows = rules.decisions.familyDiscountRole.rows;
    const grants = (t: DecisionTrace) => t.fired.some((f) => rows.find((r) => r.id === f.row)?.then['role'] === 'grantor');
    sources.push(...decisionSources(discounted.traces[passengers.indexOf(passenger)]));
    for (const t of discounted.traces) if (grants(t)) sources.push(...decisionSources(t));
  }
  return { term: 'fareFactor', sources };
}

/** `familyDiscounted`, with the traces it left. */
function familyDiscountedTraced(ctx: Context, passengers: readonly OfferPassenger[], travelClass: TravelClass) {
  const from = ctx.traces.length;
  const granted = familyDiscounted(ctx, passengers, travelClass);
  return { granted, traces: ctx.traces.slice(from) };
}
