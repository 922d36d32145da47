import { setup, type StateValueFrom } from 'xstate';

/**
 * Refund, release and on-hold offers (spec §3 rules 1–3, §4.1 rules 5, 6, 11): provisional until confirmed,
 * deleted by the caller, or expired. The engine drives it with the pure API and stores the state value
 * with the offer; the booking machine says whether such an offer may be made at all. An offer is open while the machine
 * takes its CONFIRM; the state it is confirmed in is tagged `confirmed`.
 */
export type AftersalesOfferEvent = { type: 'CONFIRM' } | { type: 'DELETE' } | { type: 'EXPIRE' };

export const aftersalesOfferMachine = setup({
  types: { events: {} as AftersalesOfferEvent },
}).createMachine({
  id: 'aftersalesOffer',
  initial: 'PROPOSED',
  states: {
    PROPOSED: { on: { CONFIRM: 'CONFIRMED', DELETE: 'DELETED', EXPIRE: 'EXPIRED' } },
    /** Spec §3: a confirmed refund offer stays in the booking; a confirmed release offer disappears from it. */
    CONFIRMED: { type: 'final', tags: ['confirmed'] },
    DELETED: { type: 'final' },
    /** Spec §3 rule 2: an expired release offer cannot be confirmed. */
    EXPIRED: { type: 'final' },
  },
});

/** A refund, release or on-hold offer's state as stored with it. */
export type AftersalesOfferState = StateValueFrom<typeof aftersalesOfferMachine>;
