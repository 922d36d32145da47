import { setup, type StateValueFrom } from 'xstate';

/**
 * A fulfillment (spec §3, §4.1 rules 1, 5–7, 12): issued FULFILLED when its booking or exchange is confirmed; a
 * confirmed refund makes it REFUNDED, a confirmed release RELEASED (a released ticket may still be refunded, spec
 * §4.1 rule 6), a confirmed exchange EXCHANGED. The engine asks it whether an operation may list a fulfillment and
 * moves it when the operation is confirmed; the booking's parts follow (engine/aftersales/tickets.ts). Only a FULFILLED
 * one is `valid`: travelled on, or a sold pass used.
 */
export type FulfillmentEvent = { type: 'REFUND' } | { type: 'RELEASE' } | { type: 'EXCHANGE' };

export const fulfillmentMachine = setup({
  types: { events: {} as FulfillmentEvent },
}).createMachine({
  id: 'fulfillment',
  initial: 'FULFILLED',
  states: {
    FULFILLED: { tags: ['valid'], on: { REFUND: 'REFUNDED', RELEASE: 'RELEASED', EXCHANGE: 'EXCHANGED' } },
    RELEASED: { on: { REFUND: 'REFUNDED' } },
    REFUNDED: { type: 'final' },
    EXCHANGED: { type: 'final' },
  },
});

/** A fulfillment's status as stored with it (Fulfillment.status). */
export type FulfillmentState = StateValueFrom<typeof fulfillmentMachine>;
