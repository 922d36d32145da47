/**
 * "Why 412 exactly": engine.explainOfferPrices works every price of an offers answer out again, step by step. Over
 * generated offers requests (the scenarios' fixture trips, 1–9 passengers of any age with reduction cards and travel
 * passes, SEK and EUR sales applications, both offer modes, travel pass offers too), folding each explanation's steps
 * in order must give the price the answer shows, to the öre: every admission (and each passenger's share of a
 * collective one), reservation and ancillary, and the offer's minimal price; every step but a sum names the rule row
 * or the reference-data line it comes from.
 *
 * Replay: FC_SEED=<seed> npx vitest run test/property/price-explained.test.ts
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RuleViolation, type OfferPriceExplanation, type PriceStep } from '../../engine/index.ts';
import { runs, seed } from '../helpers/facts.ts';
import { fixtureTrip, TRIP_NAMES } from '../helpers/model-trips.ts';
import { engine, engineCall } from '../helpers/server.ts';

type Explained = OfferPriceExplanation;

/** The steps folded as they say: add, multiply, round to the nearest multiple. Nothing of the engine's pricing. */
function fold(steps: readonly PriceStep[]): number {
  let amount = 0;
  for (const s of steps) {
    if (s.op === 'plus') amount += s.value;
    else if (s.op === 'times') amount *= s.value;
    else amount = Math.round(amount / s.value) * s.value;
    expect(s.amount, `${s.term}: the amount after it`).toBe(amount);
    if (s.term !== 'passenger' && s.term !== 'part') {
      expect(s.sources.length, `${s.term} names where it comes from`).toBeGreaterThan(0);
      for (const source of s.sources) expect(source.at).toMatch(/\.yaml:\d+:\d+$/);
    }
  }
  return amount;
}

const CARDS = [
  { type: 'REDUCTION_CARD', code: 'SWE_STUDENT' },
  { type: 'REDUCTION_CARD', code: 'SWE_PENSIONER' },
  { type: 'REDUCTION_CARD', code: 'SWE_TDT' },
  // customers.yaml: an annual first-class pass, a multi-ride card for fast trains, a monthly Stockholm–Uppsala pass.
  { type: 'TRAVEL_PASS', code: 'OPR_ANNUAL_GOLD', number: 'GOLD-0001' },
  { type: 'TRAVEL_PASS', code: 'OPR_MULTIRIDE_10', number: 'MULTI-0001' },
  { type: 'TRAVEL_PASS', code: 'OPR_MONTHLY', number: 'MONTHLY-0001' },
];

const passenger = fc.record({
  age: fc.oneof(fc.integer({ min: 0, max: 99 }), fc.constantFrom(1, 2, 6, 7, 15, 16, 17, 19, 20, 25, 26, 64, 65)),
  cards: fc.subarray(CARDS, { maxLength: 2 }),
});

const request = fc.record({
  trip: fc.constantFrom(...TRIP_NAMES),
  // WEB_SE sells in SEK, AGENT_EU in EUR (sales-applications.yaml).
  salesApplication: fc.constantFrom('WEB_SE', 'AGENT_EU'),
  offerMode: fc.constantFrom(undefined, 'INDIVIDUAL', 'COLLECTIVE'),
  // One request in ten asks for travel pass offers instead of a journey (spec §4.2).
  passOffers: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  passengers: fc.array(passenger, { minLength: 1, maxLength: 9 }),
});

const seen = { offers: 0, parts: 0, eur: 0, collective: 0, travelPass: 0, familyDiscount: 0, passOffers: 0, refused: 0 };

describe('an offer price explained to the öre', () => {
  const settings = { seed: seed(), numRuns: runs(150) };
  it(`the steps of every price fold to the price in the answer (seed ${settings.seed})`, () => {
    console.info(`price-explained: seed ${settings.seed}, ${settings.numRuns} runs`);
    fc.assert(
      fc.property(request, (r) => {
        const call = { ...engineCall(), requestor: { ...engineCall().requestor, salesApplication: r.salesApplication } };
        const passengers = r.passengers.map((p, i) => ({
          externalRef: `p${i + 1}`,
          type: 'PERSON',
          age: p.age,
          ...(p.cards.length ? { cards: p.cards } : {}),
        }));
        const body = r.passOffers
          ? {
              anonymousPassengerSpecifications: passengers,
              offerSearchCriteria: { productTags: ['PASS'] },
              nonTripSearchCriteria: { validFrom: '2026-12-01T00:00:00+01:00' },
            }
          : {
              tripSpecifications: [fixtureTrip(r.trip)],
              anonymousPassengerSpecifications: passengers,
              ...(r.offerMode ? { offerSearchCriteria: { offerMode: r.offerMode } } : {}),
            };
        let decided;
        try {
          decided = engine().offers(call, body);
        } catch (e) {
          // A request the rules refuse (two typing cards, a personal pass on a child…) has no price to explain.
          if (!(e instanceof RuleViolation)) throw e;
          seen.refused++;
          return;
        }
        const { offers, response } = decided.value;
        const explained: Explained[] = engine().explainOfferPrices(call, offers).value;
        expect(explained.map((x) => x.offerId)).toEqual(response.offers.map((o) => o.offerId));
        response.offers.forEach((offer, i) => {
          const explanation = explained[i]!;
          const byId = new Map(explanation.parts.map((p) => [p.id, p]));
          const answered = [...(offer.admissionOfferParts ?? []), ...(offer.reservationOfferParts ?? []), ...(offer.ancillaryOfferParts ?? [])];
          expect([...byId.keys()].sort()).toEqual(answered.map((p) => p.id).sort());
          for (const part of answered) {
            const why = byId.get(part.id)!;
            expect(fold(why.steps), `${part.objectType} ${part.id}`).toBe(part.price.amount);
            expect(why.amount).toBe(part.price.amount);
            expect(why.currency).toBe(part.price.currency);
            expect(why.vat).toBe(part.price.vats?.[0]?.amount);
            for (const share of why.passengers ?? []) expect(fold(share.steps), `${part.id}: ${share.passengerRef}'s share`).toBe(share.amount);
            if (why.passengers) seen.collective++;
            if ([why, ...(why.passengers ?? [])].some((c) => c.steps.some((s) => s.term === 'travelPass'))) seen.travelPass++;
            if (why.steps.some((s) => s.sources.some((x) => 'row' in x && x.row === 'family-discount-child'))) seen.familyDiscount++;
            seen.parts++;
          }
          expect(fold(explanation.minimalPrice.steps), `${offer.offerId} minimal price`).toBe(offer.offerSummary.minimalPrice.amount);
          expect(explanation.minimalPrice.amount).toBe(offer.offerSummary.minimalPrice.amount);
          if (explanation.currency === 'EUR') seen.eur++;
          if (offers[i]!.pass) seen.passOffers++;
          seen.offers++;
        });
      }),
      settings,
    );
    console.info(`price-explained: ${JSON.stringify(seen)}`);
    // The property must reach what it talks about, not only hold on plain adults.
    for (const k of ['offers', 'eur', 'collective', 'travelPass', 'familyDiscount', 'passOffers'] as const) expect(seen[k], k).toBeGreaterThan(0);
  }, 120_000);
});
