import type { Context } from '../model/context.ts';
import type { Money, StoredOffer } from '../model/records.ts';
import { plus } from '../rules/time.ts';
import { phrase, violation } from '../rules/violation.ts';
import { typePassenger } from './passengers.ts';
import { referenceSource } from './price-steps.ts';
import type { PriceStep } from '../model/price-explanation.ts';
import { priceFor, sum } from './pricing.ts';
import type { OfferCollectionRequest } from '../model/osdm/offer-request.ts';
import type { RuleSet } from '../rules/ruleset.ts';
import type { Currency } from '../rules/schemas.ts';

/**
 * Spec §4.2 rules 2–3: travel pass offers. `places` holds two stations (either order) for a bound pass,
 * or nothing; a bound request also returns the passes valid everywhere. One offer per pass type, one
 * admission part referencing the pass product, one fulfillment option per pass (rule 5).
 */
export function createPassOffers(ctx: Context, request: OfferCollectionRequest, currency: Currency): StoredOffer[] {
  const { rules } = ctx;
  const criteria = request.nonTripSearchCriteria;
  if (!criteria?.validFrom) throw violation('86001', { reason: phrase('pass-needs-valid-from') }, '#/nonTripSearchCriteria/validFrom');
  const places = criteria.places ?? [];
  if (places.length !== 0 && places.length !== 2) {
    throw violation('86001', { reason: phrase('pass-two-stations', { count: places.length }) }, '#/nonTripSearchCriteria/places');
  }
  if (request.tripSpecifications?.length) throw violation('86001', { reason: phrase('pass-no-journeys') }, '#/tripSpecifications');
  const passengers = request.anonymousPassengerSpecifications.map((spec, i) => typePassenger(ctx, spec, i, criteria.validFrom!));
  const now = ctx.now.toISOString();
  const offers: StoredOffer[] = [];
  for (const [code, product] of Object.entries(rules.passProducts.products)) {
    const type = rules.customers.passTypes[code]!;
    if (type.bound && places.length !== 2) continue;
    const admissions = passengers.map((p) => ({
      id: ctx.ids.next('part'),
      passengerRefs: [p.externalRef],
      offerMode: 'INDIVIDUAL' as const,
      price: passPrice(rules, code, currency),
      legIds: [],
      product: { code, id: code, flexibility: 'NON_FLEXIBLE' as const },
      refundable: 'NO',
      exchangeable: 'NO',
    }));
    offers.push({
      offerId: ctx.ids.next('offer'),
      owner: ctx.requestor.client,
      salesApplication: ctx.salesApplication.code,
      createdOn: now,
      preBookableUntil: plus(ctx.now, rules.limits.offerBookableFor).toISOString(),
      currency,
      trip: { id: code, legs: [], mainLegId: '', international: false },
      pass: {
        passType: code,
        kind: type.kind,
        validFrom: criteria.validFrom,
        validUntil: plus(criteria.validFrom, product.validFor).toISOString(),
        ...(type.bound ? { places: [places[0]!.stopPlaceRef, places[1]!.stopPlaceRef] as [string, string] } : {}),
        fulfillment: rules.passProducts.fulfillment[type.kind],
      },
      passengers,
      product: { code, id: code, flexibility: 'NON_FLEXIBLE' },
      offerMode: 'INDIVIDUAL',
      admissions,
      reservations: [],
      ancillaries: [],
      minimalPrice: sum(
        rules,
        admissions.map((a) => a.price),
        currency,
        false,
      ),
      corporateCodes: request.corporateCodes.map(({ code: c, beneficiary, issuer }) => ({
        code: c,
        ...(beneficiary ? { beneficiary } : {}),
        ...(issuer ? { issuer } : {}),
      })),
      promotionCodes: request.promotionCodes.map(({ code: c, issuer }) => ({ code: c, ...(issuer ? { issuer } : {}) })),
    });
  }
  return offers;
}

/** What a travel pass of `code` costs (pass-products.yaml), rounded and converted like fares, VAT included (a pass is domestic). */
export function passPrice(rules: RuleSet, code: string, currency: Currency, steps?: PriceStep[]): Money {
  const { price } = rules.passProducts.products[code]!;
  steps?.push({
    term: 'passPrice',
    op: 'plus',
    value: price,
    ref: code,
    amount: price,
    currency: rules.tariff.currency,
    sources: [referenceSource(rules, 'pass-products.yaml', ['products', code, 'price'])],
  });
  return priceFor(rules, price, 1, currency, false, steps);
}
