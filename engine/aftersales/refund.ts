import { decide, enforce, type Context } from '../model/context.ts';
import { move } from '../state/booking-state.ts';
import { can } from '../state/machine.ts';
import { bookingMachine } from '../../machines/booking.ts';
import type { Booking, Money, RefundOffer } from '../model/records.ts';
import { familyDiscounted } from '../offers/family-discount.ts';
import { typePassenger } from '../offers/passengers.ts';
import { sum, withVat } from '../offers/pricing.ts';
import { overruleFact } from '../rules/facts.ts';
import type { OutcomeOf } from '../rules/outcomes.ts';
import { parseRequest } from '../rules/validate.ts';
import { phrase } from '../rules/violation.ts';
import { assertNoOtherOperation, confirmOffer, deleteOffer, newOffer } from './offers.ts';
import { OfferConfirmation, RefundOfferRequest } from '../model/osdm/aftersales-requests.ts';
import { assertStillLive, selectTickets, withStatus, type Ticket } from './tickets.ts';

/**
 * Refund (spec §3, §4.1 rule 6, §2.6 rule 10). Creating a refund offer changes the booking (only one at a
 * time); rules/refund-guards.yaml says what a refund may not split or leave behind, rules/refund-fees.yaml
 * what it pays back. Confirming cancels the parts, refunds the fulfillments and keeps the offer.
 */
export function createRefundOffer(ctx: Context, booking: Booking, body: unknown): Booking {
  const request = parseRequest(RefundOfferRequest, body);
  const moved = move(ctx, booking, { type: 'OFFER_REFUND' }, phrase('operation-a-refund'));
  assertNoOtherOperation(ctx, booking);
  const { tickets, partIds, released } = selectTickets(booking, request.fulfillmentIds, 'REFUND');
  const overruleCode = overruleFact(request.overruleCode);
  enforce(ctx, 'refundGuard', { ...whatRemains(ctx, booking, tickets, request.fulfillmentIds), released, overruleCode }, '#/fulfillmentIds');
  return {
    ...moved,
    refundOffers: [...(booking.refundOffers ?? []), priceRefund(ctx, booking, tickets, partIds, request.fulfillmentIds, overruleCode, request.overruleCode)],
  };
}

export function priceRefund(
  ctx: Context,
  booking: Booking,
  tickets: Ticket[],
  partIds: Set<string>,
  fulfillmentIds: string[],
  overruleCode: ReturnType<typeof overruleFact>,
  givenCode: string | undefined,
  cleanup?: OutcomeOf<'cleanup'>,
): RefundOffer {
  const { rules } = ctx;
  const international = booking.trip.international;
  const money = (amount: number): Money => withVat(rules, { currency: booking.currency, amount, scale: 2 }, international);
  const parts: RefundOffer['parts'] = [];
  let fees = 0;
  for (const ticket of tickets) {
    const terms = cleanup ??
      decide(ctx, 'refundFee', {
        salesApplication: booking.salesApplication,
        flexibility: booking.product.flexibility,
        overruleCode,
        afterSalesOverride: booking.afterSalesOverride === true,
      }).outcome ?? { refundPercent: 0, fee: 0 };
    const amounts = ticket.parts.filter((p) => partIds.has(p.id)).map((p) => ({ p, amount: Math.round((p.price.amount * terms.refundPercent) / 100) }));
    // The fee is kept from what the ticket pays back, never more than that (spec §4.1 rule 6).
    let fee = Math.min(
      terms.fee,
      amounts.reduce((n, a) => n + a.amount, 0),
    );
    fees += fee;
    for (const { p, amount } of amounts) {
      const kept = Math.min(fee, amount);
      fee -= kept;
      parts.push({ partId: p.id, refundAmount: money(amount - kept) });
    }
  }
  const offer = newOffer(ctx);
  return {
    ...offer,
    fulfillmentIds,
    bookingPartIds: [...partIds],
    ...(givenCode ? { overruleCode: givenCode } : {}),
    refundableAmount: sum(
      rules,
      parts.map((p) => p.refundAmount),
      booking.currency,
      international,
    ),
    refundFee: money(fees),
    parts,
    ...(cleanup ? { cleanup: true } : {}),
  };
}

export function confirmRefundOffer(ctx: Context, booking: Booking, offerId: string, body: unknown): Booking {
  parseRequest(OfferConfirmation, body);
  const confirming = confirmOffer(ctx, booking.refundOffers, offerId, phrase('resource-refund-offer'));
  if (!confirming) return booking;
  assertStillLive(booking, confirming.offer.fulfillmentIds, 'REFUND');
  return applyRefund(ctx, booking, confirming.confirmed);
}

/** Spec §3: parts CANCELLED with their refundAmount, fulfillments REFUNDED, the offer CONFIRMED and kept. */
export function applyRefund(ctx: Context, booking: Booking, offer: RefundOffer): Booking {
  const amounts = new Map(offer.parts.map((p) => [p.partId, p.refundAmount]));
  let next = withStatus(booking, new Set(offer.bookingPartIds), 'REFUND', 'REFUND', (id) => ({ refundAmount: amounts.get(id) }));
  next = { ...next, refundOffers: [...(booking.refundOffers ?? []).filter((o) => o.id !== offer.id), offer] };
  // Nothing left to travel on: the booking is cancelled as a whole (machines/booking.ts CANCEL_ALL).
  if (can(bookingMachine, next.machine.value, { type: 'CANCEL_ALL' }) && next.admissions.every((a) => a.status === 'CANCELLED'))
    next = move(ctx, next, { type: 'CANCEL_ALL' }, phrase('operation-cancelling'));
  return next;
}

export function deleteRefundOffer(ctx: Context, booking: Booking, offerId: string): Booking {
  deleteOffer(ctx, booking.refundOffers, offerId, phrase('resource-refund-offer'));
  return { ...booking, refundOffers: (booking.refundOffers ?? []).filter((o) => o.id !== offerId) };
}

/** The facts of refund-guards.yaml about who would still travel, and whether whole tickets are listed. */
export function whatRemains(ctx: Context, booking: Booking, tickets: Ticket[], fulfillmentIds: string[]) {
  const listed = new Set(fulfillmentIds);
  const active = (s: string) => s === 'FULFILLED' || s === 'RELEASED';
  const coversWholeTickets = tickets.every((t) => t.fulfillments.filter((f) => active(f.status)).every((f) => listed.has(f.id)));
  const leaving = new Set(tickets.flatMap((t) => t.passengerIds));
  const travelling = booking.passengers.filter((p) => booking.admissions.some((a) => a.passengerIds.includes(p.id) && active(a.status)));
  const remaining = travelling.filter((p) => !leaving.has(p.id));
  const departure = booking.trip.legs[0]?.departure ?? booking.createdOn;
  const typed = (list: typeof travelling) =>
    list.map((p, i) => typePassenger(ctx, { externalRef: p.externalRef, type: 'PERSON', age: p.pricing.age, cards: p.pricing.cards }, i, departure));
  const travelClass = ctx.rules.products.products[booking.product.code]?.travelClass ?? 'SECOND';
  const before = familyDiscounted(ctx, typed(travelling), travelClass);
  const after = familyDiscounted(ctx, typed(remaining), travelClass);
  return {
    coversWholeTickets,
    splitsThroughFare: !coversWholeTickets && booking.trip.legs.length > 1,
    remainingPassengers: remaining.length,
    oldestRemainingAge: Math.max(0, ...remaining.map((p) => p.pricing.age)),
    euroNight: booking.trip.legs.some((l) => ctx.rules.products.productCategories[l.category]?.euroNight === true),
    ungrantedDiscountedChildren: remaining.filter((p) => before.has(p.externalRef) && !after.has(p.externalRef)).length,
  };
}
