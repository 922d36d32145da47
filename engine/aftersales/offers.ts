import type { Context } from '../model/context.ts';
import { initialState, step } from '../state/machine.ts';
import type { AftersalesOfferRecord, Booking } from '../model/records.ts';
import { plus } from '../rules/time.ts';
import { phrase, violation, type Phrase } from '../rules/violation.ts';
import { aftersalesOfferMachine, type AftersalesOfferEvent } from '../../machines/offers.ts';
import { isConfirmedOffer, isLiveOperation, isOpenOffer } from '../state/aftersales-state.ts';

/**
 * What refund, release and on-hold offers share: their machine (machines/offers.ts), their validity
 * (rules/limits.yaml aftersalesOfferValidFor) and the rule that only one aftersales operation may be
 * active on a booking at a time (spec §4.1 rule 10).
 */
type OfferLike = AftersalesOfferRecord;

export function newOffer(ctx: Context, limit?: string): OfferLike {
  const validUntil = plus(ctx.now, ctx.rules.limits.aftersalesOfferValidFor);
  const until = limit && new Date(limit) < validUntil ? new Date(limit) : validUntil;
  return { id: ctx.ids.next('offer'), state: initialState(aftersalesOfferMachine), createdOn: ctx.now.toISOString(), validUntil: until.toISOString() };
}

/** An offer that can still be confirmed: open, and its validUntil not passed. */
export const isLive = (ctx: Context, o: OfferLike | undefined) =>
  o !== undefined && isOpenOffer(o.state) && ctx.now.getTime() < new Date(o.validUntil).getTime();

/** Moves an offer's machine; an offer past its validUntil is expired first (spec §3 rule 2). */
export function moveOffer<O extends OfferLike>(ctx: Context, offer: O, event: AftersalesOfferEvent): O {
  if (isOpenOffer(offer.state) && !isLive(ctx, offer) && event.type === 'CONFIRM') {
    throw violation('X_OFFER_EXPIRED', { id: offer.id, until: offer.validUntil });
  }
  const next = step(aftersalesOfferMachine, offer.state, event);
  if (!next) throw violation('X_BOOKING_STATE', { operation: phrase(`operation-offer-${event.type.toLowerCase()}`, { id: offer.id }), state: offer.state });
  return { ...offer, state: next, ...(isConfirmedOffer(next) ? { confirmedOn: ctx.now.toISOString() } : {}) };
}

/** Spec §4.1 rule 10: refund, release and exchange are never under way at the same time on one booking. */
export function assertNoOtherOperation(ctx: Context, booking: Booking): void {
  const active =
    [...(booking.refundOffers ?? []), ...(booking.releaseOffers ?? [])].some((o) => isLive(ctx, o)) ||
    (booking.exchangeOperations ?? []).some((o) => isLiveOperation(ctx.now, o));
  if (active) throw violation('X_CONCURRENT_AFTERSALES', {});
}

function findOffer<O extends OfferLike>(offers: readonly O[] | undefined, id: string, resource: Phrase): O {
  const offer = offers?.find((o) => o.id === id);
  if (!offer) throw violation('RESOURCE_NOT_FOUND', { resource, id });
  return offer;
}

/**
 * PATCH an offer to CONFIRMED: the offer by id, moved by its machine (expired: X_OFFER_EXPIRED); undefined when it
 * already was confirmed, since confirming again changes nothing.
 */
export function confirmOffer<O extends OfferLike>(
  ctx: Context,
  offers: readonly O[] | undefined,
  id: string,
  resource: Phrase,
): { offer: O; confirmed: O } | undefined {
  const offer = findOffer(offers, id, resource);
  if (isConfirmedOffer(offer.state)) return undefined;
  return { offer, confirmed: moveOffer(ctx, offer, { type: 'CONFIRM' }) };
}

/**
 * DELETE an offer: the offer by id, moved by its machine. A confirmed one answers as if it were not there (CONTRACT §6),
 * as an unknown one does.
 */
export function deleteOffer<O extends OfferLike>(ctx: Context, offers: readonly O[] | undefined, id: string, resource: Phrase): void {
  const offer = findOffer(offers, id, resource);
  if (isConfirmedOffer(offer.state)) throw violation('RESOURCE_NOT_FOUND', { resource, id });
  moveOffer(ctx, offer, { type: 'DELETE' });
}
