import { setup } from 'xstate';

/**
 * The booking lifecycle of spec §3 as far as the booking as a whole goes: a provisional booking is
 * confirmed (its parts become FULFILLED) or passes its time limit. The engine drives it with the pure
 * API (`transition`), never with an actor, and stores `snapshot.value` with the booking.
 *
 * The machine owns "may I": which operation is possible in which state. Rules own "on what terms".
 */
export type BookingEvent =
  | { type: 'CONFIRM' }
  | { type: 'EXPIRE' }
  | { type: 'PATCH_PASSENGER' }
  | { type: 'PATCH_PURCHASER' }
  | { type: 'PATCH_PLACES' }
  | { type: 'ADD_PAYMENT' };

export const bookingMachine = setup({
  types: { events: {} as BookingEvent },
}).createMachine({
  id: 'booking',
  initial: 'PREBOOKED',
  states: {
    /** Provisional: may be patched and confirmed until its confirmationTimeLimit (spec §3, §8). */
    PREBOOKED: {
      on: {
        CONFIRM: 'FULFILLED',
        EXPIRE: 'EXPIRED',
        // Spec §2.7 rule 3, §2.10 rule 1: passengers, purchaser and places are completed by patch before confirming.
        // (A self-transition: XState's can() only answers true for a transition with a target or actions.)
        PATCH_PASSENGER: { target: 'PREBOOKED' },
        PATCH_PURCHASER: { target: 'PREBOOKED' },
        PATCH_PLACES: { target: 'PREBOOKED' },
        ADD_PAYMENT: { target: 'PREBOOKED' },
      },
    },
    /** Confirmed: fulfillments exist; passenger data are frozen (spec §2.7 rule 5), the purchaser is not. */
    FULFILLED: {
      on: { PATCH_PURCHASER: { target: 'FULFILLED' }, ADD_PAYMENT: { target: 'FULFILLED' } },
    },
    /** The time limit passed before confirmation: only reading is left. */
    EXPIRED: { type: 'final' },
  },
});

export type BookingState = 'PREBOOKED' | 'FULFILLED' | 'EXPIRED';
