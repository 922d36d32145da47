import fc from 'fast-check';
import { ApiCommand, type CommandSpec } from '../../helpers/model-command.ts';
import {
  aftersalesOfferMachine,
  bookingMachine,
  busy,
  enter,
  fire,
  fulfillmentsIn,
  lifetimes,
  pick,
  ref,
  settleOperations,
  type Model,
} from '../../helpers/model.ts';
import type { System } from '../../helpers/model-system.ts';
import { checkRefundQuote } from '../../helpers/model-invariants.ts';
import { bookingPath, machineRefusal, problem } from './_aftersales.ts';
import { Confirm } from './confirm.ts';
import { ConfirmAftersalesOffer } from './confirm-aftersales-offer.ts';
import { agentBooking } from './on-hold-offer.ts';

type Variant = 'whole' | 'disruption' | 'blocked' | 'partial';

/**
 * POST /v3/bookings/{id}/refund-offers (spec §3, §4.1 rules 6, 10): whole tickets only. The model sends
 * every live fulfillment (FULFILLED or RELEASED), sometimes with an overrule code (DISRUPTION, or
 * REFUND_BLOCKED_TICKET which a released ticket needs), or only the first one of a booking with
 * reservations (part of a ticket: 86001). In the engine's order: the machine (confirmed only), one
 * operation at a time, fulfillments in a refundable state, the guards. Amounts are not predicted; the
 * money invariants check them, and the quote is never above what its parts cost (checkRefundQuote).
 */
export class CreateRefundOffer extends ApiCommand {
  readonly booking: number;
  readonly variant: Variant;
  constructor(booking: number, variant: Variant) {
    super();
    this.booking = booking;
    this.variant = variant;
  }

  private targets(m: Readonly<Model>) {
    return this.variant === 'partial'
      ? m.bookings.filter((b) => b.reservations.length > 0 && !b.exchanged && fulfillmentsIn(b, 'FULFILLED', 'RELEASED').length > 1)
      : m.bookings;
  }

  check(m: Readonly<Model>) {
    return this.targets(m).length > 0;
  }

  protected async act(m: Model, s: System) {
    const b = pick(this.targets(m), this.booking)!;
    settleOperations(m, b);
    const live = fulfillmentsIn(b, 'FULFILLED', 'RELEASED');
    const listed = this.variant === 'partial' ? live.slice(0, 1) : live.length > 0 ? live : b.fulfillments.slice(0, 1);
    const overruleCode = this.variant === 'disruption' ? 'DISRUPTION' : this.variant === 'blocked' ? 'REFUND_BLOCKED_TICKET' : undefined;
    const request = {
      name: `refund offer for ${b.id} (${this.variant})`,
      method: 'post' as const,
      path: bookingPath(b, '/refund-offers'),
      salesApplication: b.salesApplication,
      body: { fulfillmentIds: listed.length > 0 ? listed.map(ref) : ['none'], ...(overruleCode ? { overruleCode } : {}) },
    };
    const refusal = machineRefusal(m, b, 'OFFER_REFUND');
    if (refusal) {
      await s.send({ ...request, expect: { status: refusal.status, body: refusal.body } });
      refusal.found();
      return;
    }
    const code = busy(m, b)
      ? 'X_CONCURRENT_AFTERSALES'
      : live.length === 0
        ? 'X_BOOKING_STATE'
        : this.variant === 'partial'
          ? '86001'
          : listed.some((f) => b.fulfillmentStatus[f] === 'RELEASED') && overruleCode !== 'REFUND_BLOCKED_TICKET'
            ? 'X_REFUND_BLOCKED'
            : undefined;
    if (code) {
      await s.send({ ...request, expect: problem(code) });
      return;
    }
    const res = await s.send({ ...request, expect: { status: 200, body: { refundOffers: [{ id: '$string', status: 'PROPOSED' }] } } });
    fire(m, bookingMachine, b, 'OFFER_REFUND');
    const id = s.newVar('refundOffer');
    s.save(id, 'refundOffers[0].id');
    const quote = (res.body as { refundOffers: Array<{ refundableAmount: { amount: number } }> }).refundOffers[0]!.refundableAmount.amount;
    m.aftersales.push({
      id,
      kind: 'refund',
      booking: b.id,
      state: enter(m, aftersalesOfferMachine),
      validUntil: m.now + lifetimes().aftersalesOffer,
      fulfillments: listed,
      quote,
    });
    await checkRefundQuote(s, b, listed, quote, false);
  }

  toString() {
    return `CreateRefundOffer(booking #${this.booking}, ${this.variant})`;
  }
}

export const spec: CommandSpec = {
  name: 'CreateRefundOffer',
  weight: 2,
  arbitrary: fc
    .tuple(fc.nat({ max: 9 }), fc.constantFrom<Variant>('whole', 'whole', 'disruption', 'blocked', 'partial'))
    .map(([b, v]) => new CreateRefundOffer(b, v)),
  drives: {
    'booking:OFFER_REFUND': () => [new CreateRefundOffer(0, 'whole')],
    'booking:CANCEL_ALL': () => [new CreateRefundOffer(0, 'whole'), new ConfirmAftersalesOffer(0)],
    // A released ticket is refunded with REFUND_BLOCKED_TICKET (spec §4.1 rule 6); a fulfilled one takes it too.
    'fulfillment:REFUND': () => [new CreateRefundOffer(0, 'blocked'), new ConfirmAftersalesOffer(0)],
    'bookingPart:REFUND': () => [new CreateRefundOffer(0, 'blocked'), new ConfirmAftersalesOffer(0)],
    'aftersalesOffer:xstate.init': () => [...agentBooking(), new Confirm(0, 'fulfillment'), new CreateRefundOffer(0, 'whole')],
  },
};
