import { z } from 'zod';

/** Bodies of the aftersales calls (OSDM 3.4; spec §4.1 rules 5, 6, 11, 12). */
const ignored = z.unknown().optional();

export const RefundOfferRequest = z.strictObject({
  fulfillmentIds: z.array(z.string().min(1)).min(1),
  overruleCode: z.string().optional(),
  refundSpecifications: ignored,
  refundDate: ignored,
});

export const ReleaseOfferRequest = z.strictObject({
  fulfillmentIds: z.array(z.string().min(1)).min(1),
  overruleCode: z.string().optional(),
  releaseSpecifications: ignored,
});

/** Spec §4.1 rule 11: increaseTTL is ignored (the rules decide the new time limit). */
export const OnHoldOfferRequest = z.strictObject({ increaseTTL: z.number().optional() });
/** PATCH …/on-hold-offer/{id}: OSDM OnHoldOfferPatchRequest, an empty object (CONTRACT §6); read only to refuse anything else. */
export const OnHoldOfferPatchRequest = z.strictObject({}).describe('An empty object (CONTRACT §6).');

export const OfferConfirmation = z.strictObject({ status: z.literal('CONFIRMED', { error: 'send {"status":"CONFIRMED"}' }) });

export const CleanupRequest = z.strictObject({ overruleCode: z.string().optional(), refundDate: ignored });
