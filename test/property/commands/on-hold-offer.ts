import fc from 'fast-check';
import { ApiCommand, type CommandSpec } from '../../helpers/model-command.ts';
import { aftersalesOfferMachine, bookingMachine, enter, fire, iso, isLive, lifetimes, pick, settleOperations, type Model } from '../../helpers/model.ts';
import type { System } from '../../helpers/model-system.ts';
import { bookingPath, machineRefusal, problem } from './_aftersales.ts';
import { Book } from './book.ts';
import { RequestOffers } from './offers.ts';

const DAY = 24 * 3_600_000;

/**
 * POST /v3/bookings/{id}/on-hold-offer (spec §3 rule 3, §4.1 rule 11, rules/on-hold.yaml), sent by the
 * booking's own sales application or by the web shop. In the engine's order: an expired booking 409; then
 * (the machine allowing OFFER_ON_HOLD in every live state) the channel 403, not provisional 86031, an
 * active offer X_ON_HOLD_OFFER_ACTIVE, once per booking and not within 24 h of departure
 * X_ON_HOLD_NOT_ALLOWED, contact data 86034; else an offer naming the new limit: the earlier of creation
 * + lifetime + 24 h and departure − 24 h. The offer is valid 30 minutes, never past the booking's limit.
 */
export class CreateOnHoldOffer extends ApiCommand {
  readonly booking: number;
  readonly from: 'own' | 'web';
  constructor(booking: number, from: 'own' | 'web') {
    super();
    this.booking = booking;
    this.from = from;
  }

  check(m: Readonly<Model>) {
    return m.bookings.length > 0;
  }

  protected async act(m: Model, s: System) {
    const b = pick(m.bookings, this.booking)!;
    const salesApplication = this.from === 'web' ? 'WEB_SE' : b.salesApplication;
    const request = {
      name: `on-hold offer for ${b.id} from ${salesApplication}`,
      method: 'post' as const,
      path: bookingPath(b, '/on-hold-offer'),
      body: {},
      salesApplication,
    };
    settleOperations(m, b);
    const refusal = machineRefusal(m, b, 'OFFER_ON_HOLD');
    if (refusal) {
      await s.send({ ...request, expect: { status: refusal.status, body: refusal.body } });
      refusal.found();
      return;
    }
    const departure = b.departure ?? Number.POSITIVE_INFINITY;
    const code =
      salesApplication === 'WEB_SE'
        ? 'X_OPERATION_NOT_PERMITTED'
        : b.state !== 'PREBOOKED' && b.state !== 'ON_HOLD'
          ? '86031'
          : m.aftersales.some((o) => o.booking === b.id && o.kind === 'onHold' && isLive(m, o))
            ? 'X_ON_HOLD_OFFER_ACTIVE'
            : b.onHoldUsed || m.now > departure - DAY
              ? 'X_ON_HOLD_NOT_ALLOWED'
              : !b.purchaser
                ? '86034'
                : undefined;
    if (code) {
      await s.send({ ...request, expect: problem(code) });
      fire(m, bookingMachine, b, 'OFFER_ON_HOLD');
      return;
    }
    const increasedTTL = Math.min(b.createdAt + lifetimes().provisionalBooking + DAY, departure - DAY);
    await s.send({ ...request, expect: { status: 200, body: { onHoldOffer: { id: '$string', increasedTTL: iso(increasedTTL) } } } });
    fire(m, bookingMachine, b, 'OFFER_ON_HOLD');
    const id = s.newVar('onHoldOffer');
    s.save(id, 'onHoldOffer.id');
    m.aftersales.push({
      id,
      kind: 'onHold',
      booking: b.id,
      state: enter(m, aftersalesOfferMachine),
      validUntil: Math.min(m.now + lifetimes().aftersalesOffer, b.timeLimit),
      fulfillments: [],
      increasedTTL,
    });
  }

  toString() {
    return `CreateOnHoldOffer(booking #${this.booking}, ${this.from})`;
  }
}

/** Offers and an agent's complete booking of them (AGENT_SE may put bookings on hold and release them). */
export const agentBooking = () => [
  new RequestOffers('sto-gbg-0800', [35], 'SECOND', 'FULL_FLEXIBLE', 0),
  new Book(0, 'complete', 0, true, '/v3/booking', 'MEN', 'AGENT_SE'),
];

export const spec: CommandSpec = {
  name: 'CreateOnHoldOffer',
  weight: 2,
  arbitrary: fc
    .tuple(fc.nat({ max: 9 }), fc.constantFrom('own' as const, 'own' as const, 'own' as const, 'web' as const))
    .map(([b, from]) => new CreateOnHoldOffer(b, from)),
  drives: {
    'booking:OFFER_ON_HOLD': () => [new CreateOnHoldOffer(0, 'own')],
    'aftersalesOffer:xstate.init': () => [...agentBooking(), new CreateOnHoldOffer(0, 'own')],
  },
};
