import { exchangeMachine, type ExchangeState } from '../../machines/exchange.ts';
import { fulfillmentMachine, type FulfillmentState } from '../../machines/fulfillment.ts';
import { aftersalesOfferMachine, type AftersalesOfferState } from '../../machines/offers.ts';
import type { ExchangeOperation } from '../model/records.ts';
import { can, hasTag } from './machine.ts';

/**
 * The questions the engine asks of refund, release and on-hold offers, exchange operations and fulfillments, each
 * answered by their machine in one place: "still live?", "already confirmed?".
 */

/** An offer not yet confirmed, deleted or expired: its machine still takes CONFIRM (its validUntil is another question). */
export const isOpenOffer = (state: AftersalesOfferState): boolean => can(aftersalesOfferMachine, state, { type: 'CONFIRM' });

/** An offer confirmed: a confirmed refund offer stays in the booking, and deleting or confirming it again finds nothing to do. */
export const isConfirmedOffer = (state: AftersalesOfferState): boolean => hasTag(aftersalesOfferMachine, state, 'confirmed');

/** An exchange operation still pre-booked: its machine still takes CONFIRM (its validUntil is another question). */
export const isPendingOperation = (state: ExchangeState): boolean => can(exchangeMachine, state, { type: 'CONFIRM' });

/** An exchange operation confirmed: its new parts joined the booking. */
export const isConfirmedOperation = (state: ExchangeState): boolean => hasTag(exchangeMachine, state, 'confirmed');

/** An exchange operation pre-booked and within its lifetime: its new parts hold places and passes, the originals wait. */
export const isLiveOperation = (now: Date, op: ExchangeOperation): boolean => isPendingOperation(op.state) && now.getTime() < new Date(op.validUntil).getTime();

/** A fulfillment that is travelled on (or a sold pass that is used): neither refunded, released nor exchanged. */
export const isValidFulfillment = (status: FulfillmentState): boolean => hasTag(fulfillmentMachine, status, 'valid');
