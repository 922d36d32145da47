import { z } from 'zod';

/**
 * The Customer API's answers (spec §2.12, §4.3; CONTRACT §7): the record itself, not wrapped. Not OSDM: the
 * operator's own shapes, in the spec's field names. engine/customers/lookup.ts renders them.
 */

/** Spec §2.12 travel pass entry; `description` in the caller's language. */
export const TravelPass = z.strictObject({
  cardNumber: z.string(),
  cardType: z.string(),
  description: z.string().describe('In the language of Accept-Language.'),
  validFrom: z.string().describe('YYYY-MM-DD'),
  validTo: z.string().describe('YYYY-MM-DD'),
  ridesLeft: z.number().int().nonnegative().optional().describe('A multi-ride pass: the rides it has left, its confirmed journeys counted.'),
});

/** Spec §2.12 Customer. */
export const CustomerRecord = z.strictObject({
  firstName: z.string(),
  lastName: z.string(),
  memberNumber: z.string().optional(),
  level: z.string().optional(),
  email: z.string(),
  phoneNumber: z.string(),
  travelPasses: z.array(TravelPass).optional(),
});

/** Spec §2.12 Contract: `department` may be null; `active` is not part of the record. */
export const ContractRecord = z.strictObject({
  organizationName: z.string(),
  department: z.string().nullable(),
  contractNumber: z.string(),
  organizationNumber: z.string(),
});
