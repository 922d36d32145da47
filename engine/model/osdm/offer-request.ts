import { z } from 'zod';
import { DATE_TIME_WITH_OFFSET, isRealInstant } from '../../rules/time.ts';
import { TravelClass } from '../../rules/facts.ts';
import { Currency } from '../../rules/schemas.ts';

/**
 * OfferCollectionRequest as the operator accepts it (spec §2.2), in OSDM 3.4 field names.
 * Fields OSDM defines but the operator does not use are accepted and ignored (CONTRACT §4);
 * any other field is refused, so a typo never passes silently.
 */
const ignored = z.unknown().optional();

const DateTimeWithOffset = z
  .string()
  .regex(DATE_TIME_WITH_OFFSET, { error: 'an ISO 8601 date-time with a UTC offset', abort: true })
  .refine(isRealInstant, 'not a real instant (a day, hour or offset out of range)');
const StationRef = z.string().regex(/^urn:(x_swe:stn:\d{9}|uic:stn:\d{7})$/, 'a station URN: urn:x_swe:stn:<9 digits> or urn:uic:stn:<7 digits>');

export const StopPlaceRef = z.strictObject({ objectType: z.literal('StopPlaceRef'), stopPlaceRef: StationRef });

const ServiceTime = z.strictObject({ timetabledTime: DateTimeWithOffset, estimatedTime: ignored, observedTime: ignored });

const ProductCategory = z.strictObject({
  name: z.string().optional(),
  shortName: z.string().optional(),
  // Which categories exist is the operator's (rules/products.yaml): an unknown one is refused when the trip is read.
  productCategoryRef: z.string().regex(/^urn:x_swe:sbc:[A-Z][A-Z0-9]*$/, 'urn:x_swe:sbc:<category code>'),
});

const Service = z.strictObject({
  publishedServiceName: z.string().min(1).optional(),
  vehicleNumbers: z.array(z.string().min(1)),
  productCategory: ProductCategory,
  carriers: z.array(z.strictObject({ ref: z.string().regex(/^urn:x_swe:carrier:\w+$/, 'urn:x_swe:carrier:<code>'), name: z.string().optional() })).min(1),
  operatingDayRef: ignored,
  mode: ignored,
  lineNumbers: ignored,
  serviceStatus: ignored,
  situationFullRefs: ignored,
  attributes: ignored,
});

export const TimedLeg = z.strictObject({
  start: z.strictObject({ stopPlaceRef: StopPlaceRef, serviceDeparture: ServiceTime }),
  end: z.strictObject({ stopPlaceRef: StopPlaceRef, serviceArrival: ServiceTime }),
  service: Service,
  intermediates: ignored,
});

export const TripSpecification = z.strictObject({
  externalRef: z.string().min(1).optional(),
  legs: z.array(z.strictObject({ externalRef: z.string().min(1), timedLeg: TimedLeg, transferLeg: ignored })).min(1),
  isPartOfInternationalTrip: z.boolean().optional(),
  returnSearchParameters: ignored,
});
export type TripSpecification = z.infer<typeof TripSpecification>;

export const CardReference = z.strictObject({
  type: z.enum(['REDUCTION_CARD', 'LOYALTY_CARD', 'TRAVEL_PASS', 'MULTI_RIDE']),
  code: z.string().min(1),
  number: z.string().min(1).optional(),
  issuer: z.string().optional(),
});
export type CardReference = z.infer<typeof CardReference>;

export const AnonymousPassengerSpecification = z.strictObject({
  externalRef: z.string().min(1),
  type: z.literal('PERSON'), // spec §2.2
  age: z.number().int().min(0).max(130).optional(),
  dateOfBirth: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD')
    .optional(),
  cards: z.array(CardReference).default([]),
  prmNeeds: z.array(z.string()).optional(),
  gender: ignored,
  residency: ignored,
});
export type AnonymousPassengerSpecification = z.infer<typeof AnonymousPassengerSpecification>;

/**
 * A passenger as an offer request may send it: spec §2.2's table names the age `Age`, OSDM `age`. Both are taken
 * (CONTRACT §4: a field the spec lists is accepted where it lists it); read, it is `age`.
 */
const AnonymousPassengerRequest = AnonymousPassengerSpecification.extend({ Age: z.number().int().min(0).max(130).optional() })
  .refine((p) => p.Age === undefined || p.age === undefined || p.Age === p.age, { message: 'Age and age differ: give one', path: ['Age'] })
  .transform(asOsdmAge);

/** The passenger with the spec's `Age` written as OSDM's `age`, for reading it and for echoing it as sent. */
export function asOsdmAge<P extends { Age?: unknown; age?: unknown }>({ Age, ...p }: P): Omit<P, 'Age'> {
  return Age === undefined || p.age !== undefined ? p : { ...p, age: Age };
}

export const OfferSearchCriteria = z.strictObject({
  currency: Currency.optional(), // spec §1.6
  flexibilities: z.array(z.enum(['NON_FLEXIBLE', 'FULL_FLEXIBLE', 'SEMI_FLEXIBLE'])).optional(),
  travelClasses: z.array(z.enum([...TravelClass.options, 'ANY_CLASS'])).optional(),
  productTags: z.array(z.string()).optional(),
  offerMode: z.enum(['INDIVIDUAL', 'COLLECTIVE']).optional(),
  requestedOfferParts: ignored,
  serviceClassTypes: ignored,
});

export const CorporateCode = z.strictObject({ code: z.string().min(1), beneficiary: z.string().optional(), issuer: z.string().optional() });
export const PromotionCode = z.strictObject({ code: z.string().min(1), issuer: z.string().optional() });

export const OfferCollectionRequest = z.strictObject({
  // Spec §2.2 lists it though OSDM 3.4 does not: resellers copy the operator's document (CONTRACT §4, §4c).
  objectType: z.literal('OfferCollectionRequest').optional().describe("The operator's document lists it (spec §2.2); OSDM 3.4 does not."),
  tripSpecifications: z.array(TripSpecification).optional(),
  offerSearchCriteria: OfferSearchCriteria.optional(),
  anonymousPassengerSpecifications: z.array(AnonymousPassengerRequest).min(1),
  corporateCodes: z.array(CorporateCode).default([]),
  promotionCodes: z.array(PromotionCode).default([]),
  nonTripSearchCriteria: z
    .strictObject({ validFrom: DateTimeWithOffset.optional(), places: z.array(StopPlaceRef).optional(), nutsCodes: ignored, zones: ignored })
    .optional(),
  embed: z.array(z.string()).optional(),
  tripIds: ignored,
  tripSearchCriteria: ignored,
  requestedSections: ignored,
  requestedFulfillmentOptions: ignored,
});
export type OfferCollectionRequest = z.infer<typeof OfferCollectionRequest>;
