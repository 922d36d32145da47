import type { AncillaryPart, StoredOffer } from '../model/records.ts';
import type { RuleSet } from '../rules/ruleset.ts';
import type { Language } from '../rules/schemas.ts';
import { renderTrip } from '../model/osdm/trip.ts';
import { passengerTypeText } from './passengers.ts';
import type { z } from 'zod';
import type * as R from '../model/osdm/offer-response.ts';

export type OfferCollection = z.infer<typeof R.OfferCollectionResponse>;

type AdmissionOfferPart = z.infer<typeof R.AdmissionOfferPart>;
type ReservationOfferPart = z.infer<typeof R.ReservationOfferPart>;

/**
 * OSDM 3.4 Offer rendered from a stored offer in the caller's language (spec §2.3).
 * Parts are written as whole object literals, optional fields assigned after: a 9-passenger answer has ~80 parts,
 * and V8 builds a literal far faster than one with `...spread` in its middle (docs/performance.md). What every part of
 * an offer shows alike (its times, fulfillment options) is one object shared by the parts, as JSON cannot tell.
 */
export function renderOffer(rules: RuleSet, offer: StoredOffer, language: Language): z.infer<typeof R.Offer> {
  if (offer.pass) return renderPassOffer(rules, offer, language);
  const product = rules.products.products[offer.product.code]!;
  const flex = rules.products.flexibilities[offer.product.flexibility];
  const { createdOn, preBookableUntil: validUntil, offerMode, trip } = offer;
  const passengerRefs = offer.passengers.map((p) => p.externalRef);
  const fulfillmentOptions = [{ type: 'ETICKET', media: 'PDF_A4' }];
  const allProducts = [offer.product, ...offer.reservations.map((r) => r.product)];
  const productIds = [...new Set(allProducts.map((p) => p.id))];
  // Spec §2.8 rule 1: groups have no presentable name; one group per passenger, leg and kind of ancillary.
  // Indexed by passenger once, so rendering stays linear in the number of passengers.
  const groupsOf = new Map<string, Map<string, AncillaryPart[]>>();
  for (const a of offer.ancillaries) {
    const mine = groupsOf.get(a.passengerRef) ?? groupsOf.set(a.passengerRef, new Map()).get(a.passengerRef)!;
    const key = `${a.passengerRef}:${a.legId}:${a.group}`;
    const items = mine.get(key) ?? mine.set(key, []).get(key)!;
    items.push(a);
  }
  const reservationsOf = new Map<string, typeof offer.reservations>();
  for (const r of offer.reservations) (reservationsOf.get(r.passengerRef) ?? reservationsOf.set(r.passengerRef, []).get(r.passengerRef)!).push(r);
  const passengerOf = new Map(offer.passengers.map((p) => [p.externalRef, p]));
  const legCoverage = new Map(trip.legs.map((l) => [l.id, { coveredTripId: trip.id, coveredLegIds: [l.id] }]));
  const owner = rules.stations.operatorCarrier.ref;
  const corporateCodes = appliedCorporateCodes(rules, offer.corporateCodes);
  /** An admission part: its passengers' types and cards, and the groups of reservations and ancillaries they book with it. */
  const admissionPart = (a: StoredOffer['admissions'][number]): AdmissionOfferPart => {
    const appliedPassengerTypes: AdmissionOfferPart['appliedPassengerTypes'] = [];
    const appliedReductionCardTypes: NonNullable<AdmissionOfferPart['appliedReductionCardTypes']> = [];
    const reservationRefs: Array<{ id: string }> = [];
    const ancillaries: NonNullable<AdmissionOfferPart['ancillaries']> = [];
    for (const ref of a.passengerRefs) {
      const p = passengerOf.get(ref)!;
      appliedPassengerTypes.push({ passengerRef: p.externalRef, type: p.responseType, description: passengerTypeText(rules, p)[language] });
      for (const c of p.cards) {
        const name =
          c.type === 'REDUCTION_CARD'
            ? rules.cards.reductionCards[c.code]?.name
            : c.type === 'TRAVEL_PASS'
              ? rules.customers.passTypes[c.code]?.name
              : undefined;
        if (name) appliedReductionCardTypes.push({ code: c.code, issuer: owner, name: { id: c.code, text: name[language] } });
      }
      for (const r of reservationsOf.get(ref) ?? []) reservationRefs.push({ id: r.id });
      for (const [key, items] of groupsOf.get(ref) ?? []) {
        ancillaries.push({
          minGroupItemsToBeBooked: items[0]!.groupMin,
          maxGroupItemsToBeBooked: 1,
          ancillaryGroup: { id: `${offer.offerId}:${key}`, name: '', ancillaryRefs: items.map((i) => ({ id: i.id })) },
        });
      }
    }
    const part: AdmissionOfferPart = {
      objectType: 'AdmissionOfferPart',
      id: a.id,
      createdOn,
      validFrom: createdOn,
      validUntil,
      price: a.price,
      offerMode,
      passengerRefs: a.passengerRefs,
      refundable: flex.refundable,
      exchangeable: flex.exchangeable,
      availableFulfillmentOptions: fulfillmentOptions,
      products: [{ productId: a.product.id, legIds: a.legIds }],
      tripCoverage: { coveredTripId: trip.id, coveredLegIds: a.legIds },
      appliedPassengerTypes,
      // Spec §2.3 rule 5: echoes of the request, whether applied or not.
      appliedCorporateCodes: corporateCodes,
      appliedPromotionCodes: offer.promotionCodes,
      appliedReductionCardTypes,
      isReservationRequired: reservationRefs.length > 0,
    };
    if (reservationRefs.length > 0) {
      const n = reservationRefs.length;
      part.reservations = [
        { minGroupItemsToBeBooked: n, maxGroupItemsToBeBooked: n, reservationGroup: { id: `${a.id}:reservations`, name: '', reservationRefs } },
      ];
    }
    if (ancillaries.length > 0) part.ancillaries = ancillaries;
    if (trip.international) part.regulatoryConditions = ['CIV'];
    return part;
  };
  return {
    offerId: offer.offerId,
    createdOn,
    preBookableUntil: validUntil,
    passengerRefs,
    offerSummary: {
      minimalPrice: offer.minimalPrice,
      overallServiceClass: { type: product.serviceClass, name: product.summary[language] },
      overallTravelClass: product.travelClass,
      overallFlexibility: offer.product.flexibility,
      overallAccommodationType: product.accommodationType,
      overallAccommodationSubType: rules.products.accommodationSubType,
    },
    products: productIds.map((id) => {
      const p = allProducts.find((x) => x.id === id)!;
      return { id, code: id, summary: rules.products.products[p.code]!.summary[language], description: '', owner, flexibility: p.flexibility };
    }),
    tripCoverage: { coveredTripId: trip.id, coveredLegIds: trip.legs.map((l) => l.id) },
    admissionOfferParts: offer.admissions.map(admissionPart),
    reservationOfferParts: offer.reservations.map((r) => {
      const rp = rules.products.products[r.product.code]!;
      const part: ReservationOfferPart = {
        objectType: 'ReservationOfferPart',
        id: r.id,
        createdOn,
        validFrom: createdOn,
        validUntil,
        price: r.price,
        offerMode,
        passengerRefs: [r.passengerRef],
        refundable: flex.refundable,
        exchangeable: flex.exchangeable,
        availableFulfillmentOptions: fulfillmentOptions,
        products: [{ productId: r.product.id, legIds: [r.legId] }],
        tripCoverage: legCoverage.get(r.legId)!,
        availablePlaces: [
          {
            accommodationType: rp.accommodationType,
            accommodationSubType: rules.products.accommodationSubType,
            tripLegCoverage: { tripId: trip.id, legId: r.legId },
          },
        ],
        availablePlacePreferences: [{ graphicalReservation: 'WITHOUT_FEE' }],
      };
      // Spec §2.5 rule 2, CONTRACT §4a: a flag on night-train reservations only.
      if (rp.compartment) part.numberOfPrivateCompartments = rp.compartment === 'PRIVATE' ? 1 : 0;
      return part;
    }),
    ancillaryOfferParts: offer.ancillaries.map((a) => {
      const item = rules.ancillaryItems[a.item]!;
      return {
        objectType: 'AncillaryOfferPart' as const,
        id: a.id,
        createdOn,
        validFrom: createdOn,
        validUntil,
        price: a.price,
        offerMode,
        passengerRefs: [a.passengerRef],
        refundable: a.refundable,
        exchangeable: a.exchangeable,
        availableFulfillmentOptions: fulfillmentOptions,
        type: item.type,
        summary: item.summary[language],
        products: [{ productId: a.item, legIds: [a.legId] }],
        tripCoverage: legCoverage.get(a.legId)!,
      };
    }),
  };
}

/** Spec §4.2 rule 3: one admission part referencing the pass product; fulfillment set by the service (rule 5). */
function renderPassOffer(rules: RuleSet, offer: StoredOffer, language: Language): z.infer<typeof R.Offer> {
  const pass = offer.pass!;
  const name = rules.customers.passTypes[pass.passType]!.name[language];
  return {
    offerId: offer.offerId,
    createdOn: offer.createdOn,
    preBookableUntil: offer.preBookableUntil,
    passengerRefs: offer.passengers.map((p) => p.externalRef),
    offerSummary: {
      minimalPrice: offer.minimalPrice,
      overallServiceClass: { type: 'STANDARD', name },
      overallTravelClass: rules.customers.passTypes[pass.passType]!.travelClass,
      overallFlexibility: 'NON_FLEXIBLE',
    },
    products: [
      {
        id: pass.passType,
        code: pass.passType,
        summary: name,
        description: '',
        owner: rules.stations.operatorCarrier.ref,
        flexibility: 'NON_FLEXIBLE',
        productTags: ['PASS'],
      },
    ],
    admissionOfferParts: offer.admissions.map((a) => {
      const passenger = offer.passengers.find((p) => p.externalRef === a.passengerRefs[0])!;
      return {
        objectType: 'AdmissionOfferPart',
        id: a.id,
        createdOn: offer.createdOn,
        validFrom: pass.validFrom,
        validUntil: pass.validUntil,
        price: a.price,
        offerMode: 'INDIVIDUAL',
        passengerRefs: a.passengerRefs,
        refundable: a.refundable,
        exchangeable: a.exchangeable,
        products: [{ productId: pass.passType }],
        availableFulfillmentOptions: [pass.fulfillment],
        appliedPassengerTypes: [
          { passengerRef: passenger.externalRef, type: passenger.responseType, description: passengerTypeText(rules, passenger)[language] },
        ],
        appliedCorporateCodes: appliedCorporateCodes(rules, offer.corporateCodes),
        appliedPromotionCodes: offer.promotionCodes,
      };
    }),
  };
}

/** `passengers`: the request's anonymousPassengerSpecifications as sent (and validated), echoed (OSDM OfferCollectionResponse). */
export function renderOfferCollection(
  rules: RuleSet,
  offers: StoredOffer[],
  language: Language,
  passengers: OfferCollection['anonymousPassengerSpecifications'],
): OfferCollection {
  const trips = new Map<string, StoredOffer['trip']>();
  for (const o of offers) if (!o.pass && !trips.has(o.trip.id)) trips.set(o.trip.id, o.trip);
  return {
    offers: offers.map((o) => renderOffer(rules, o, language)),
    anonymousPassengerSpecifications: passengers,
    trips: [...trips.values()].map((t) => renderTrip(rules, t, language)),
  };
}

/**
 * Spec §2.3 rule 5: the request's corporate codes echoed, whether applied or not, each with its issuer (OSDM
 * CorporateCode requires one): the one the request named, else the operator, whose contracts they are.
 */
export function appliedCorporateCodes(rules: RuleSet, codes: StoredOffer['corporateCodes']): z.infer<typeof R.AppliedCorporateCode>[] {
  return codes.map((c) => ({
    code: c.code,
    ...(c.beneficiary !== undefined ? { beneficiary: c.beneficiary } : {}),
    issuer: c.issuer ?? rules.stations.operatorCarrier.ref,
  }));
}
