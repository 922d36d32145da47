import { setup } from 'xstate';

/**
 * The booking lifecycle of spec §3 as far as the booking as a whole goes: a provisional booking is
 * confirmed (its parts become FULFILLED) or passes its time limit. The engine drives it with the pure
 * API (`transition`), never with an actor, and stores `snapshot.value` with the booking.
 *
 * The machine owns "may I": which operation is possible in which state. Rules own "on what terms".
 */
export type BookingEvent = { type: 'CONFIRM' } | { type: 'EXPIRE' };

export const bookingMachine = setup({
  types: { events: {} as BookingEvent },
}).createMachine({
  id: 'booking',
  initial: 'PREBOOKED',
  states: {
    /** Provisional: may be patched and confirmed until its confirmationTimeLimit (spec §3, §8). */
    PREBOOKED: {
      on: { CONFIRM: 'FULFILLED', EXPIRE: 'EXPIRED' },
    },
    /** Confirmed: fulfillments exist; aftersales (a later issue) starts here. */
    FULFILLED: {},
    /** The time limit passed before confirmation: only reading is left. */
    EXPIRED: { type: 'final' },
  },
});

export type BookingState = 'PREBOOKED' | 'FULFILLED' | 'EXPIRED';
