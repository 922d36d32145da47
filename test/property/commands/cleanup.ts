import fc from 'fast-check';
import { ApiCommand, type CommandSpec } from '../../helpers/model-command.ts';
import { bookingMachine, busy, fire, fireFulfillment, fulfillmentsIn, pick, settleOperations, type Model } from '../../helpers/model.ts';
import type { System } from '../../helpers/model-system.ts';
import { bookingPath, problem } from './_aftersales.ts';

const HOUR = 3_600_000;

/**
 * POST /v3/bookings/{id}/cleanup (spec §4.1 rule 12, rules/cleanup.yaml): OSDM 3.4 asked for (else 406),
 * no overrule code (86042), a confirmed booking (X_BOOKING_STATE), within 60 minutes of confirmation
 * (X_CLEANUP_WINDOW_PASSED); then 202: every live fulfillment REFUNDED, the booking CANCELLED.
 */
export class Cleanup extends ApiCommand {
  readonly booking: number;
  readonly version: '3.4' | 'default';
  readonly withCode: boolean;
  constructor(booking: number, version: '3.4' | 'default', withCode: boolean) {
    super();
    this.booking = booking;
    this.version = version;
    this.withCode = withCode;
  }

  check(m: Readonly<Model>) {
    return m.bookings.length > 0;
  }

  protected async act(m: Model, s: System) {
    const b = pick(m.bookings, this.booking)!;
    settleOperations(m, b);
    const request = {
      name: `clean up ${b.id} (${this.version}${this.withCode ? ', overrule code' : ''})`,
      method: 'post' as const,
      path: bookingPath(b, '/cleanup'),
      salesApplication: b.salesApplication,
      ...(this.version === '3.4' ? { headers: { accept: 'application/json; version=3.4' } } : {}),
      body: this.withCode ? { overruleCode: 'DISRUPTION' } : {},
    };
    const code =
      this.version !== '3.4'
        ? 'X_VERSION_NOT_ACCEPTABLE'
        : this.withCode
          ? '86042'
          : b.state !== 'FULFILLED'
            ? 'X_BOOKING_STATE'
            : m.now > b.confirmedAt! + HOUR
              ? 'X_CLEANUP_WINDOW_PASSED'
              : // Spec §4.1 rule 10: not while a refund, release or exchange is under way.
                busy(m, b)
                ? 'X_CONCURRENT_AFTERSALES'
                : undefined;
    if (code) {
      await s.send({ ...request, expect: problem(code) });
      return;
    }
    await s.send({ ...request, expect: { status: 202 } });
    fire(m, bookingMachine, b, 'CLEANUP');
    for (const f of fulfillmentsIn(b, 'FULFILLED', 'RELEASED')) fireFulfillment(m, b, f, 'REFUND');
  }

  toString() {
    return `Cleanup(booking #${this.booking}, ${this.version}${this.withCode ? ', with overrule code' : ''})`;
  }
}

export const spec: CommandSpec = {
  name: 'Cleanup',
  arbitrary: fc
    .tuple(fc.nat({ max: 9 }), fc.constantFrom('3.4' as const, '3.4' as const, 'default' as const), fc.constantFrom(false, false, true))
    .map(([b, v, c]) => new Cleanup(b, v, c)),
  drives: { 'booking:CLEANUP': () => [new Cleanup(0, '3.4', false)] },
};
