import fc from 'fast-check';
import { ApiCommand, type CommandSpec } from '../../helpers/model-command.ts';
import {
  bookingMachine,
  busy,
  enter,
  exchangeMachine,
  fire,
  firePart,
  fulfillmentsIn,
  lifetimes,
  pick,
  ref,
  settleOperations,
  type Model,
} from '../../helpers/model.ts';
import type { System } from '../../helpers/model-system.ts';
import { fixtureTrip } from '../../helpers/model-trips.ts';
import { bookingPath, machineRefusal, problem } from './_aftersales.ts';
import { Confirm } from './confirm.ts';
import { agentBooking } from './on-hold-offer.ts';

/** A later train between the same stations, for each trip the model exchanges from. */
const LATER: Record<string, string> = { 'sto-gbg-0800': 'sto-gbg-1200' };

/**
 * Exchange (spec §3, §4.1 rule 7): POST …/exchange-offers for a later train with the same origin and
 * destination, every fulfillment listed and the passengers re-sent with the same ages; then POST
 * …/exchange-operations with the first exchange offer, which pre-books it (the originals
 * EXCHANGE_ONGOING). Only bookings with nothing refunded, released or exchanged yet; a non-exchangeable
 * admission (a non-flexible ticket) is refused with 86038. In the engine's order: the machine (confirmed only), one operation at a time.
 */
export class RequestExchange extends ApiCommand {
  readonly booking: number;
  constructor(booking: number) {
    super();
    this.booking = booking;
  }

  private targets(m: Readonly<Model>) {
    return m.bookings.filter(
      (b) => b.trip !== undefined && LATER[b.trip] !== undefined && !b.exchanged && fulfillmentsIn(b, 'REFUNDED', 'RELEASED', 'EXCHANGED').length === 0,
    );
  }

  check(m: Readonly<Model>) {
    return this.targets(m).length > 0;
  }

  protected async act(m: Model, s: System) {
    const b = pick(this.targets(m), this.booking)!;
    settleOperations(m, b);
    const request = {
      name: `exchange offers for ${b.id} on ${LATER[b.trip!]}`,
      method: 'post' as const,
      path: bookingPath(b, '/exchange-offers'),
      salesApplication: b.salesApplication,
      body: {
        fulfillmentIds: b.fulfillments.length > 0 ? b.fulfillments.map(ref) : ['none'],
        tripSpecifications: [fixtureTrip(LATER[b.trip!] as never)],
        anonymousPassengerSpecifications: b.ages.map((age, i) => ({ externalRef: `p${i + 1}`, type: 'PERSON', age })),
      },
    };
    const refusal = machineRefusal(m, b, 'OFFER_EXCHANGE');
    if (refusal) {
      await s.send({ ...request, expect: { status: refusal.status, body: refusal.body } });
      refusal.found();
      return;
    }
    if (busy(m, b)) {
      await s.send({ ...request, expect: problem('X_CONCURRENT_AFTERSALES') });
      return;
    }
    if (!b.exchangeable) {
      await s.send({ ...request, expect: problem('86038') });
      return;
    }
    const res = await s.send({ ...request, expect: { status: 200, body: { exchangeOffers: '$array' } } });
    fire(m, bookingMachine, b, 'OFFER_EXCHANGE');
    if ((res.body.exchangeOffers as unknown[]).length === 0) return;
    const offer = s.newVar('exchangeOffer');
    s.save(offer, 'exchangeOffers[0].offerId');
    await s.send({
      name: `exchange operation for ${b.id}`,
      method: 'post',
      path: bookingPath(b, '/exchange-operations'),
      salesApplication: b.salesApplication,
      body: { exchangeOffers: [{ offerId: ref(offer), passengerRefs: b.ages.map((_, i) => `p${i + 1}`) }] },
      expect: { status: 200, body: { exchangeOperation: { id: '$string', status: 'PREBOOKED' } } },
    });
    fire(m, bookingMachine, b, 'OFFER_EXCHANGE');
    const id = s.newVar('exchangeOperation');
    s.save(id, 'exchangeOperation.id');
    m.operations.push({
      id,
      booking: b.id,
      state: enter(m, exchangeMachine),
      validUntil: m.now + lifetimes().provisionalBooking,
      fulfillments: [...b.fulfillments],
    });
    for (const f of b.fulfillments) firePart(m, b, f, 'START_EXCHANGE');
  }

  toString() {
    return `RequestExchange(booking #${this.booking})`;
  }
}

export const spec: CommandSpec = {
  name: 'RequestExchange',
  weight: 3,
  arbitrary: fc.nat({ max: 9 }).map((b) => new RequestExchange(b)),
  drives: {
    'booking:OFFER_EXCHANGE': () => [new RequestExchange(0)],
    'exchangeOperation:xstate.init': () => [...agentBooking(), new Confirm(0, 'fulfillment'), new RequestExchange(0)],
    // The booking's fulfillment call confirms the pre-booked exchange: the original fulfillments are EXCHANGED.
    'fulfillment:EXCHANGE': () => [new RequestExchange(0), new Confirm(0, 'fulfillment')],
    'bookingPart:START_EXCHANGE': () => [new RequestExchange(0)],
  },
};
