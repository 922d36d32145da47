import { z } from 'zod';

/**
 * The request bodies of the Customer API (spec §4.3): one string field each, "required, not null, not empty".
 * Surrounding blanks are dropped, so a blank field counts as empty. Any other field → 86001 naming it.
 */
const requiredText = z
  .string({ error: (issue) => (issue.input === undefined ? 'required' : issue.input === null ? 'must not be null' : 'must be a string') })
  .trim()
  .min(1, 'must not be empty');

export const EmailLookupRequest = z.strictObject({ email: requiredText });
export const MemberNumberLookupRequest = z.strictObject({ memberNumber: requiredText });
export const IdentityNumberLookupRequest = z.strictObject({ ssn: requiredText });
export const ContractLookupRequest = z.strictObject({ contractNumber: requiredText });
