import fc from 'fast-check';
import { ApiCommand, type CommandSpec } from '../../helpers/model-command.ts';
import { isBookable, pick, ref, type Model } from '../../helpers/model.ts';
import type { System } from '../../helpers/model-system.ts';
import { PURCHASER } from './book.ts';

/** Booking an offer past its preBookableUntil → 409 X_OFFER_EXPIRED (CONTRACT §4a, §5); no booking is made. */
export class BookExpiredOffer extends ApiCommand {
  readonly offer: number;
  constructor(offer: number) {
    super();
    this.offer = offer;
  }

  check(m: Readonly<Model>) {
    return m.offers.some((o) => !isBookable(m, o));
  }

  protected async act(m: Model, s: System) {
    const offer = pick(
      m.offers.filter((o) => !isBookable(m, o)),
      this.offer,
    )!;
    await s.send({
      name: `book ${offer.id}, expired`,
      method: 'post',
      path: '/v3/booking',
      body: {
        externalRef: `model-${++m.sequence}`,
        offers: [{ offerId: ref(offer.id), passengerRefs: offer.passengers.map((p) => p.ref) }],
        passengerSpecifications: offer.passengers.map((p, i) => ({
          externalRef: p.ref,
          type: 'PERSON',
          detail: { firstName: `Passenger${i + 1}`, lastName: 'Testsson' },
        })),
        purchaser: PURCHASER,
      },
      expect: { status: 409, body: { code: 'X_OFFER_EXPIRED', pointers: [{ requestPointer: '#/offers/0/offerId' }] } },
    });
  }

  toString() {
    return `BookExpiredOffer(offer #${this.offer})`;
  }
}

export const spec: CommandSpec = {
  name: 'BookExpiredOffer',
  arbitrary: fc.nat({ max: 9 }).map((o) => new BookExpiredOffer(o)),
};
