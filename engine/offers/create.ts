import { decide, enforce, type Context } from '../model/context.ts';
import type { AdmissionPart, Leg, Money, OfferedProduct, OfferPassenger, ReservationPart, StoredOffer, Trip } from '../model/records.ts';
import type { Currency, Flexibility } from '../rules/schemas.ts';
import { earliest, plus } from '../rules/time.ts';
import { parseRequest } from '../rules/validate.ts';
import { phrase, violation, type Phrase } from '../rules/violation.ts';
import { offerAncillaries } from './ancillaries.ts';
import { checkCorporateCodes } from './corporate-codes.ts';
import { admissionPrices, passengerShares, type PassengerShares } from './admission-prices.ts';
import { typePassenger } from './passengers.ts';
import { createPassOffers } from './passes.ts';
import { minimalParts } from './minimal-price.ts';
import { sum } from './pricing.ts';
import { decideReservationPrice, reservationPartPrice } from './reservation-price.ts';
import { OfferCollectionRequest } from '../model/osdm/offer-request.ts';
import { whyNotReleased } from './release.ts';
import { readTrip } from './trip.ts';
import { hasRoom } from '../seats/capacity.ts';
import type { Holding } from '../holdings/place-holdings.ts';
import type { PassUse } from '../holdings/pass-uses.ts';
import type { Warning } from '../model/records.ts';

/**
 * POST /offers, read: the request validated. Spec §8: the counts are decided before any element is validated, so
 * 250,000 passengers cost one comparison, not 250,000 validation problems.
 */
export function readOfferRequest(ctx: Context, body: unknown): OfferCollectionRequest {
  enforce(ctx, 'offerRequestLimits', countsOf(body));
  return parseRequest(OfferCollectionRequest, body);
}

/**
 * POST /offers (spec §2.2–2.5, §2.8, §2.9, §4.2, §8): journey offers — one per trip, product and
 * flexibility, priced from rules/ — or, with productTags [PASS], travel pass offers.
 * Returns the offers to store; render.ts turns them into the response. Why a trip has none (a train
 * cancelled, not yet released or gone) is pushed onto `warnings`.
 */
export function createOffers(
  ctx: Context,
  request: OfferCollectionRequest,
  held: readonly Holding[] = [],
  passUses: readonly PassUse[] = [],
  warnings: Warning[] = [],
): StoredOffer[] {
  const { rules, salesApplication } = ctx;

  const currency = request.offerSearchCriteria?.currency ?? salesApplication.currency;
  if (currency !== salesApplication.currency) {
    throw violation('86040', { salesApplication: salesApplication.code, expected: salesApplication.currency, currency }, '#/offerSearchCriteria/currency');
  }
  checkCorporateCodes(ctx, request.corporateCodes);
  if (request.offerSearchCriteria?.productTags?.includes('PASS')) return createPassOffers(ctx, request, currency);

  const trips = request.tripSpecifications ?? [];
  if (trips.length === 0) throw violation('86001', { reason: phrase('offers-need-trips') }, '#/tripSpecifications');
  assertUnique(
    request.anonymousPassengerSpecifications.map((p) => p.externalRef),
    (i) => `#/anonymousPassengerSpecifications/${i}/externalRef`,
    phrase('what-passenger-external-ref'),
  );
  assertUnique(
    trips.flatMap((t) => t.legs.map((l) => l.externalRef)),
    (i) => legPointer(trips, i),
    phrase('what-leg-external-ref'),
  );

  const readTrips = trips.map((spec, t) => readTrip(ctx, spec, t));
  const firstDeparture = readTrips[0]!.legs[0]!.departure;
  const passengers = request.anonymousPassengerSpecifications.map((spec, i) => typePassenger(ctx, spec, i, firstDeparture));

  const wantedClasses = request.offerSearchCriteria?.travelClasses?.filter((c) => c !== 'ANY_CLASS');
  const wantedFlex = request.offerSearchCriteria?.flexibilities;
  const offers: StoredOffer[] = [];
  const shares = passengerShares(); // the passengers are the same for every trip and product
  for (const trip of readTrips) {
    // Spec §2.3: no offers for a train that is cancelled, not yet released or gone; the caller is told why.
    const notReleased = whyNotReleased(ctx, trip);
    if (notReleased) {
      if (!warnings.some((w) => w.code === notReleased.code && w.params?.['vehicleNumber'] === notReleased.params?.['vehicleNumber']))
        warnings.push(notReleased);
      continue;
    }
    const main = trip.legs.find((l) => l.id === trip.mainLegId)!;
    const category = rules.products.productCategories[main.category];
    if (!category) continue;
    // Nothing is sold once the train has left: an offer's bookable time ends at departure at the latest.
    const preBookableUntil = earliest(plus(ctx.now, rules.limits.offerBookableFor), trip.legs[0]!.departure);
    for (const productCode of category.products) {
      const product = rules.products.products[productCode]!;
      if (wantedClasses?.length && !wantedClasses.includes(product.travelClass)) continue;
      const { outcome } = decide(ctx, 'productAvailability', {
        compartment: product.compartment ?? 'NONE',
        accommodationType: product.accommodationType,
        travelClass: product.travelClass,
        passengerCount: passengers.length,
        compartmentEach: product.compartmentEach,
      });
      if (outcome?.offered === false) continue;
      // Capacity: a product without a free place for every passenger on a leg that needs one is sold out.
      if (
        !hasRoom(
          ctx,
          trip.legs.map((leg) => ({ leg, code: legProductCode(ctx, leg, productCode) })),
          passengers.length,
          held,
        )
      )
        continue;
      for (const flexibility of Object.keys(rules.products.flexibilities) as Flexibility[]) {
        if (wantedFlex?.length && !wantedFlex.includes(flexibility)) continue;
        offers.push(priceOffer(ctx, trip, passengers, { code: productCode, flexibility }, currency, request, passUses, preBookableUntil, shares));
      }
    }
  }
  return offers;
}

/** The spec §8 counts of an offer request as sent, whatever its elements hold (arrays only; anything else counts 0). */
function countsOf(body: unknown): { passengerCount: number; tripCount: number; mostLegsInOneTrip: number } {
  const raw = (body && typeof body === 'object' ? body : {}) as { anonymousPassengerSpecifications?: unknown; tripSpecifications?: unknown };
  const length = (value: unknown) => (Array.isArray(value) ? value.length : 0);
  const trips = Array.isArray(raw.tripSpecifications) ? raw.tripSpecifications : [];
  return {
    passengerCount: length(raw.anonymousPassengerSpecifications),
    tripCount: trips.length,
    mostLegsInOneTrip: trips.reduce((most: number, trip: unknown) => Math.max(most, length((trip as { legs?: unknown } | null)?.legs)), 0),
  };
}

function priceOffer(
  ctx: Context,
  trip: Trip,
  passengers: OfferPassenger[],
  choice: { code: string; flexibility: Flexibility },
  currency: Currency,
  request: OfferCollectionRequest,
  passUses: readonly PassUse[],
  preBookableUntil: string,
  shares: PassengerShares,
): StoredOffer {
  const { rules, ids } = ctx;
  const now = ctx.now.toISOString();
  const product = offeredProduct(ctx, choice.code, choice.flexibility);
  const flex = rules.products.flexibilities[choice.flexibility];
  const offerMode = request.offerSearchCriteria?.offerMode ?? 'INDIVIDUAL';

  // Spec §2.6 rule 8: one admission per passenger for all legs (through fare).
  const prices = admissionPrices(ctx, trip, choice.code, choice.flexibility, passengers, currency, passUses, shares);
  const legIds = trip.legs.map((l) => l.id);
  // Spec §2.3 rule 3: collective mode has one price for all passengers, who cannot be refunded separately.
  const groups = offerMode === 'COLLECTIVE' ? [passengers] : passengers.map((p) => [p]);
  const admissions: AdmissionPart[] = groups.map((group) => {
    const passengerRefs: string[] = [];
    const amounts: Money[] = [];
    const travelPasses: string[] = [];
    for (const p of group) {
      const priced = prices.get(p.externalRef)!;
      passengerRefs.push(p.externalRef);
      amounts.push(priced.price);
      if (priced.travelPass) travelPasses.push(priced.travelPass);
    }
    const price = offerMode === 'COLLECTIVE' ? sum(rules, amounts, currency, trip.international) : amounts[0]!;
    // A whole object literal, the optional passes assigned after: cheaper than spreads (docs/performance.md).
    const part: AdmissionPart = {
      id: ids.next('part'),
      passengerRefs,
      offerMode,
      price,
      legIds,
      product,
      refundable: flex.refundable,
      exchangeable: flex.exchangeable,
    };
    if (travelPasses.length > 0) part.travelPasses = travelPasses;
    return part;
  });

  // Spec §2.6 rule 2: reservations cost what rules/reservation-prices.yaml says; one per passenger and leg that needs one (§2.3 rule 2, §2.5 rule 3).
  const legProducts = trip.legs.map((leg) => ({ leg, code: legProductCode(ctx, leg, choice.code) }));
  const reservations: ReservationPart[] = legProducts
    .filter(({ leg }) => rules.products.productCategories[leg.category]?.reservation === 'mandatory')
    .flatMap(({ leg, code }) => {
      const legProduct = offeredProduct(ctx, code, choice.flexibility);
      const decided = decideReservationPrice(ctx, leg, code);
      return passengers.map((p) => ({
        id: ids.next('part'),
        passengerRef: p.externalRef,
        legId: leg.id,
        price: reservationPartPrice(rules, decided, currency, trip.international),
        product: legProduct,
      }));
    });
  const ancillaries = offerAncillaries(
    ctx,
    legProducts.map(({ leg, code }) => ({ leg, travelClass: rules.products.products[code]!.travelClass })),
    passengers,
    currency,
    trip.international,
    flex,
  );
  return {
    offerId: ids.next('offer'),
    owner: ctx.requestor.client,
    salesApplication: ctx.salesApplication.code,
    createdOn: now,
    preBookableUntil,
    currency,
    trip,
    passengers,
    product,
    offerMode,
    admissions,
    reservations,
    ancillaries,
    minimalPrice: sum(
      rules,
      minimalParts(admissions, ancillaries).map((a) => a.price),
      currency,
      trip.international,
    ),
    corporateCodes: request.corporateCodes.map(({ code, beneficiary, issuer }) => ({
      code,
      ...(beneficiary ? { beneficiary } : {}),
      ...(issuer ? { issuer } : {}),
    })),
    promotionCodes: request.promotionCodes.map(({ code, issuer }) => ({ code, ...(issuer ? { issuer } : {}) })),
  };
}

function offeredProduct(ctx: Context, code: string, flexibility: Flexibility): OfferedProduct {
  const product = ctx.rules.products.products[code]!;
  return { code, id: `${product.id}_${ctx.rules.products.flexibilities[flexibility].idSuffix}`, flexibility };
}

/**
 * Spec §2.3 rule 1: a connecting leg whose train lacks the offer's product falls back to a product of the
 * same class, else to the first product of its category (e.g. first class falls back to second class).
 */
function legProductCode(ctx: Context, leg: Leg, code: string): string {
  const category = ctx.rules.products.productCategories[leg.category];
  if (!category || category.products.includes(code)) return code;
  const wanted = ctx.rules.products.products[code]!;
  return category.products.find((c) => ctx.rules.products.products[c]!.travelClass === wanted.travelClass) ?? category.products[0]!;
}

function assertUnique(values: string[], pointer: (i: number) => string, what: Phrase) {
  const seen = new Set<string>();
  values.forEach((v, i) => {
    if (seen.has(v)) throw violation('86001', { reason: phrase('used-twice', { what, value: v }) }, pointer(i));
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
