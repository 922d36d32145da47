import fc from 'fast-check';
import { ApiCommand, type CommandSpec } from '../../helpers/model-command.ts';
import { readBooking } from '../../helpers/model-invariants.ts';
import { bookingMachine, bookingRefusal, bookingStateAt, fire, foundExpired, isComplete, pick, ref, type Model } from '../../helpers/model.ts';
import type { System } from '../../helpers/model-system.ts';
import { PassTimeLimit } from './pass-time-limit.ts';

/**
 * Confirmation (spec §3, §4.1 rule 1; CONTRACT §4b, §6), in the operator's form (`/fulfillment`, 202,
 * empty body) or the OSDM form (`/fulfillments`, 200 with the collection). The model predicts:
 *   - provisional and complete → confirmed (CONFIRM): parts FULFILLED, one fulfillment per part;
 *   - provisional, incomplete  → 400 X_BOOKING_INCOMPLETE, nothing changes;
 *   - past its time limit      → 409 X_BOOKING_EXPIRED (EXPIRE: the operation that finds it expired);
 *   - confirmed already        → the same answer again, the same fulfillments;
 *   - a state the machine does not confirm from → 409 X_BOOKING_STATE.
 */
export class Confirm extends ApiCommand {
  constructor(readonly booking: number, readonly form: 'fulfillment' | 'fulfillments') { super(); }

  check(m: Readonly<Model>) { return m.bookings.length > 0; }

  protected async act(m: Model, s: System) {
    const b = pick(m.bookings, this.booking)!;
    const state = bookingStateAt(m, b);
    const path = `/v3/bookings/${ref(b.id)}/${this.form}`;
    const done = this.form === 'fulfillment' ? { status: 202 } : { status: 200, body: { fulfillments: { $length: { min: 1 } } } };

    if (state === 'FULFILLED') {
      const again = this.form === 'fulfillment' ? { status: 202 } : { status: 200, body: { fulfillments: b.fulfillments.map((f) => ({ id: ref(f) })) } };
      await s.send({ name: `confirm ${b.id} again`, method: 'post', path, expect: again });
      return;
    }
    const refusal = bookingRefusal(m, b, 'CONFIRM');
    if (refusal && state === 'EXPIRED') {
      await s.send({ name: `confirm ${b.id} too late`, method: 'post', path, expect: refusal });
      foundExpired(m, b);
      return;
    }
    if (isComplete(b) && refusal) {
      await s.send({ name: `confirm ${b.id}, ${b.state}`, method: 'post', path, expect: refusal });
      return;
    }
    if (!isComplete(b)) {
      await s.send({ name: `confirm ${b.id} with data missing`, method: 'post', path, expect: { status: 400, body: { code: 'X_BOOKING_INCOMPLETE', pointers: { $length: { min: 1 } } } } });
      return;
    }
    await s.send({ name: `confirm ${b.id}`, method: 'post', path, expect: done });
    fire(m, bookingMachine, b, 'CONFIRM');
    // Spec §4.1 rule 1: the fulfillment ids are found by reading the booking.
    const res = await readBooking(m, s, b, { name: `read ${b.id}'s fulfillments` });
    b.fulfillments = (res.body.booking.fulfillments as unknown[]).map((_, i) => {
      const f = `${b.id}Fulfillment${i + 1}`;
      s.save(f, `booking.fulfillments[${i}].id`);
      return f;
    });
  }

  toString() { return `Confirm(booking #${this.booking}, /${this.form})`; }
}

export const spec: CommandSpec = {
  name: 'Confirm',
  weight: 5,
  arbitrary: fc.tuple(fc.nat({ max: 9 }), fc.constantFrom('fulfillment' as const, 'fulfillments' as const)).map(([b, form]) => new Confirm(b, form)),
  drives: {
    'booking:CONFIRM': () => [new Confirm(0, 'fulfillment')],
    // Expiry is found by the next operation from the time limit on (the engine checks it lazily): here at the very minute.
    'booking:EXPIRE': () => [new PassTimeLimit('booking', 0, 0), new Confirm(0, 'fulfillments')],
  },
};
