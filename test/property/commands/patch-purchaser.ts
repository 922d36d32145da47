import fc from 'fast-check';
import { ApiCommand, type CommandSpec } from '../../helpers/model-command.ts';
import { bookingMachine, bookingRefusal, fire, foundExpired, pick, ref, type Model } from '../../helpers/model.ts';
import type { System } from '../../helpers/model-system.ts';

/**
 * PATCH /v3/bookings/{id}/purchaser (spec §2.6, §2.7 rule 5; CONTRACT §4b, §6): a complete purchaser
 * replaces the old one, after confirmation too; without e-mail 400 86026; after the time limit 409.
 */
export class PatchPurchaser extends ApiCommand {
  readonly booking: number;
  readonly variant: 'complete' | 'without-email';
  constructor(booking: number, variant: 'complete' | 'without-email') {
    super();
    this.booking = booking;
    this.variant = variant;
  }

  check(m: Readonly<Model>) {
    return m.bookings.length > 0;
  }

  protected async act(m: Model, s: System) {
    const b = pick(m.bookings, this.booking)!;
    const detail = { firstName: 'Bo', lastName: 'Ek', ...(this.variant === 'complete' ? { email: 'bo.ek@example.se' } : {}), phoneNumber: '+46709876543' };
    const request = {
      name: `patch the purchaser of ${b.id} (${this.variant})`,
      method: 'patch' as const,
      path: `/v3/bookings/${ref(b.id)}/purchaser`,
      body: { detail },
    };

    const refusal = bookingRefusal(m, b, 'PATCH_PURCHASER');
    if (refusal) {
      await s.send({ ...request, expect: refusal });
      if (refusal.body.code === 'X_BOOKING_EXPIRED') foundExpired(m, b);
      return;
    }
    if (this.variant === 'without-email') {
      await s.send({ ...request, expect: { status: 400, body: { code: '86026' } } });
      return;
    }
    await s.send({
      ...request,
      expect: {
        status: 200,
        body: { purchaser: { detail: { firstName: 'Bo', lastName: 'Ek', contact: { email: 'bo.ek@example.se', phoneNumber: '+46709876543' } } } },
      },
    });
    fire(m, bookingMachine, b, 'PATCH_PURCHASER');
    b.purchaser = true;
  }

  toString() {
    return `PatchPurchaser(booking #${this.booking}, ${this.variant})`;
  }
}

export const spec: CommandSpec = {
  name: 'PatchPurchaser',
  weight: 2,
  arbitrary: fc
    .tuple(fc.nat({ max: 9 }), fc.constantFrom('complete' as const, 'complete' as const, 'without-email' as const))
    .map(([b, variant]) => new PatchPurchaser(b, variant)),
  drives: { 'booking:PATCH_PURCHASER': () => [new PatchPurchaser(0, 'complete')] },
};
