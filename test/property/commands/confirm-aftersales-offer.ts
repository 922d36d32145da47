import fc from 'fast-check';
import { ApiCommand, type CommandSpec } from '../../helpers/model-command.ts';
import {
  aftersalesOfferMachine,
  bookingMachine,
  bookingPartMachine,
  findBooking,
  fire,
  fireFulfillment,
  fulfillmentsIn,
  pick,
  type Model,
  type ModelAftersalesOffer,
} from '../../helpers/model.ts';
import type { System } from '../../helpers/model-system.ts';
import { checkRefundQuote } from '../../helpers/model-invariants.ts';
import { AdvanceClock } from './advance-clock.ts';
import { bookingPath, machineRefusal, problem } from './_aftersales.ts';
import { CreateOnHoldOffer } from './on-hold-offer.ts';

/** Where an aftersales offer lives, and how it is confirmed (CONTRACT §6; OSDM: on-hold is singular, PATCH {}). */
export function offerRequest(m: Readonly<Model>, o: ModelAftersalesOffer) {
  const b = findBooking(m, o.booking);
  const collection = o.kind === 'refund' ? 'refund-offers' : o.kind === 'release' ? 'release-offers' : 'on-hold-offer';
  return { b, path: bookingPath(b, `/${collection}/\${${o.id}}`), confirmation: o.kind === 'onHold' ? {} : { status: 'CONFIRMED' } };
}

/**
 * An on-hold offer is found on its booking only while it is the newest one (a new offer replaces it).
 * Refund and release offers are kept, deleted ones are gone.
 */
export function isFound(m: Readonly<Model>, o: ModelAftersalesOffer): boolean {
  if (o.state === 'DELETED') return false;
  return o.kind !== 'onHold' || m.aftersales.filter((x) => x.kind === 'onHold' && x.booking === o.booking).at(-1) === o;
}

/**
 * PATCH of a refund, release or on-hold offer to confirm it (spec §3 rules 1–3). A confirmed one answers
 * the same again; one past its validUntil is 409 X_OFFER_EXPIRED (the model's offer takes EXPIRE). Then:
 *   - refund: its fulfillments REFUNDED, parts CANCELLED; nothing left to travel on → booking CANCEL_ALL;
 *   - release: its fulfillments RELEASED;
 *   - on-hold: the booking PUT_ON_HOLD (the machine must allow it), its limit the offer's increasedTTL.
 */
export class ConfirmAftersalesOffer extends ApiCommand {
  readonly offer: number;
  constructor(offer: number) {
    super();
    this.offer = offer;
  }

  check(m: Readonly<Model>) {
    return m.aftersales.some((o) => o.state !== 'DELETED');
  }

  protected async act(m: Model, s: System) {
    const o = pick(
      m.aftersales.filter((x) => x.state !== 'DELETED'),
      this.offer,
    )!;
    const { b, path, confirmation } = offerRequest(m, o);
    const request = { name: `confirm ${o.kind} offer ${o.id}`, method: 'patch' as const, path, body: confirmation };
    if (!isFound(m, o)) {
      await s.send({ ...request, expect: problem('RESOURCE_NOT_FOUND') });
      return;
    }
    if (o.state === 'CONFIRMED') {
      await s.send({ ...request, expect: { status: 200 } });
      return;
    }
    if (o.state === 'EXPIRED' || m.now >= o.validUntil) {
      await s.send({ ...request, expect: problem('X_OFFER_EXPIRED') });
      if (o.state === 'PROPOSED') fire(m, aftersalesOfferMachine, o, 'EXPIRE');
      return;
    }
    if (o.kind === 'onHold') {
      const refusal = machineRefusal(m, b, 'PUT_ON_HOLD');
      if (refusal) {
        await s.send({ ...request, expect: { status: refusal.status, body: refusal.body } });
        refusal.found();
        return;
      }
    }
    const key = o.kind === 'refund' ? 'refundOffer' : o.kind === 'release' ? 'releaseOffer' : 'onHoldOffer';
    await s.send({
      ...request,
      expect: { status: 200, body: { [key]: o.kind === 'onHold' ? { id: `\${${o.id}}` } : { id: `\${${o.id}}`, status: 'CONFIRMED' } } },
    });
    fire(m, aftersalesOfferMachine, o, 'CONFIRM');
    if (o.kind === 'onHold') {
      fire(m, bookingMachine, b, 'PUT_ON_HOLD');
      fire(m, bookingPartMachine, b.parts, 'PUT_ON_HOLD');
      b.timeLimit = o.increasedTTL!;
      b.onHoldUsed = true;
      return;
    }
    for (const f of o.fulfillments) fireFulfillment(m, b, f, o.kind === 'refund' ? 'REFUND' : 'RELEASE');
    // Spec §3 rule 1: confirming refunds exactly what the offer quoted.
    if (o.kind === 'refund') await checkRefundQuote(s, b, o.fulfillments, o.quote!, true);
    // engine/aftersales/refund.ts applyRefund: every admission CANCELLED (exchanged ones are not) → the booking is cancelled.
    if (o.kind === 'refund' && b.state === 'FULFILLED' && !b.exchanged && fulfillmentsIn(b, 'FULFILLED', 'RELEASED').length === 0)
      fire(m, bookingMachine, b, 'CANCEL_ALL');
  }

  toString() {
    return `ConfirmAftersalesOffer(#${this.offer})`;
  }
}

export const spec: CommandSpec = {
  name: 'ConfirmAftersalesOffer',
  weight: 5,
  arbitrary: fc.nat({ max: 5 }).map((o) => new ConfirmAftersalesOffer(o)),
  drives: {
    // The newest offer: on-hold (PUT_ON_HOLD), refund (CANCEL_ALL) and others (CONFIRM, EXPIRE) are made by their drivers first.
    'booking:PUT_ON_HOLD': () => [new CreateOnHoldOffer(0, 'own'), new ConfirmAftersalesOffer(0)],
    'aftersalesOffer:CONFIRM': () => [new ConfirmAftersalesOffer(0)],
    'aftersalesOffer:EXPIRE': () => [new AdvanceClock(31), new ConfirmAftersalesOffer(0)],
    'bookingPart:PUT_ON_HOLD': () => [new CreateOnHoldOffer(0, 'own'), new ConfirmAftersalesOffer(0)],
  },
};
