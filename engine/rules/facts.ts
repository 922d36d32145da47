import { z } from 'zod';
import { DATE_TIME_WITH_OFFSET } from './time.ts';

/**
 * The fact catalogue: for every decision, the facts its rows may test and their types.
 * A row naming a fact not listed here, or comparing it with a value of another type, is refused at load.
 * The code that evaluates a decision builds exactly these facts (engine/model/context.ts `decide`).
 * A fact called `productCategory` names a category of rules/products.yaml (checked when the rule set is compiled).
 */
export const InternalPassengerType = z.enum(['CHILD_0_6', 'CHILD_7_15', 'YOUTH_16_19', 'YOUTH_20_25', 'ADULT', 'STUDENT', 'SENIOR']);
export type InternalPassengerType = z.infer<typeof InternalPassengerType>;

/** The reduction card that takes part in passenger typing (spec §2.9); NONE when the passenger has neither. */
export const TypingCard = z.enum(['NONE', 'SWE_STUDENT', 'SWE_PENSIONER']);

/** Marks instant facts: rows compare them with before / after / notBefore / notAfter. */
export const INSTANT = 'instant';
const instant = z.string().regex(DATE_TIME_WITH_OFFSET).describe(INSTANT);
const age = z.number().int().min(0).max(130);
const count = z.number().int().min(0).max(1000);
/** A train's classes: the products of products.yaml are in one of them. */
export const TravelClass = z.enum(['FIRST', 'SECOND']);
export type TravelClass = z.infer<typeof TravelClass>;
const travelClass = TravelClass;
export const AccommodationType = z.enum(['SEAT', 'COUCHETTE', 'BERTH']);
const flexibility = z.enum(['NON_FLEXIBLE', 'FULL_FLEXIBLE']);
/** Spec §4.1 rule 6 names these; OSDM's other overrule codes are accepted as OTHER. */
const OverruleCode = z.enum([
  'NONE',
  'CERTIFIED_MEDICAL_CONDITION',
  'SALES_STAFF_ERROR',
  'TECHNICAL_FAILURE',
  'DISRUPTION',
  'REFUND_BLOCKED_TICKET',
  'EXTERNAL_COMPENSATION',
  'OTHER',
]);
type OverruleCode = z.infer<typeof OverruleCode>;
/** An overrule code as the facts know it: NONE when absent, OTHER for OSDM codes no rule names. */
export const overruleFact = (code: string | undefined): OverruleCode =>
  code === undefined
    ? 'NONE'
    : (OverruleCode.options as readonly string[]).includes(code) && code !== 'NONE' && code !== 'OTHER'
      ? (code as OverruleCode)
      : 'OTHER';
/** Facts with a declared default may be left out of `signalbox explain` and of examples. */
const noOverrule = OverruleCode.default('NONE');
const bookingState = z.enum(['PREBOOKED', 'FULFILLED', 'EXPIRED']);

export const factCatalogue = {
  passengerType: z.object({ age, typingCard: TypingCard.default('NONE') }),
  fareFactor: z.object({ internalType: InternalPassengerType, age, trafficDisturbanceTicket: z.boolean(), familyDiscount: z.boolean() }),
  familyDiscountRole: z.object({ internalType: InternalPassengerType, age, travelClass }),
  offerRequestLimits: z.object({ passengerCount: count, tripCount: count, mostLegsInOneTrip: count }),
  ancillaryPriceFactor: z.object({ trafficDisturbanceTickets: z.enum(['ALL', 'SOME', 'NONE']) }),
  ancillaryGroups: z.object({ touchesAirport: z.boolean(), travelClass, productCategory: z.string() }),
  travelPassCoverage: z.object({
    passKind: z.enum(['annual', 'monthly', 'multiRide']),
    withinValidity: z.boolean(),
    ridesLeft: count,
    stationsMatch: z.boolean(),
    classRelation: z.enum(['SAME', 'PASS_HIGHER', 'PASS_LOWER']),
    categoryRelation: z.enum(['SAME', 'PASS_HIGHER', 'OTHER']),
  }),
  nightGender: z.object({
    /** Booking creation, or a booking patch of a reservation that already has its place (spec §2.10 rule 1). */
    stage: z.enum(['CREATE', 'PATCH']).default('CREATE'),
    compartment: z.enum(['NONE', 'PRIVATE', 'SHARED']),
    accommodationType: AccommodationType,
    genderCount: count,
    gender: z.enum(['NONE', 'MEN', 'LADIES', 'MIXED']),
    /** In a patch: whether a gender is asked for that the reservation was not booked with. */
    genderChanged: z.boolean().default(false),
  }),
  productAvailability: z.object({
    compartment: z.enum(['NONE', 'PRIVATE', 'SHARED']),
    accommodationType: AccommodationType,
    travelClass,
    passengerCount: count,
    /** The product gives each passenger a private compartment alone (products.yaml `compartmentEach`). */
    compartmentEach: z.boolean().default(false),
  }),
  refundGuard: z.object({
    coversWholeTickets: z.boolean(),
    splitsThroughFare: z.boolean(),
    released: z.boolean(),
    overruleCode: noOverrule,
    remainingPassengers: count,
    oldestRemainingAge: age,
    euroNight: z.boolean(),
    ungrantedDiscountedChildren: count,
  }),
  releaseGuard: z.object({ channelAllowsRelease: z.boolean(), overruleCode: noOverrule }),
  refundFee: z.object({ salesApplication: z.string(), flexibility, overruleCode: noOverrule, afterSalesOverride: z.boolean() }),
  exchangeGuard: z.object({
    passPurchase: z.boolean(),
    resplus: z.boolean(),
    personalPass: z.boolean(),
    sameOriginAndDestination: z.boolean(),
    admissionExchangeable: z.boolean(),
    afterSalesOverride: z.boolean(),
    businessNumberMatches: z.boolean(),
    ungrantedDiscountedChildren: count,
  }),
  onHold: z.object({
    channelAllowsOnHold: z.boolean(),
    bookingState,
    passPurchase: z.boolean(),
    activeOnHoldOffer: z.boolean(),
    alreadyOnHold: z.boolean(),
    contactComplete: z.boolean(),
    now: instant,
    departure: instant,
    provisionalTimeLimit: instant,
  }),
  reservationPrice: z.object({ productCategory: z.string(), travelClass, accommodationType: AccommodationType }),
  privateGroup: z.object({ travelClass, accommodationType: AccommodationType, compartmentEach: z.boolean().default(false) }),
  cleanup: z.object({
    bookingState,
    overruleCodeGiven: z.boolean(),
    /** The requested OSDM version as major × 100 + minor: 3.4 → 304, 3.0.4 → 300. */
    osdmVersion: z.number().int().min(0).max(10_000),
    now: instant,
    confirmedOn: instant,
  }),
} as const;

export type DecisionName = keyof typeof factCatalogue;
export type FactsOf<D extends DecisionName> = z.infer<(typeof factCatalogue)[D]>;

/**
 * Spec §2.9: the reduction card that types a passenger, from the card codes given (the first of
 * SWE_STUDENT / SWE_PENSIONER wins). Shared by the offer engine and `signalbox explain`, which accepts
 * `{"age":17,"cards":["SWE_STUDENT"]}` as an analyst would write it.
 */
export function typingCardOf(codes: readonly string[]): z.infer<typeof TypingCard> {
  return codes.find((c): c is 'SWE_STUDENT' | 'SWE_PENSIONER' => c === 'SWE_STUDENT' || c === 'SWE_PENSIONER') ?? 'NONE';
}

/** Facts an analyst may give in the request's words instead of the decision's, per decision. */
export const factAliases: Partial<Record<DecisionName, (input: Record<string, unknown>) => Record<string, unknown>>> = {
  passengerType: ({ cards, ...rest }) =>
    Array.isArray(cards) && !('typingCard' in rest)
      ? { ...rest, typingCard: typingCardOf(cards.map((c) => (typeof c === 'string' ? c : String((c as { code?: unknown }).code)))) }
      : { ...rest, ...(cards !== undefined ? { cards } : {}) },
};
