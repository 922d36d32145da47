import { describe, expect, it } from 'vitest';
import { engine, engineCall, passengers, trip } from './helpers/server.ts';

/**
 * Every offer's prices come with the traces of the decisions behind them, also where the engine reuses a decision
 * it already made for another offer of the same request (engine/offers/admission-prices.ts): the traces read as if
 * each offer had been priced on its own.
 */
describe('the traces of an offer request', () => {
  it('name the family discount and fare factor of every passenger for every offer, in the order they were asked', () => {
    const { value, traces } = engine().offers(engineCall(), {
      tripSpecifications: [trip()],
      anonymousPassengerSpecifications: passengers(40, 8, 9),
      offerSearchCriteria: { travelClasses: ['SECOND'] },
    });
    expect(value.offers.length).toBeGreaterThan(1);
    const pricing = traces.filter((t) => t.decision === 'familyDiscountRole' || t.decision === 'fareFactor');
    // Per offer: the family discount role of each passenger, then each passenger's fare factor.
    const perOffer = ['familyDiscountRole', 'familyDiscountRole', 'familyDiscountRole', 'fareFactor', 'fareFactor', 'fareFactor'];
    expect(pricing.map((t) => t.decision)).toEqual(value.offers.flatMap(() => perOffer));
    const first = pricing.slice(0, perOffer.length);
    for (let o = 1; o < value.offers.length; o++) expect(pricing.slice(o * perOffer.length, (o + 1) * perOffer.length)).toEqual(first);
    expect(first.slice(3).map((t) => [t.facts['age'], t.facts['familyDiscount'], t.fired[0]?.row])).toEqual([
      [40, false, expect.any(String)],
      [8, true, expect.any(String)],
      [9, true, expect.any(String)],
    ]);
  });
});
