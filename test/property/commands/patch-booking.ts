import fc from 'fast-check';
import { ApiCommand, type CommandSpec } from '../../helpers/model-command.ts';
import { bookingProblems } from '../../helpers/model-invariants.ts';
import { bookingMachine, bookingRefusal, fire, foundExpired, pick, ref, type Model, type ModelBooking } from '../../helpers/model.ts';
import type { System } from '../../helpers/model-system.ts';

type Change = 'payment' | 'voucher' | 'place' | 'unknown-reservation';

/** A WINDOW preference for the booking's first reservation, its passengers named by id (spec §2.7 rule 2). */
const placeSelection = (b: ModelBooking) => {
  const reservation = b.reservations[0]!;
  return {
    reservationId: ref(reservation),
    tripLegCoverage: ref(`${reservation}Leg`),
    accommodations: [
      {
        passengerRefs: b.passengers.map((p) => ref(p.id)),
        accommodationType: ref(`${reservation}Type`),
        accommodationSubType: 'ANY_SEAT',
        placeProperties: ['WINDOW'],
      },
    ],
  };
};

/**
 * PATCH /v3/bookings/{id} (spec §4.1 rule 2, §2.10 rule 1; CONTRACT §4b): a payment method is appended
 * (ADD_PAYMENT, also once confirmed); a voucher is not supported yet (501, whatever the state); a place
 * selection is kept on its reservation while provisional (PATCH_PLACES), one naming no reservation of the
 * booking is 400 86001.
 */
export class PatchBooking extends ApiCommand {
  readonly booking: number;
  readonly change: Change;
  constructor(booking: number, change: Change) {
    super();
    this.booking = booking;
    this.change = change;
  }

  private targets(m: Readonly<Model>) {
    return this.change === 'place' ? m.bookings.filter((b) => b.reservations.length > 0) : m.bookings;
  }

  check(m: Readonly<Model>) {
    return this.targets(m).length > 0;
  }

  protected async act(m: Model, s: System) {
    const b = pick(this.targets(m), this.booking)!;
    const transactionId = `tx-${++m.sequence}`;
    const body =
      this.change === 'payment'
        ? { usedPaymentMethods: [{ type: 'CARD', transactionId }] }
        : this.change === 'voucher'
          ? { usedPaymentMethods: [{ type: 'VOUCHER' }] }
          : {
              placeSelections: [
                this.change === 'place' ? placeSelection(b) : { reservationId: 'part-0', tripLegCoverage: { tripId: 'trip-0', legId: 'leg-0' } },
              ],
            };
    const request = { name: `patch ${b.id}: ${this.change}`, method: 'patch' as const, path: `/v3/bookings/${ref(b.id)}`, body };
    if (this.change === 'voucher') {
      await s.send({ ...request, expect: { status: 501, body: { code: 'X_NOT_SUPPORTED' } } });
      return;
    }
    const event = this.change === 'payment' ? 'ADD_PAYMENT' : 'PATCH_PLACES';
    const refusal = bookingRefusal(m, b, event);
    if (refusal) {
      await s.send({ ...request, expect: refusal });
      if (refusal.body.code === 'X_BOOKING_EXPIRED') foundExpired(m, b);
      return;
    }
    if (this.change === 'unknown-reservation') {
      await s.send({ ...request, expect: { status: 400, body: { code: '86001', pointers: [{ requestPointer: '#/placeSelections/0/reservationId' }] } } });
      return;
    }
    const kept =
      this.change === 'payment'
        ? { paymentMethods: { $contains: [{ type: 'CARD', transactionId }] } }
        : {
            bookedOffers: [
              { reservations: { $contains: [{ id: ref(b.reservations[0]!), placeSelection: { accommodations: [{ placeProperties: ['WINDOW'] }] } }] } },
            ],
          };
    const res = await s.send({ ...request, expect: { status: 200, body: { booking: { id: ref(b.id), ...kept } } } });
    fire(m, bookingMachine, b, event);
    const broken = bookingProblems(m, b, res.body.booking);
    if (broken.length > 0) throw s.violation(broken.join('\n  '), res);
  }

  toString() {
    return `PatchBooking(booking #${this.booking}, ${this.change})`;
  }
}

export const spec: CommandSpec = {
  name: 'PatchBooking',
  arbitrary: fc
    .tuple(fc.nat({ max: 9 }), fc.constantFrom<Change>('payment', 'payment', 'place', 'place', 'voucher', 'unknown-reservation'))
    .map(([b, change]) => new PatchBooking(b, change)),
  drives: {
    'booking:ADD_PAYMENT': () => [new PatchBooking(0, 'payment')],
    'booking:PATCH_PLACES': () => [new PatchBooking(0, 'place')],
  },
};
