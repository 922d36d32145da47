import { setup, type StateValueFrom } from 'xstate';

/**
 * An exchange operation (spec §3, §4.1 rule 7): pre-booked on a new trip while the original parts are
 * EXCHANGE_ONGOING; confirmed by the booking's fulfillment call, deleted by the caller, or expired after
 * the provisional lifetime. It stays in the booking once FULFILLED. It is pending while the machine takes its CONFIRM;
 * the state it is confirmed in is tagged `confirmed`.
 */
export type ExchangeEvent = { type: 'CONFIRM' } | { type: 'DELETE' } | { type: 'EXPIRE' } | { type: 'PATCH' };

export const exchangeMachine = setup({
  types: { events: {} as ExchangeEvent },
}).createMachine({
  id: 'exchangeOperation',
  initial: 'PREBOOKED',
  states: {
    PREBOOKED: { on: { CONFIRM: 'FULFILLED', DELETE: 'DELETED', EXPIRE: 'EXPIRED', PATCH: { target: 'PREBOOKED' } } },
    FULFILLED: { type: 'final', tags: ['confirmed'] },
    DELETED: { type: 'final' },
    EXPIRED: { type: 'final' },
  },
});

/** An exchange operation's state as stored with it. */
export type ExchangeState = StateValueFrom<typeof exchangeMachine>;
