import { enforce, type Context } from '../model/context.ts';
import { move } from '../state/booking-state.ts';
import type { Booking } from '../model/records.ts';
import { overruleFact } from '../rules/facts.ts';
import { parseRequest } from '../rules/validate.ts';
import { phrase, violation } from '../rules/violation.ts';
import { assertNoOtherOperation, confirmOffer, deleteOffer, newOffer } from './offers.ts';
import { whatRemains } from './refund.ts';
import { OfferConfirmation, ReleaseOfferRequest } from '../model/osdm/aftersales-requests.ts';
import { assertStillLive, selectTickets, withStatus } from './tickets.ts';

/**
 * Release (spec §3 rule 2, §4.1 rule 5): cancels tickets at fulfillment level after a disturbance with a
 * replacement ticket; no money moves, seats are freed. rules/release-guards.yaml decides who may.
 */
export function createReleaseOffer(ctx: Context, booking: Booking, body: unknown): Booking {
  const request = parseRequest(ReleaseOfferRequest, body);
  enforce(ctx, 'releaseGuard', { channelAllowsRelease: ctx.salesApplication.permissions.release, overruleCode: overruleFact(request.overruleCode) });
  const moved = move(ctx, booking, { type: 'OFFER_RELEASE' }, phrase('operation-a-release'));
  assertNoOtherOperation(ctx, booking);
  const { tickets, partIds } = selectTickets(booking, request.fulfillmentIds, 'RELEASE');
  if (!whatRemains(ctx, booking, tickets, request.fulfillmentIds).coversWholeTickets) {
    throw violation('86001', { reason: phrase('release-whole-ticket') }, '#/fulfillmentIds');
  }
  const offer = { ...newOffer(ctx), fulfillmentIds: request.fulfillmentIds, bookingPartIds: [...partIds], overruleCode: request.overruleCode! };
  return { ...moved, releaseOffers: [...(booking.releaseOffers ?? []), offer] };
}

export function confirmReleaseOffer(ctx: Context, booking: Booking, offerId: string, body: unknown): Booking {
  parseRequest(OfferConfirmation, body);
  const confirming = confirmOffer(ctx, booking.releaseOffers, offerId, phrase('resource-release-offer'));
  if (!confirming) return booking;
  const { offer, confirmed } = confirming;
  assertStillLive(booking, offer.fulfillmentIds, 'RELEASE');
  const next = withStatus(booking, new Set(offer.bookingPartIds), 'RELEASE', 'RELEASE');
  return { ...next, releaseOffers: (booking.releaseOffers ?? []).map((o) => (o.id === offerId ? confirmed : o)) };
}

export function deleteReleaseOffer(ctx: Context, booking: Booking, offerId: string): Booking {
  deleteOffer(ctx, booking.releaseOffers, offerId, phrase('resource-release-offer'));
  return { ...booking, releaseOffers: (booking.releaseOffers ?? []).filter((o) => o.id !== offerId) };
}
