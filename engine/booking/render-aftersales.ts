import { fulfillmentSummary } from './fulfillment-summary.ts';
import type {
  AftersalesOfferRecord,
  Booking,
  CoversTickets,
  ExchangeOperation,
  Money,
  OnHoldOffer,
  RefundOffer,
  ReleaseOffer,
  StoredOffer,
} from '../model/records.ts';
import { renderOffer } from '../offers/render.ts';
import { renderTrip } from '../model/osdm/trip.ts';
import type { RuleSet } from '../rules/ruleset.ts';
import type { Language } from '../rules/schemas.ts';
import type { z } from 'zod';
import type * as R from '../model/osdm/aftersales-response.ts';
import { isConfirmedOffer } from '../state/aftersales-state.ts';

/** OSDM 3.4 RefundOffer, ReleaseOffer and OnHoldOffer rendered from the booking's records. */
/** The fields every refund and release offer shows. */
function offerHeader(booking: Booking, o: AftersalesOfferRecord & CoversTickets) {
  return {
    id: o.id,
    createdOn: o.createdOn,
    validFrom: o.createdOn,
    validUntil: o.validUntil,
    status: isConfirmedOffer(o.state) ? ('CONFIRMED' as const) : ('PROPOSED' as const),
    ...(o.confirmedOn ? { confirmedOn: o.confirmedOn } : {}),
    // An offer covers fulfillments of its own booking (refund.ts, release.ts).
    fulfillments: fulfillmentsOf(booking, o.fulfillmentIds),
  };
}

const fulfillmentsOf = (booking: Booking, ids: readonly string[]) =>
  ids.map((id) =>
    fulfillmentSummary(
      booking,
      booking.fulfillments.find((f) => f.id === id)!,
    ),
  );

const zero = (m: Money): Money => ({ ...m, amount: 0, ...(m.vats ? { vats: m.vats.map((v) => ({ ...v, amount: 0 })) } : {}) });

/**
 * `refundableAmount` reads "what this offer still refunds", on the offer and on each breakdown item alike: the
 * amount while proposed, 0 once confirmed (spec §3: "refundableAmount becomes 0"). What was paid back stays on
 * the booking and its parts as `refundAmount` (spec §2.6 rule 10).
 */
export function renderRefundOffer(booking: Booking, o: RefundOffer): z.infer<typeof R.RefundOffer> {
  const refundable = (m: Money) => (isConfirmedOffer(o.state) ? zero(m) : m);
  return {
    ...offerHeader(booking, o),
    refundFee: o.refundFee,
    refundableAmount: refundable(o.refundableAmount),
    ...(o.overruleCode ? { appliedOverruleCode: o.overruleCode } : {}),
    reimbursementStatus: 'IMMEDIATE' as const,
    refundOfferBreakdown: o.parts.map((p) => ({
      refundFee: { ...o.refundFee, amount: 0 },
      refundableAmount: refundable(p.refundAmount),
      bookingParts: [{ id: p.partId }],
    })),
  };
}

export function renderReleaseOffer(booking: Booking, o: ReleaseOffer): z.infer<typeof R.ReleaseOffer> {
  return {
    ...offerHeader(booking, o),
    appliedOverruleCode: o.overruleCode,
  };
}

/** OSDM ExchangeOffer: the new journey's offer, the fee of rules/exchange-guards.yaml, its full price (spec §4.1 rule 7), and the fulfillments it replaces. */
export function renderExchangeOffer(rules: RuleSet, booking: Booking, offer: StoredOffer, language: Language): z.infer<typeof R.ExchangeOffer> {
  return {
    ...renderOffer(rules, offer, language),
    exchangeFee: { currency: offer.minimalPrice.currency, amount: offer.exchange?.fee ?? 0, scale: offer.minimalPrice.scale },
    exchangePrice: offer.minimalPrice,
    fulfillments: fulfillmentsOf(booking, offer.exchange?.fulfillmentIds ?? []),
  };
}

export function renderExchangeOperation(rules: RuleSet, booking: Booking, o: ExchangeOperation, language: Language): z.infer<typeof R.ExchangeOperation> {
  const newParts = new Set([...o.admissions, ...o.reservations, ...o.ancillaries].map((p) => p.id));
  return {
    id: o.id,
    status: o.state === 'FULFILLED' ? 'FULFILLED' : o.state === 'PREBOOKED' ? 'PREBOOKED' : 'ERROR',
    ticketTimeLimit: o.validUntil,
    exchangeOffers: o.offer ? [renderExchangeOffer(rules, booking, o.offer, language)] : [],
    // The new trip's fulfillments, once the operation is confirmed.
    fulfillments: booking.fulfillments.filter((f) => f.bookingPartIds.some((id) => newParts.has(id))).map((f) => fulfillmentSummary(booking, f)),
    trips: [renderTrip(rules, o.trip, language)],
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
