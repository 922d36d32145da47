import type { Money, StoredOffer } from '../model.ts';
import type { RuleSet } from '../rules/ruleset.ts';
import type { Language } from '../rules/schemas.ts';

/** OSDM 3.4 Offer rendered from a stored offer in the caller's language (spec §2.3). */
export function renderOffer(rules: RuleSet, offer: StoredOffer, language: Language): Record<string, unknown> {
  const product = rules.products.products[offer.product.code]!;
  const flex = rules.products.flexibilities[offer.product.flexibility]!;
  const passengerRefs = offer.passengers.map((p) => p.externalRef);
  const regulatoryConditions = offer.trip.international ? { regulatoryConditions: ['CIV'] } : {};
  const common = (id: string, price: Money, refs: string[]) => ({
    id,
    createdOn: offer.createdOn,
    validFrom: offer.createdOn,
    validUntil: offer.preBookableUntil,
    price,
    offerMode: 'INDIVIDUAL',
    passengerRefs: refs,
    refundable: flex.refundable,
    exchangeable: flex.exchangeable,
    availableFulfillmentOptions: [{ type: 'ETICKET', media: 'PDF_A4' }],
  });
  const reservationsOf = (ref: string) => offer.reservations.filter((r) => r.passengerRef === ref);
  const productIds = [...new Set([offer.product, ...offer.reservations.map((r) => r.product)].map((p) => p.id))];
  return {
    offerId: offer.offerId,
    createdOn: offer.createdOn,
    preBookableUntil: offer.preBookableUntil,
    passengerRefs,
    offerSummary: {
      minimalPrice: offer.minimalPrice,
      overallServiceClass: { type: product.serviceClass, name: product.summary[language] },
      overallTravelClass: product.travelClass,
      overallFlexibility: offer.product.flexibility,
      overallAccommodationType: product.accommodationType,
      overallAccommodationSubType: 'ANY_SEAT',
    },
    products: productIds.map((id) => {
      const p = [offer.product, ...offer.reservations.map((r) => r.product)].find((x) => x.id === id)!;
      return { id, code: id, summary: rules.products.products[p.code]!.summary[language], description: '' };
    }),
    tripCoverage: { coveredTripId: offer.trip.id, coveredLegIds: offer.trip.legs.map((l) => l.id) },
    admissionOfferParts: offer.admissions.map((a) => {
      const passenger = offer.passengers.find((p) => p.externalRef === a.passengerRef)!;
      const reservations = reservationsOf(a.passengerRef);
      return {
        objectType: 'AdmissionOfferPart',
        ...common(a.id, a.price, [a.passengerRef]),
        products: [{ productId: a.product.id, legIds: a.legIds }],
        tripCoverage: { coveredTripId: offer.trip.id, coveredLegIds: a.legIds },
        appliedPassengerTypes: [{ passengerRef: a.passengerRef, type: passenger.responseType, description: passenger.description[language] }],
        // Spec §2.3 rule 5: echoes of the request, whether applied or not.
        appliedCorporateCodes: offer.corporateCodes,
        appliedPromotionCodes: offer.promotionCodes,
        appliedReductionCardTypes: passenger.cards.filter((c) => c.type === 'REDUCTION_CARD' || c.type === 'TRAVEL_PASS').map((c) => ({ code: c.code, type: c.type })),
        isReservationRequired: reservations.length > 0,
        ...(reservations.length > 0
          ? { reservations: [{ minGroupItemsToBeBooked: reservations.length, maxGroupItemsToBeBooked: reservations.length, reservationGroup: { id: `${a.id}-reservations`, name: '', reservationRefs: reservations.map((r) => ({ id: r.id })) } }] }
          : {}),
        ...regulatoryConditions,
      };
    }),
    reservationOfferParts: offer.reservations.map((r) => {
      const rp = rules.products.products[r.product.code]!;
      return {
        objectType: 'ReservationOfferPart',
        ...common(r.id, r.price, [r.passengerRef]),
        products: [{ productId: r.product.id, legIds: [r.legId] }],
        tripCoverage: { coveredTripId: offer.trip.id, coveredLegIds: [r.legId] },
        availablePlaces: [{ accommodationType: rp.accommodationType, accommodationSubType: 'ANY_SEAT', tripLegCoverage: { tripId: offer.trip.id, legId: r.legId } }],
        availablePlacePreferences: [{ graphicalReservation: 'WITHOUT_FEE' }],
        // Spec §2.5 rule 2, CONTRACT §4a: a flag on night-train reservations only.
        ...(rp.compartment ? { numberOfPrivateCompartments: rp.compartment === 'PRIVATE' ? 1 : 0 } : {}),
      };
    }),
  };
}

export function renderOfferCollection(rules: RuleSet, offers: StoredOffer[], language: Language, passengers: unknown): Record<string, unknown> {
  return { offers: offers.map((o) => renderOffer(rules, o, language)), anonymousPassengerSpecifications: passengers };
}
