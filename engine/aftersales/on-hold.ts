import { decide, type Context } from '../model/context.ts';
import { isStoredExpired, move, PROVISIONAL_STATES } from '../state/booking-state.ts';
import type { Booking } from '../model/records.ts';
import { plus } from '../rules/time.ts';
import { parseRequest } from '../rules/validate.ts';
import { phrase, violation } from '../rules/violation.ts';
import { confirmOffer, deleteOffer, isLive, newOffer } from './offers.ts';
import { OnHoldOfferRequest } from '../model/osdm/aftersales-requests.ts';
import { withStatus } from './tickets.ts';

/**
 * On-hold (spec §3 rule 3, §4.1 rule 11): an offer to extend a provisional booking's time limit, by the
 * arithmetic of rules/on-hold.yaml. Only confirming it moves the time limit; the booking does not show it.
 */
export function createOnHoldOffer(ctx: Context, booking: Booking, body: unknown): { booking: Booking; offerId: string } {
  parseRequest(OnHoldOfferRequest, body);
  const moved = move(ctx, booking, { type: 'OFFER_ON_HOLD' }, phrase('operation-on-hold'));
  const contactOf = (d?: { email?: string; phoneNumber?: string }) => !!(d?.email && d.phoneNumber);
  const state = booking.machine.value;
  const { outcome } = decide(ctx, 'onHold', {
    channelAllowsOnHold: ctx.salesApplication.permissions.onHold,
    bookingState: PROVISIONAL_STATES.has(state) ? 'PREBOOKED' : isStoredExpired(state) ? 'EXPIRED' : 'FULFILLED',
    passPurchase: booking.pass !== undefined,
    activeOnHoldOffer: isLive(ctx, booking.onHoldOffer),
    alreadyOnHold: booking.onHoldUsed === true,
    contactComplete: contactOf(booking.purchaser?.detail) || booking.passengers.every((p) => contactOf(p.detail)),
    now: ctx.now.toISOString(),
    departure: booking.trip.legs[0]?.departure ?? ctx.now.toISOString(),
    provisionalTimeLimit: plus(booking.createdOn, ctx.rules.limits.provisionalBookingLifetime).toISOString(),
  });
  if (!outcome || outcome.reject !== undefined) {
    throw violation(
      outcome?.reject ?? 'X_ON_HOLD_NOT_ALLOWED',
      { salesApplication: ctx.salesApplication.code, ...outcome?.params },
      outcome?.pointer ? `#${outcome.pointer}` : undefined,
      ctx.traces,
    );
  }
  // The offer can be confirmed until it expires, and never after the booking's own time limit.
  const offer = { ...newOffer(ctx, booking.confirmationTimeLimit), increasedTTL: outcome.confirmationTimeLimit };
  return { booking: { ...moved, onHoldOffer: offer }, offerId: offer.id };
}

export function confirmOnHoldOffer(ctx: Context, booking: Booking, offerId: string): Booking {
  const confirming = confirmOffer(ctx, booking.onHoldOffer ? [booking.onHoldOffer] : [], offerId, phrase('resource-on-hold-offer'));
  if (!confirming) return booking;
  const { offer, confirmed } = confirming;
  const moved = move(ctx, booking, { type: 'PUT_ON_HOLD' }, phrase('operation-on-hold'));
  const parts = new Set([...booking.admissions, ...booking.reservations, ...booking.ancillaries].map((p) => p.id));
  return { ...withStatus(moved, parts, 'PUT_ON_HOLD'), onHoldOffer: confirmed, onHoldUsed: true, confirmationTimeLimit: offer.increasedTTL };
}

export function deleteOnHoldOffer(ctx: Context, booking: Booking, offerId: string): Booking {
  deleteOffer(ctx, booking.onHoldOffer ? [booking.onHoldOffer] : [], offerId, phrase('resource-on-hold-offer'));
  const { onHoldOffer: _removed, ...rest } = booking;
  return rest;
}
