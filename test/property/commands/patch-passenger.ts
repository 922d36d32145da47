import fc from 'fast-check';
import { ApiCommand, type CommandSpec } from '../../helpers/model-command.ts';
import { bookingMachine, bookingRefusal, fire, foundExpired, pick, ref, type Model } from '../../helpers/model.ts';
import type { System } from '../../helpers/model-system.ts';

type Variant = 'complete' | 'new-age' | 'without-last-name' | 'unknown-passenger';

/**
 * PATCH /v3/bookings/{id}/passengers/{passengerId} (spec §2.7 rules 3–5; CONTRACT §4b, §6): complete
 * details replace the old ones while the booking is provisional; a new age reprices the booking (the
 * model then reads the new price: the invariants say it must still be the sum of the parts); after
 * confirmation 409 X_BOOKING_STATE, after the time limit 409 X_BOOKING_EXPIRED; incomplete details
 * 400 86001; an unknown passenger 404.
 */
export class PatchPassenger extends ApiCommand {
  readonly booking: number;
  readonly passenger: number;
  readonly variant: Variant;
  readonly age: number;
  constructor(booking: number, passenger: number, variant: Variant, age = 30) {
    super();
    this.booking = booking;
    this.passenger = passenger;
    this.variant = variant;
    this.age = age;
  }

  check(m: Readonly<Model>) {
    return m.bookings.length > 0;
  }

  protected async act(m: Model, s: System) {
    const b = pick(m.bookings, this.booking)!;
    const p = b.passengers[this.passenger % b.passengers.length]!;
    const path = `/v3/bookings/${ref(b.id)}/passengers/${this.variant === 'unknown-passenger' ? 'passenger-0' : ref(p.id)}`;
    const detail = this.variant === 'without-last-name' ? { firstName: 'Patched' } : { firstName: 'Patched', lastName: 'Testsson' };
    const body = { detail, ...(this.variant === 'new-age' ? { age: this.age } : {}) };
    const request = {
      name: `patch ${this.variant === 'unknown-passenger' ? 'an unknown passenger' : p.id} of ${b.id} (${this.variant === 'new-age' ? `age ${this.age}` : this.variant})`,
      method: 'patch' as const,
      path,
      body,
    };

    const refusal = bookingRefusal(m, b, 'PATCH_PASSENGER');
    if (refusal) {
      await s.send({ ...request, expect: refusal });
      if (refusal.body.code === 'X_BOOKING_EXPIRED') foundExpired(m, b);
      return;
    }
    if (this.variant === 'unknown-passenger') {
      await s.send({ ...request, expect: { status: 404, body: { code: 'RESOURCE_NOT_FOUND' } } });
      return;
    }
    if (this.variant === 'without-last-name') {
      await s.send({ ...request, expect: { status: 400, body: { code: '86001', pointers: [{ requestPointer: '#/detail/lastName' }] } } });
      return;
    }
    await s.send({ ...request, expect: { status: 200, body: { passenger: { id: ref(p.id), detail } } } });
    fire(m, bookingMachine, b, 'PATCH_PASSENGER');
    p.complete = true;
    if (this.variant === 'new-age') {
      // Spec §2.7 rule 4: the price follows the age; what it is, the tariff says — the model only keeps it.
      await s.send({
        name: `read ${b.id}'s price after the new age`,
        method: 'get',
        path: `/v3/bookings/${ref(b.id)}`,
        expect: { status: 200, body: { booking: { id: ref(b.id), passengers: { $contains: [{ id: ref(p.id), age: this.age }] } } } },
      });
      b.ages[this.passenger % b.passengers.length] = this.age;
      b.price = s.newVar(`${b.id}Price`);
      s.save(b.price, 'booking.provisionalPrice.amount');
    }
  }

  toString() {
    return `PatchPassenger(booking #${this.booking}, passenger #${this.passenger}, ${this.variant}${this.variant === 'new-age' ? ` ${this.age}` : ''})`;
  }
}

export const spec: CommandSpec = {
  name: 'PatchPassenger',
  weight: 2,
  arbitrary: fc
    .tuple(
      fc.nat({ max: 9 }),
      fc.nat({ max: 8 }),
      fc.constantFrom<Variant>('complete', 'complete', 'new-age', 'new-age', 'without-last-name', 'unknown-passenger'),
      fc.integer({ min: 0, max: 99 }),
    )
    .map(([b, p, variant, age]) => new PatchPassenger(b, p, variant, age)),
  drives: { 'booking:PATCH_PASSENGER': () => [new PatchPassenger(0, 0, 'complete')] },
};
