import fc from 'fast-check';
import { ApiCommand, type CommandSpec } from '../../helpers/model-command.ts';
import { bookingMachine, bookingRefusal, fire, foundExpired, pick, ref, type Model } from '../../helpers/model.ts';
import type { System } from '../../helpers/model-system.ts';

/**
 * PATCH /v3/bookings/{id}/passengers/{passengerId} (spec §2.7 rules 3, 5; CONTRACT §4b, §6): complete
 * details replace the old ones while the booking is provisional; after confirmation 409 X_BOOKING_STATE,
 * after the time limit 409 X_BOOKING_EXPIRED; incomplete details 400 86001; an unknown passenger 404.
 */
export class PatchPassenger extends ApiCommand {
  constructor(readonly booking: number, readonly passenger: number, readonly variant: 'complete' | 'without-last-name' | 'unknown-passenger') { super(); }

  check(m: Readonly<Model>) { return m.bookings.length > 0; }

  protected async act(m: Model, s: System) {
    const b = pick(m.bookings, this.booking)!;
    const p = b.passengers[this.passenger % b.passengers.length]!;
    const path = `/v3/bookings/${ref(b.id)}/passengers/${this.variant === 'unknown-passenger' ? 'passenger-0' : ref(p.id)}`;
    const detail = this.variant === 'without-last-name' ? { firstName: 'Patched' } : { firstName: 'Patched', lastName: 'Testsson' };
    const request = { name: `patch ${this.variant === 'unknown-passenger' ? 'an unknown passenger' : p.id} of ${b.id} (${this.variant})`, method: 'patch' as const, path, body: { detail } };

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
  }

  toString() { return `PatchPassenger(booking #${this.booking}, passenger #${this.passenger}, ${this.variant})`; }
}

export const spec: CommandSpec = {
  name: 'PatchPassenger',
  weight: 2,
  arbitrary: fc.tuple(fc.nat({ max: 9 }), fc.nat({ max: 8 }), fc.constantFrom('complete' as const, 'complete' as const, 'without-last-name' as const, 'unknown-passenger' as const))
    .map(([b, p, variant]) => new PatchPassenger(b, p, variant)),
  drives: { 'booking:PATCH_PASSENGER': () => [new PatchPassenger(0, 0, 'complete')] },
};
