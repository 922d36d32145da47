import { z } from 'zod';
import { FulfillmentOption, Instant, Price, ProductLegAssociation, Ref, TripCoverage, TripLegCoverage, WarningCollection } from './shapes.ts';
import { Trip } from './trip.ts';
import { AnonymousPassengerSpecification, PromotionCode } from './offer-request.ts';

/**
 * OfferCollectionResponse (POST /offers, spec §2.3) as engine/offers/render.ts renders it, in OSDM 3.4 names.
 * A journey offer and a travel pass offer (spec §4.2 rule 3) share the Offer shape: what only a journey has is
 * optional here (tripCoverage, the reservation and ancillary parts, accommodation types).
 */

/** The fields every offer part shows (engine/offers/render.ts `common`); OSDM AbstractOfferPart. */
const offerPart = {
  id: z.string(),
  createdOn: Instant,
  validFrom: Instant,
  validUntil: Instant,
  price: Price,
  offerMode: z.enum(['INDIVIDUAL', 'COLLECTIVE']),
  passengerRefs: z.array(z.string()),
  refundable: z.string().describe('OSDM RefundType: YES, NO, WITH_CONDITION'),
  exchangeable: z.string().describe('OSDM ExchangeableType: YES, NO, WITH_CONDITION'),
  availableFulfillmentOptions: z.array(FulfillmentOption),
  products: z.array(ProductLegAssociation),
};

/** OSDM PassengerType as applied to one passenger (spec §2.4), with its description in the caller's language. */
export const AppliedPassengerType = z.strictObject({ passengerRef: z.string(), type: z.string(), description: z.string() });

/** OSDM ReservationGroupItem / AncillaryGroupItem: the parts a passenger books with an admission (spec §2.5, §2.8 rule 1). */
export const ReservationGroupItem = z.strictObject({
  minGroupItemsToBeBooked: z.number().int(),
  maxGroupItemsToBeBooked: z.number().int(),
  reservationGroup: z.strictObject({ id: z.string(), name: z.string(), reservationRefs: z.array(Ref) }),
});
export const AncillaryGroupItem = z.strictObject({
  minGroupItemsToBeBooked: z.number().int(),
  maxGroupItemsToBeBooked: z.number().int(),
  ancillaryGroup: z.strictObject({ id: z.string(), name: z.string(), ancillaryRefs: z.array(Ref) }),
});

/** OSDM CorporateCode as echoed: the issuer the request named, else the operator (its contracts, customers.yaml). */
export const AppliedCorporateCode = z.strictObject({ code: z.string(), beneficiary: z.string().optional(), issuer: z.string() });

/**
 * OSDM ReductionCardType: a passenger's reduction card (cards.yaml) or travel pass (customers.yaml passTypes),
 * issued by the operator, named in the caller's language.
 */
const ReductionCardType = z.strictObject({
  code: z.string(),
  issuer: z.string(),
  name: z.strictObject({ id: z.string(), text: z.string() }),
});

export const AdmissionOfferPart = z.strictObject({
  objectType: z.literal('AdmissionOfferPart'),
  ...offerPart,
  /** Absent on a travel pass offer, which covers no trip (spec §4.2 rule 3). */
  tripCoverage: TripCoverage.optional(),
  appliedPassengerTypes: z.array(AppliedPassengerType),
  // Spec §2.3 rule 5: echoes of the request, whether applied or not.
  appliedCorporateCodes: z.array(AppliedCorporateCode),
  appliedPromotionCodes: z.array(PromotionCode),
  /** Journey offers only: the passengers' reduction cards and travel passes. */
  appliedReductionCardTypes: z.array(ReductionCardType).optional(),
  isReservationRequired: z.boolean().optional(),
  reservations: z.array(ReservationGroupItem).optional(),
  ancillaries: z.array(AncillaryGroupItem).optional(),
  /** CIV on international trips (spec §2.6 rule 9). */
  regulatoryConditions: z.array(z.string()).optional(),
});

export const ReservationOfferPart = z.strictObject({
  objectType: z.literal('ReservationOfferPart'),
  ...offerPart,
  tripCoverage: TripCoverage,
  availablePlaces: z.array(z.strictObject({ accommodationType: z.string(), accommodationSubType: z.string(), tripLegCoverage: TripLegCoverage })),
  availablePlacePreferences: z.array(z.strictObject({ graphicalReservation: z.string() })),
  /** Spec §2.5 rule 2, CONTRACT §4a: night-train reservations only. */
  numberOfPrivateCompartments: z.number().int().optional(),
});

export const AncillaryOfferPart = z.strictObject({
  objectType: z.literal('AncillaryOfferPart'),
  ...offerPart,
  type: z.string(),
  summary: z.string(),
  tripCoverage: TripCoverage,
});

/** OSDM OfferSummary; accommodation types on journey offers only. */
export const OfferSummary = z.strictObject({
  minimalPrice: Price,
  overallServiceClass: z.strictObject({ type: z.string(), name: z.string() }),
  overallTravelClass: z.string(),
  overallFlexibility: z.string(),
  overallAccommodationType: z.string().optional(),
  overallAccommodationSubType: z.string().optional(),
});

/** OSDM Product, its summary in the caller's language; `productTags: ['PASS']` marks a travel pass. */
export const OfferedProduct = z.strictObject({
  id: z.string(),
  code: z.string(),
  summary: z.string(),
  description: z.string(),
  owner: z.string().describe('The operator (its carrier ref, stations.yaml operatorCarrier).'),
  flexibility: z.enum(['NON_FLEXIBLE', 'SEMI_FLEXIBLE', 'FULL_FLEXIBLE']),
  productTags: z.array(z.string()).optional(),
});

export const Offer = z.strictObject({
  offerId: z.string(),
  createdOn: Instant,
  preBookableUntil: Instant,
  passengerRefs: z.array(z.string()),
  offerSummary: OfferSummary,
  products: z.array(OfferedProduct),
  tripCoverage: TripCoverage.optional(),
  admissionOfferParts: z.array(AdmissionOfferPart),
  reservationOfferParts: z.array(ReservationOfferPart).optional(),
  ancillaryOfferParts: z.array(AncillaryOfferPart).optional(),
});

/** POST /offers → 200. `anonymousPassengerSpecifications`: the request's passengers, as given (spec §2.3). */
export const OfferCollectionResponse = z.strictObject({
  offers: z.array(Offer),
  anonymousPassengerSpecifications: z.array(AnonymousPassengerSpecification),
  /** The trips the offers cover (`tripCoverage.coveredTripId`); none for travel pass offers. */
  trips: z.array(Trip),
  /** Why a trip has no offers: its train is cancelled, not yet released or gone (spec §2.3, CONTRACT §4b). */
  warnings: WarningCollection.optional(),
});
