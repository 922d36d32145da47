import fc from 'fast-check';
import { ApiCommand, type CommandSpec } from '../../helpers/model-command.ts';
import { pick, ref, type Model } from '../../helpers/model.ts';
import type { System } from '../../helpers/model-system.ts';
import { fixtureTrip } from '../../helpers/model-trips.ts';
import { PURCHASER } from './book.ts';

/**
 * A field the request schema does not know, at the top of an offer or booking request or inside a
 * passenger → 400 86001 with a pointer naming it (CONTRACT §5), even when the rest would be accepted.
 */
export class UnknownField extends ApiCommand {
  readonly request: 'offers' | 'booking';
  readonly where: 'top' | 'passenger';
  readonly field: string;
  constructor(request: 'offers' | 'booking', where: 'top' | 'passenger', field: string) {
    super();
    this.request = request;
    this.where = where;
    this.field = field;
  }

  check() {
    return true;
  }

  protected async act(m: Model, s: System) {
    const extra = { [this.field]: 'surprise' };
    const passenger = { externalRef: 'p1', type: 'PERSON', age: 35, ...(this.where === 'passenger' ? extra : {}) };
    const top = this.where === 'top' ? extra : {};
    const pointer =
      this.where === 'top'
        ? `#/${this.field}`
        : `#/${this.request === 'offers' ? 'anonymousPassengerSpecifications' : 'passengerSpecifications'}/0/${this.field}`;
    // A real offer when there is one: the unknown field alone must be the reason.
    const offer = pick(m.offers, 0);
    const body =
      this.request === 'offers'
        ? { tripSpecifications: [fixtureTrip('sto-gbg-0800')], anonymousPassengerSpecifications: [passenger], ...top }
        : {
            externalRef: `model-${++m.sequence}`,
            offers: [{ offerId: offer ? ref(offer.id) : 'no-such-offer', passengerRefs: ['p1'] }],
            passengerSpecifications: [{ ...passenger, detail: { firstName: 'Passenger1', lastName: 'Testsson' } }],
            purchaser: PURCHASER,
            ...top,
          };
    await s.send({
      name: `an unknown field ${this.field} in a ${this.request} request`,
      method: 'post',
      path: this.request === 'offers' ? '/v3/offers' : '/v3/booking',
      body,
      expect: { status: 400, body: { code: '86001', pointers: { $contains: [{ requestPointer: pointer }] } } },
    });
  }

  toString() {
    return `UnknownField(${this.request}, ${this.where}, ${this.field})`;
  }
}

export const spec: CommandSpec = {
  name: 'UnknownField',
  arbitrary: fc
    .tuple(
      fc.constantFrom('offers' as const, 'booking' as const),
      fc.constantFrom('top' as const, 'passenger' as const),
      fc.constantFrom('foo', 'bookingId', 'x_extra', 'passengerType', 'seat'),
    )
    .map(([request, where, field]) => new UnknownField(request, where, field)),
};
