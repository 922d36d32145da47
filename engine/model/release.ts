import { z } from 'zod';
import { DATE_TIME_WITH_OFFSET, isRealInstant } from '../rules/time.ts';

/** An instant with its offset (CONTRACT §4): the same instant may be written with any offset. */
const InstantWithOffset = z
  .string()
  .regex(DATE_TIME_WITH_OFFSET, 'an ISO 8601 date-time with offset, e.g. 2026-12-13T00:00+01:00')
  // Said once: a text of another form is not also "not a real instant".
  .refine((text) => !DATE_TIME_WITH_OFFSET.test(text) || isRealInstant(text), 'not a real instant (a day the month has, hours and offset in range)');

/**
 * A rule release as the store keeps it (docs/releases.md): an immutable, named rule set — the text of every rule file,
 * by file name — in force from `effectiveFrom` until the next release's instant. Who made it, when and why travel with it.
 */
export const RuleRelease = z.strictObject({
  /** Named in answers (the Rules-Release header), traces and stored offers and bookings: a word, no spaces. */
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'letters, digits, ".", "_" or "-", starting with a letter or digit, at most 64 characters'),
  effectiveFrom: InstantWithOffset,
  createdOn: InstantWithOffset,
  createdBy: z.string().min(1),
  reason: z.string().optional(),
  /** Who approved it, when it went through four eyes (a studio draft): never its author. */
  approvedBy: z.string().min(1).optional(),
  /** The draft it was approved from, which keeps the evidence its reviewer saw. */
  draft: z.string().min(1).optional(),
  /** Every rule file's text by its file name (`tariff.yaml`), as `rules/` held it when the release was made. */
  files: z.record(z.string().regex(/^[^/\\]+\.ya?ml$/, 'a rule file name such as tariff.yaml'), z.string()),
});
export type RuleRelease = z.infer<typeof RuleRelease>;
