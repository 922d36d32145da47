import { z } from 'zod';
import { Offer } from './offer-response.ts';
import { FulfillmentSummary, Instant, Price, Ref } from './shapes.ts';
import { Trip } from './trip.ts';

/**
 * The aftersales answers (spec §3, §4.1 rules 5–12; CONTRACT §6) as engine/booking/render-aftersales.ts and
 * engine/index.ts render them, in OSDM 3.4 names: refund, release and on-hold offers, exchange offers and
 * exchange operations. Cleanup answers 202 with no body.
 */

/** The fields every refund and release offer shows (engine/booking/render-aftersales.ts `offerHeader`). */
const offerHeader = {
  id: z.string(),
  createdOn: Instant,
  validFrom: Instant,
  validUntil: Instant,
  status: z.enum(['PROPOSED', 'CONFIRMED']),
  confirmedOn: Instant.optional(),
  /** The fulfillments the offer covers, as they are now. */
  fulfillments: z.array(FulfillmentSummary),
};

/** OSDM RefundOffer (spec §4.1 rule 6); refunds are paid at once (`reimbursementStatus` IMMEDIATE). */
export const RefundOffer = z.strictObject({
  ...offerHeader,
  refundFee: Price,
  refundableAmount: Price.describe(
    "What the offer still refunds: 0 once the refund is confirmed (spec §3), as each breakdown item; the booking's and its parts' refundAmount keep what was paid back (spec §2.6 rule 10).",
  ),
  appliedOverruleCode: z.string().optional(),
  reimbursementStatus: z.literal('IMMEDIATE'),
  refundOfferBreakdown: z.array(z.strictObject({ refundFee: Price, refundableAmount: Price, bookingParts: z.array(Ref) })),
});

/** OSDM ReleaseOffer (spec §4.1 rule 5): the overrule code is required to make one, so it is always shown. */
export const ReleaseOffer = z.strictObject({
  ...offerHeader,
  appliedOverruleCode: z.string(),
});

/** OSDM OnHoldOffer (spec §4.1 rule 11): free, no deposit. */
export const OnHoldOffer = z.strictObject({
  id: z.string(),
  summary: z.string(),
  createdOn: Instant,
  validFrom: Instant,
  validUntil: Instant,
  onHoldFee: z.strictObject({ id: z.string(), price: Price }),
  deposit: Price,
  increasedTTL: z.string().describe('ISO 8601 duration'),
  confirmedOn: Instant.optional(),
});

/** OSDM ExchangeOffer: an Offer with its fee (none, spec §4.1 rule 7), its price (the new journey's) and the fulfillments it replaces. */
export const ExchangeOffer = Offer.extend({
  exchangeFee: Price,
  exchangePrice: Price,
  fulfillments: z.array(FulfillmentSummary),
});

/**
 * OSDM ExchangeOperation (spec §4.1 rule 7): the exchange offer it books, the new trip, and once confirmed the
 * new trip's fulfillments. `status` FULFILLED says it was confirmed.
 */
export const ExchangeOperation = z.strictObject({
  id: z.string(),
  status: z.enum(['PREBOOKED', 'FULFILLED', 'ERROR']),
  ticketTimeLimit: Instant,
  exchangeOffers: z.array(ExchangeOffer),
  fulfillments: z.array(FulfillmentSummary),
  trips: z.array(Trip),
});

export const RefundOfferCollectionResponse = z.strictObject({ refundOffers: z.array(RefundOffer) });
export const RefundOfferResponse = z.strictObject({ refundOffer: RefundOffer });
export const ReleaseOfferCollectionResponse = z.strictObject({ releaseOffers: z.array(ReleaseOffer) });
export const ReleaseOfferResponse = z.strictObject({ releaseOffer: ReleaseOffer });
export const OnHoldOfferResponse = z.strictObject({ onHoldOffer: OnHoldOffer });
export const ExchangeOfferCollectionResponse = z.strictObject({ exchangeOffers: z.array(ExchangeOffer) });
export const ExchangeOperationResponse = z.strictObject({ exchangeOperation: ExchangeOperation });
