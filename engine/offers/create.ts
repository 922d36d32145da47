import { decide, enforce, type Context } from '../context.ts';
import type { AdmissionPart, Leg, OfferedProduct, OfferPassenger, ReservationPart, StoredOffer, Trip } from '../model.ts';
import type { Flexibility, ProductCategoryCode } from '../rules/schemas.ts';
import { minutesBetween, plus } from '../time.ts';
import { parseRequest } from '../validate.ts';
import { violation } from '../violation.ts';
import { isTrafficDisturbanceTicket, typePassenger } from './passengers.ts';
import { fullFare, priceFor, sum, withVat } from './pricing.ts';
import { OfferCollectionRequest } from './request.ts';
import { readTrip } from './trip.ts';

/**
 * POST /offers for journeys (spec §2.2–2.4, §2.9, §8): one offer per trip, product and flexibility,
 * priced from rules/. Returns the offers to store; the adapter renders them (render.ts).
 */
export function createOffers(ctx: Context, body: unknown): StoredOffer[] {
  const request = parseRequest(OfferCollectionRequest, body);
  const { rules, salesApplication } = ctx;

  const currency = request.offerSearchCriteria?.currency ?? salesApplication.currency;
  if (currency !== salesApplication.currency) {
    throw violation('86040', { salesApplication: salesApplication.code, expected: salesApplication.currency, currency }, '#/offerSearchCriteria/currency');
  }
  if (request.offerSearchCriteria?.productTags?.includes('PASS')) {
    throw violation('X_NOT_SUPPORTED', { feature: 'Travel pass offers' }, '#/offerSearchCriteria/productTags');
  }
  const trips = request.tripSpecifications ?? [];
  enforce(ctx, 'offerRequestLimits', {
    passengerCount: request.anonymousPassengerSpecifications.length,
    tripCount: trips.length,
    mostLegsInOneTrip: Math.max(0, ...trips.map((t) => t.legs.length)),
  });
  if (trips.length === 0) throw violation('86001', { reason: 'a journey offer request needs tripSpecifications' }, '#/tripSpecifications');
  assertUnique(request.anonymousPassengerSpecifications.map((p) => p.externalRef), (i) => `#/anonymousPassengerSpecifications/${i}/externalRef`, 'passenger externalRef');
  assertUnique(trips.flatMap((t) => t.legs.map((l) => l.externalRef)), (i) => legPointer(trips, i), 'leg externalRef');

  const readTrips = trips.map((spec, t) => readTrip(ctx, spec, t));
  const firstDeparture = readTrips[0]!.legs[0]!.departure;
  const passengers = request.anonymousPassengerSpecifications.map((spec, i) => typePassenger(ctx, spec, i, firstDeparture));

  const wantedClasses = request.offerSearchCriteria?.travelClasses?.filter((c) => c !== 'ANY_CLASS');
  const wantedFlex = request.offerSearchCriteria?.flexibilities;
  const offers: StoredOffer[] = [];
  for (const trip of readTrips) {
    const main = trip.legs.find((l) => l.id === trip.mainLegId)!;
    const category = rules.products.productCategories[main.category as ProductCategoryCode];
    if (!category) continue;
    for (const productCode of category.products) {
      const product = rules.products.products[productCode]!;
      if (wantedClasses?.length && !wantedClasses.includes(product.travelClass)) continue;
      for (const flexibility of Object.keys(rules.products.flexibilities) as Flexibility[]) {
        if (wantedFlex?.length && !wantedFlex.includes(flexibility)) continue;
        offers.push(priceOffer(ctx, trip, passengers, { code: productCode, flexibility }, currency, request));
      }
    }
  }
  return offers;
}

function priceOffer(
  ctx: Context, trip: Trip, passengers: OfferPassenger[], choice: { code: string; flexibility: Flexibility }, currency: 'SEK' | 'EUR',
  request: OfferCollectionRequest,
): StoredOffer {
  const { rules, ids } = ctx;
  const now = ctx.now.toISOString();
  const main = trip.legs.find((l) => l.id === trip.mainLegId)!;
  const product = offeredProduct(ctx, choice.code, choice.flexibility);
  const flex = rules.products.flexibilities[choice.flexibility]!;
  const minutes = minutesBetween(trip.legs[0]!.departure, trip.legs[trip.legs.length - 1]!.arrival);
  const fare = fullFare(rules, main.category as ProductCategoryCode, minutes, choice.code, choice.flexibility);

  // Spec §2.6 rule 8: one admission per passenger for all legs (through fare).
  const admissions: AdmissionPart[] = passengers.map((p) => {
    const { outcome } = decide<'fareFactor', { factor: number }>(ctx, 'fareFactor', {
      internalType: p.internalType, age: p.age, trafficDisturbanceTicket: isTrafficDisturbanceTicket(ctx, p),
    });
    return {
      id: ids.next('part'),
      passengerRef: p.externalRef,
      price: priceFor(rules, fare, outcome?.factor ?? 1, currency, trip.international),
      legIds: trip.legs.map((l) => l.id),
      product,
      refundable: flex.refundable,
      exchangeable: flex.exchangeable,
    };
  });
  // Spec §2.6 rule 2: reservations always cost 0; one per passenger and leg that needs one (§2.3 rule 2).
  const reservations: ReservationPart[] = trip.legs
    .filter((leg) => rules.products.productCategories[leg.category as ProductCategoryCode]?.reservation === 'mandatory')
    .flatMap((leg) => passengers.map((p) => ({
      id: ids.next('part'),
      passengerRef: p.externalRef,
      legId: leg.id,
      price: withVat(rules, { currency, amount: 0, scale: 2 }, trip.international),
      product: offeredProduct(ctx, legProductCode(ctx, leg, choice.code), choice.flexibility),
    })));
  return {
    offerId: ids.next('offer'),
    owner: ctx.requestor.client,
    salesApplication: ctx.salesApplication.code,
    createdOn: now,
    preBookableUntil: plus(ctx.now, rules.limits.offerBookableFor).toISOString(),
    currency,
    trip,
    passengers,
    product,
    admissions,
    reservations,
    minimalPrice: sum(rules, admissions.map((a) => a.price), currency, trip.international),
    corporateCodes: request.corporateCodes.map(({ code, beneficiary, issuer }) => ({ code, ...(beneficiary ? { beneficiary } : {}), ...(issuer ? { issuer } : {}) })),
    promotionCodes: request.promotionCodes.map(({ code, issuer }) => ({ code, ...(issuer ? { issuer } : {}) })),
  };
}

function offeredProduct(ctx: Context, code: string, flexibility: Flexibility): OfferedProduct {
  const product = ctx.rules.products.products[code]!;
  return { code, id: `${product.id}_${ctx.rules.products.flexibilities[flexibility]!.idSuffix}`, flexibility };
}

/**
 * Spec §2.3 rule 1: a connecting leg whose train lacks the offer's product falls back to a product of the
 * same class, else to the first product of its category (e.g. first class falls back to second class).
 */
function legProductCode(ctx: Context, leg: Leg, code: string): string {
  const category = ctx.rules.products.productCategories[leg.category as ProductCategoryCode];
  if (!category || category.products.includes(code)) return code;
  const wanted = ctx.rules.products.products[code]!;
  return category.products.find((c) => ctx.rules.products.products[c]!.travelClass === wanted.travelClass) ?? category.products[0]!;
}

function assertUnique(values: string[], pointer: (i: number) => string, what: string) {
  const seen = new Set<string>();
  values.forEach((v, i) => {
    if (seen.has(v)) throw violation('86001', { reason: `${what} "${v}" is used twice` }, pointer(i));
    seen.add(v);
  });
}

function legPointer(trips: OfferCollectionRequest['tripSpecifications'] & object, flatIndex: number): string {
  let i = flatIndex;
  for (let t = 0; t < trips.length; t++) {
    if (i < trips[t]!.legs.length) return `#/tripSpecifications/${t}/legs/${i}/externalRef`;
    i -= trips[t]!.legs.length;
  }
  return '#/tripSpecifications';
}
