import type { AftersalesOfferRecord, Booking, CoversTickets, ExchangeOperation, OnHoldOffer, RefundOffer, ReleaseOffer } from '../model.ts';
import type { RuleSet } from '../rules/ruleset.ts';
import type { Language } from '../rules/schemas.ts';
import type { z } from 'zod';
import type * as R from './response.ts';

/** OSDM 3.4 RefundOffer, ReleaseOffer and OnHoldOffer rendered from the booking's records. */
/** The fields every refund and release offer shows. */
function offerHeader(booking: Booking, o: AftersalesOfferRecord & CoversTickets) {
  return {
    id: o.id,
    createdOn: o.createdOn,
    validFrom: o.createdOn,
    validUntil: o.validUntil,
    status: o.state === 'CONFIRMED' ? 'CONFIRMED' as const : 'PROPOSED' as const,
    ...(o.confirmedOn ? { confirmedOn: o.confirmedOn } : {}),
    // An offer covers fulfillments of its own booking (refund.ts, release.ts).
    fulfillments: o.fulfillmentIds.map((id) => ({ id, status: booking.fulfillments.find((f) => f.id === id)!.status })),
  };
}

export function renderRefundOffer(booking: Booking, o: RefundOffer): z.infer<typeof R.RefundOffer> {
  const zero = { ...o.refundableAmount, amount: 0, ...(o.refundableAmount.vats ? { vats: o.refundableAmount.vats.map((v) => ({ ...v, amount: 0 })) } : {}) };
  return {
    ...offerHeader(booking, o),
    refundFee: o.refundFee,
    // Spec §3: once the refund is confirmed, nothing more is refundable by this offer.
    refundableAmount: o.state === 'CONFIRMED' ? zero : o.refundableAmount,
    ...(o.overruleCode ? { appliedOverruleCode: o.overruleCode } : {}),
    reimbursementStatus: 'IMMEDIATE' as const,
    refundOfferBreakdown: o.parts.map((p) => ({ refundFee: { ...o.refundFee, amount: 0 }, refundableAmount: p.refundAmount, bookingParts: [{ id: p.partId }] })),
  };
}

export function renderReleaseOffer(booking: Booking, o: ReleaseOffer): z.infer<typeof R.ReleaseOffer> {
  return {
    ...offerHeader(booking, o),
    appliedOverruleCode: o.overruleCode,
  };
}

export function renderExchangeOperation(booking: Booking, o: ExchangeOperation): z.infer<typeof R.ExchangeOperation> {
  const newParts = new Set([...o.admissions, ...o.reservations, ...o.ancillaries].map((p) => p.id));
  return {
    id: o.id,
    status: o.state === 'FULFILLED' ? 'FULFILLED' : o.state === 'PREBOOKED' ? 'PREBOOKED' : 'ERROR',
    ticketTimeLimit: o.validUntil,
    exchangeOffers: [{ offerId: o.exchangeOfferId, exchangePrice: o.exchangePrice, exchangeFee: { ...o.exchangePrice, amount: o.exchangeFee ?? 0, vats: undefined } }],
    // The new trip's parts, pre-booked until the operation is confirmed.
    bookingParts: [...o.admissions, ...o.reservations, ...o.ancillaries].map((p) => ({ id: p.id, status: p.status })),
    fulfillments: booking.fulfillments.filter((f) => f.bookingPartIds.some((id) => newParts.has(id))).map((f) => ({ id: f.id, status: f.status })),
    ...(o.confirmedOn ? { confirmedOn: o.confirmedOn } : {}),
  };
}

export function renderOnHoldOffer(rules: RuleSet, booking: Booking, o: OnHoldOffer, language: Language): z.infer<typeof R.OnHoldOffer> {
  const free = { currency: booking.currency, amount: 0, scale: 2 };
  return {
    id: o.id,
    summary: rules.warnings['X_ON_HOLD_SUMMARY']?.detail[language] ?? '',
    createdOn: o.createdOn,
    validFrom: o.createdOn,
    validUntil: o.validUntil,
    onHoldFee: { id: `${o.id}-fee`, price: free },
    deposit: free,
    increasedTTL: o.increasedTTL,
    ...(o.confirmedOn ? { confirmedOn: o.confirmedOn } : {}),
  };
}
