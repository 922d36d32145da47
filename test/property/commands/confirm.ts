import fc from 'fast-check';
import { ApiCommand, type CommandSpec } from '../../helpers/model-command.ts';
import { readBooking } from '../../helpers/model-invariants.ts';
import {
  bookingMachine,
  bookingPartMachine,
  bookingRefusal,
  bookingStateAt,
  enter,
  exchangeMachine,
  fire,
  fireFulfillment,
  foundExpired,
  fulfillmentMachine,
  isComplete,
  isLiveOperation,
  pick,
  ref,
  settleOperations,
  type Model,
  type ModelBooking,
} from '../../helpers/model.ts';
import type { System } from '../../helpers/model-system.ts';
import { AdvanceClock } from './advance-clock.ts';
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
  readonly booking: number;
  readonly form: 'fulfillment' | 'fulfillments';
  constructor(booking: number, form: 'fulfillment' | 'fulfillments') {
    super();
    this.booking = booking;
    this.form = form;
  }

  check(m: Readonly<Model>) {
    return m.bookings.length > 0;
  }

  protected async act(m: Model, s: System) {
    const b = pick(m.bookings, this.booking)!;
    const state = bookingStateAt(m, b);
    const path = `/v3/bookings/${ref(b.id)}/${this.form}`;
    const done = this.form === 'fulfillment' ? { status: 202 } : { status: 200, body: { fulfillments: { $length: { min: 1 } } } };

    if (state === 'FULFILLED') {
      // Spec §3: on a confirmed booking the same call confirms a pre-booked exchange (one past its lifetime is settled first).
      settleOperations(m, b);
      const op = m.operations.find((o) => o.booking === b.id && isLiveOperation(m, o));
      if (op) {
        await s.send({ name: `confirm ${b.id}'s exchange ${op.id}`, method: 'post', path, expect: done });
        fire(m, exchangeMachine, op, 'CONFIRM');
        for (const f of op.fulfillments) fireFulfillment(m, b, f, 'EXCHANGE');
        b.exchanged = true;
        // The new journey's parts are booked and confirmed with the operation.
        fire(m, bookingPartMachine, { state: enter(m, bookingPartMachine) }, 'CONFIRM');
        await this.learnFulfillments(m, s, b);
        return;
      }
      const again = this.form === 'fulfillment' ? { status: 202 } : { status: 200, body: { fulfillments: b.fulfillments.map((f) => ({ id: ref(f) })) } };
      await s.send({ name: `confirm ${b.id} again`, method: 'post', path, expect: again });
      return;
    }
    // In the engine's order (engine/booking/lifecycle.ts): expiry, then missing data, then the machine.
    if (state === 'EXPIRED') {
      await s.send({ name: `confirm ${b.id} too late`, method: 'post', path, expect: { status: 409, body: { code: 'X_BOOKING_EXPIRED' } } });
      foundExpired(m, b);
      return;
    }
    if (!isComplete(b)) {
      await s.send({
        name: `confirm ${b.id} with data missing`,
        method: 'post',
        path,
        expect: { status: 400, body: { code: 'X_BOOKING_INCOMPLETE', pointers: { $length: { min: 1 } } } },
      });
      return;
    }
    const refusal = bookingRefusal(m, b, 'CONFIRM');
    if (refusal) {
      await s.send({ name: `confirm ${b.id}, ${b.state}`, method: 'post', path, expect: refusal });
      return;
    }
    await s.send({ name: `confirm ${b.id}`, method: 'post', path, expect: done });
    fire(m, bookingMachine, b, 'CONFIRM');
    fire(m, bookingPartMachine, b.parts, 'CONFIRM');
    b.confirmedAt = m.now;
    await this.learnFulfillments(m, s, b);
  }

  /**
   * Spec §4.1 rule 1: the fulfillment ids are found by reading the booking. Those known already must come
   * first and unchanged (an exchange adds the new trip's); the new ones get variables.
   */
  private async learnFulfillments(m: Model, s: System, b: ModelBooking) {
    const known = b.fulfillments;
    b.fulfillments = [];
    const res = await readBooking(m, s, b, { name: `read ${b.id}'s fulfillments` });
    const ids = (res.body.booking.fulfillments as Array<{ id: string }>).map((f) => f.id);
    known.forEach((f, i) => {
      if (ids[i] !== s.vars[f])
        throw s.violation(`${b.id}'s fulfillment ${i + 1} was ${String(s.vars[f])} and is now ${ids[i]}: issued fulfillments never change`, res);
    });
    b.fulfillments = ids.map((_, i) => {
      if (i < known.length) return known[i]!;
      enter(m, fulfillmentMachine);
      const f = `${b.id}Fulfillment${i + 1}`;
      s.save(f, `booking.fulfillments[${i}].id`);
      return f;
    });
  }

  toString() {
    return `Confirm(booking #${this.booking}, /${this.form})`;
  }
}

export const spec: CommandSpec = {
  name: 'Confirm',
  weight: 5,
  arbitrary: fc.tuple(fc.nat({ max: 9 }), fc.constantFrom('fulfillment' as const, 'fulfillments' as const)).map(([b, form]) => new Confirm(b, form)),
  drives: {
    'booking:CONFIRM': () => [new Confirm(0, 'fulfillment')],
    // Expiry is found by the next operation from the time limit on (the engine checks it lazily): here at the very minute.
    'booking:EXPIRE': () => [new PassTimeLimit('booking', 0, 0), new Confirm(0, 'fulfillments')],
    // The booking's fulfillment call confirms its pre-booked exchange; past the operation's lifetime it settles it EXPIRED instead.
    'exchangeOperation:CONFIRM': () => [new Confirm(0, 'fulfillment')],
    'exchangeOperation:EXPIRE': () => [new AdvanceClock(61), new Confirm(0, 'fulfillment')],
    'bookingPart:CONFIRM': () => [new Confirm(0, 'fulfillment')],
    // The pre-booked exchange's original parts are EXCHANGED when the booking's fulfillment call confirms it.
    'bookingPart:EXCHANGE': () => [new Confirm(0, 'fulfillment')],
  },
};
