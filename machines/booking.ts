import { setup, type StateValueFrom } from 'xstate';

/**
 * The booking lifecycle of spec §3 as far as the booking as a whole goes: a provisional booking is
 * confirmed (its parts become FULFILLED) or passes its time limit. The engine drives it with the pure
 * API (`transition`), never with an actor, and stores `snapshot.value` with the booking.
 *
 * The machine owns "may I": which operation is possible in which state. Rules own "on what terms". Its tags answer
 * what a state is: `confirmed` (confirmed, and something of it still travels), `expired`.
 */
export type BookingEvent =
  | { type: 'CONFIRM' }
  | { type: 'EXPIRE' }
  | { type: 'PATCH_PASSENGER' }
  | { type: 'PATCH_PURCHASER' }
  | { type: 'PATCH_PLACES' }
  | { type: 'ADD_PAYMENT' }
  | { type: 'OFFER_ON_HOLD' }
  | { type: 'PUT_ON_HOLD' }
  | { type: 'OFFER_REFUND' }
  | { type: 'OFFER_RELEASE' }
  | { type: 'OFFER_EXCHANGE' }
  | { type: 'CANCEL_ALL' }
  | { type: 'CLEANUP' };

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
        // Spec §4.1 rule 11: only a provisional booking may be put on hold (86031 otherwise, on-hold.yaml).
        OFFER_ON_HOLD: { target: 'PREBOOKED' },
        PUT_ON_HOLD: 'ON_HOLD',
      },
    },
    /** Provisional with a longer time limit (spec §4.1 rule 11); confirmed or expired like PREBOOKED. */
    ON_HOLD: {
      on: {
        CONFIRM: 'FULFILLED',
        EXPIRE: 'EXPIRED',
        PATCH_PASSENGER: { target: 'ON_HOLD' },
        PATCH_PURCHASER: { target: 'ON_HOLD' },
        PATCH_PLACES: { target: 'ON_HOLD' },
        ADD_PAYMENT: { target: 'ON_HOLD' },
        OFFER_ON_HOLD: { target: 'ON_HOLD' },
      },
    },
    /** Confirmed: fulfillments exist; passenger data are frozen (spec §2.7 rule 5), the purchaser is not. */
    FULFILLED: {
      tags: ['confirmed'],
      on: {
        PATCH_PURCHASER: { target: 'FULFILLED' },
        ADD_PAYMENT: { target: 'FULFILLED' },
        OFFER_REFUND: { target: 'FULFILLED' },
        OFFER_RELEASE: { target: 'FULFILLED' },
        // Spec §3: exchange offers and operations start from fulfilled parts; the exchange's own machine is machines/exchange.ts.
        OFFER_EXCHANGE: { target: 'FULFILLED' },
        // Every part refunded or rolled back (spec §3, §4.1 rule 12).
        CANCEL_ALL: 'CANCELLED',
        CLEANUP: 'CANCELLED',
        // Spec §4.1 rule 11: asking a confirmed booking for on-hold is a known refusal (86031), not an unknown state.
        OFFER_ON_HOLD: { target: 'FULFILLED' },
      },
    },
    /** Nothing left to travel on: every part refunded or rolled back. */
    CANCELLED: {
      on: { PATCH_PURCHASER: { target: 'CANCELLED' }, OFFER_ON_HOLD: { target: 'CANCELLED' } },
    },
    /** The time limit passed before confirmation: only reading is left. */
    EXPIRED: { type: 'final', tags: ['expired'] },
  },
});

/** A booking's state as stored with it (Booking.machine.value). */
export type BookingState = StateValueFrom<typeof bookingMachine>;
