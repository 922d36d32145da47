import { z } from 'zod';
import { DATE_TIME_WITH_OFFSET } from './time.ts';
import { InternalPassengerType } from './facts.ts';
import type { DecisionName } from './facts.ts';
import { LocalizedText } from './schemas.ts';

/**
 * The outcome catalogue: for every decision, what a row's `then` may say, declared as the facts are
 * (facts.ts). `check` validates every row against it at load, so `fee: "25 kr"` or a misspelt key is a
 * `file:line:col` problem instead of a wrong answer. A decision that may refuse also accepts reject rows:
 * `{ reject: code, pointer?, params? }`, whose code and parameters are checked against errors.yaml.
 */

/** A refusal: a code of errors.yaml, the request field at fault, and what its texts need. */
export const RejectOutcome = z.strictObject({
  reject: z.string(),
  pointer: z.string().regex(/^\//, 'a JSON pointer into the request, such as /fulfillmentIds').optional(),
  params: z.record(z.string(), z.unknown()).optional(),
});
export type RejectOutcome = z.infer<typeof RejectOutcome>;

const instant = z.string().regex(DATE_TIME_WITH_OFFSET, 'an ISO 8601 date-time with offset, or a date expression');
const percent = z.number().min(0).max(100);
/** Money in minor units of the booking's currency (öre, cents). */
const minorUnits = z.number().int().nonnegative();
const accept = z.strictObject({ accept: z.literal(true) });
const allow = z.strictObject({ allow: z.literal(true) });
const refundTerms = z.strictObject({ refundPercent: percent, fee: minorUnits });

interface OutcomeEntry<S extends z.ZodObject = z.ZodObject, R extends boolean = boolean> {
  /** What a row that does not refuse says. */
  readonly outcome: S;
  /** Whether rows may refuse with `reject`. */
  readonly rejects: R;
}
function entry<S extends z.ZodObject>(outcome: S): OutcomeEntry<S, false>;
function entry<S extends z.ZodObject>(outcome: S, rejects: true): OutcomeEntry<S, true>;
function entry<S extends z.ZodObject>(outcome: S, rejects = false): OutcomeEntry<S> {
  return { outcome, rejects };
}

export const outcomeCatalogue = {
  passengerType: entry(
    z.strictObject({
      internalType: InternalPassengerType,
      responseType: z.enum(['CHILD', 'YOUTH', 'PERSON', 'SENIOR']),
      description: LocalizedText,
    }),
  ),
  fareFactor: entry(z.strictObject({ factor: z.number().min(0).max(1) })),
  familyDiscountRole: entry(z.strictObject({ role: z.enum(['grantor', 'child', 'none']), grants: z.number().int().positive().optional() })),
  offerRequestLimits: entry(accept, true),
  ancillaryPriceFactor: entry(z.strictObject({ factor: z.number().min(0).max(1) })),
  ancillaryGroups: entry(
    z.strictObject({
      group: z.string().regex(/^[A-Z0-9_]+$/),
      min: z.number().int().nonnegative(),
      items: z.array(z.string()).min(1),
      default: z.string().optional(),
      included: z.boolean().optional(),
    }),
  ),
  travelPassCoverage: entry(z.strictObject({ covers: z.boolean() })),
  nightGender: entry(accept, true),
  productAvailability: entry(z.strictObject({ offered: z.boolean() })),
  refundGuard: entry(allow, true),
  releaseGuard: entry(allow, true),
  refundFee: entry(refundTerms),
  exchangeGuard: entry(z.strictObject({ allow: z.literal(true), exchangeFee: minorUnits }), true),
  onHold: entry(z.strictObject({ confirmationTimeLimit: instant }), true),
  cleanup: entry(refundTerms, true),
  reservationPrice: entry(z.strictObject({ price: minorUnits })),
  privateGroup: entry(z.strictObject({ oneCompartment: z.boolean() })),
} as const satisfies Record<DecisionName, OutcomeEntry>;

/** What a decision's row says when it does not refuse. */
export type OutcomeOf<D extends DecisionName> = z.infer<(typeof outcomeCatalogue)[D]['outcome']>;

/** What a decision's row says: for a decision that may refuse, either what it accepts with or its refusal. */
export type DecidedOf<D extends DecisionName> = (typeof outcomeCatalogue)[D]['rejects'] extends true
  ? (OutcomeOf<D> & { reject?: undefined }) | RejectOutcome
  : OutcomeOf<D>;
