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
import { bookingPath, machineRefusal, problem } from './_aftersales.ts';
import { Confirm } from './confirm.ts';
import { ConfirmAftersalesOffer } from './confirm-aftersales-offer.ts';
import { agentBooking } from './on-hold-offer.ts';

type Variant = 'own' | 'no-code' | 'web';

/**
 * POST /v3/bookings/{id}/release-offers (spec §3 rule 2, §4.1 rule 5, rules/release-guards.yaml) of every
 * FULFILLED fulfillment, by the booking's sales application (or the web shop): the guards come first —
 * a channel that may not release 86043, no EXTERNAL_COMPENSATION 86024 — then the machine (confirmed
 * only), one operation at a time, something left to release.
 */
export class CreateReleaseOffer extends ApiCommand {
  readonly booking: number;
  readonly variant: Variant;
  constructor(booking: number, variant: Variant) {
    super();
    this.booking = booking;
    this.variant = variant;
  }

  check(m: Readonly<Model>) {
    return m.bookings.length > 0;
  }

  protected async act(m: Model, s: System) {
    const b = pick(m.bookings, this.booking)!;
    settleOperations(m, b);
    const salesApplication = this.variant === 'web' ? 'WEB_SE' : b.salesApplication;
    const listed = fulfillmentsIn(b, 'FULFILLED');
    const request = {
      name: `release offer for ${b.id} (${this.variant}, ${salesApplication})`,
      method: 'post' as const,
      path: bookingPath(b, '/release-offers'),
      salesApplication,
      body: {
        fulfillmentIds: listed.length > 0 ? listed.map(ref) : b.fulfillments.length > 0 ? [ref(b.fulfillments[0]!)] : ['none'],
        ...(this.variant === 'no-code' ? {} : { overruleCode: 'EXTERNAL_COMPENSATION' }),
      },
    };
    if (salesApplication === 'WEB_SE') {
      await s.send({ ...request, expect: problem('86043') });
      return;
    }
    if (this.variant === 'no-code') {
      await s.send({ ...request, expect: problem('86024') });
      return;
    }
    const refusal = machineRefusal(m, b, 'OFFER_RELEASE');
    if (refusal) {
      await s.send({ ...request, expect: { status: refusal.status, body: refusal.body } });
      refusal.found();
      return;
    }
    const code = busy(m, b) ? 'X_CONCURRENT_AFTERSALES' : listed.length === 0 ? 'X_BOOKING_STATE' : undefined;
    if (code) {
      await s.send({ ...request, expect: problem(code) });
      return;
    }
    await s.send({
      ...request,
      expect: { status: 200, body: { releaseOffers: [{ id: '$string', status: 'PROPOSED', appliedOverruleCode: 'EXTERNAL_COMPENSATION' }] } },
    });
    fire(m, bookingMachine, b, 'OFFER_RELEASE');
    const id = s.newVar('releaseOffer');
    s.save(id, 'releaseOffers[0].id');
    m.aftersales.push({
      id,
      kind: 'release',
      booking: b.id,
      state: enter(m, aftersalesOfferMachine),
      validUntil: m.now + lifetimes().aftersalesOffer,
      fulfillments: listed,
    });
  }

  toString() {
    return `CreateReleaseOffer(booking #${this.booking}, ${this.variant})`;
  }
}

export const spec: CommandSpec = {
  name: 'CreateReleaseOffer',
  weight: 2,
  arbitrary: fc.tuple(fc.nat({ max: 9 }), fc.constantFrom<Variant>('own', 'own', 'own', 'no-code', 'web')).map(([b, v]) => new CreateReleaseOffer(b, v)),
  drives: {
    'booking:OFFER_RELEASE': () => [new CreateReleaseOffer(0, 'own')],
    'aftersalesOffer:xstate.init': () => [...agentBooking(), new Confirm(0, 'fulfillment'), new CreateReleaseOffer(0, 'own')],
    // Confirming a booking issues its fulfillments.
    'fulfillment:xstate.init': () => [...agentBooking(), new Confirm(0, 'fulfillment')],
    'fulfillment:RELEASE': () => [new CreateReleaseOffer(0, 'own'), new ConfirmAftersalesOffer(0)],
    'bookingPart:RELEASE': () => [new CreateReleaseOffer(0, 'own'), new ConfirmAftersalesOffer(0)],
  },
};
