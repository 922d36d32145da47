import { setup, type StateValueFrom } from 'xstate';

/**
 * A booking part: an admission, reservation or ancillary (spec §3). Its status follows what the other machines
 * allowed: the booking's CONFIRM and PUT_ON_HOLD, a confirmed refund or release of its fulfillment, an exchange
 * operation booked (the original parts EXCHANGE_ONGOING), confirmed (EXCHANGED) or deleted or expired (the
 * original parts travel again). The engine moves each part by this machine, so a status no path leads to is a bug
 * found where it is made, not a part stored in it.
 *
 * Parts tagged `ended` no longer travel: they hold no place and use no pass.
 */
export type BookingPartEvent =
  | { type: 'CONFIRM' }
  | { type: 'PUT_ON_HOLD' }
  | { type: 'REFUND' }
  | { type: 'RELEASE' }
  | { type: 'START_EXCHANGE' }
  | { type: 'EXCHANGE' }
  | { type: 'CANCEL_EXCHANGE' };

export const bookingPartMachine = setup({
  types: { events: {} as BookingPartEvent },
}).createMachine({
  id: 'bookingPart',
  initial: 'PREBOOKED',
  states: {
    PREBOOKED: { on: { CONFIRM: 'FULFILLED', PUT_ON_HOLD: 'ON_HOLD' } },
    ON_HOLD: { on: { CONFIRM: 'FULFILLED' } },
    FULFILLED: { on: { REFUND: 'CANCELLED', RELEASE: 'RELEASED', START_EXCHANGE: 'EXCHANGE_ONGOING' } },
    /** Spec §4.1 rule 6: a released part may still be refunded. */
    RELEASED: { tags: ['ended'], on: { REFUND: 'CANCELLED' } },
    EXCHANGE_ONGOING: { on: { EXCHANGE: 'EXCHANGED', CANCEL_EXCHANGE: 'FULFILLED' } },
    /** Refunded (spec §3: a refunded part is CANCELLED). */
    CANCELLED: { type: 'final', tags: ['ended'] },
    EXCHANGED: { type: 'final', tags: ['ended'] },
  },
});

/** A booking part's status as stored with it. */
export type BookingPartState = StateValueFrom<typeof bookingPartMachine>;
