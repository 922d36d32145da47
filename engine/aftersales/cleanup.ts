import { phrase } from '../rules/violation.ts';
import { enforce, type Context } from '../model/context.ts';
import type { RuleSet } from '../rules/ruleset.ts';
import { factCatalogue } from '../rules/facts.ts';
import { isConfirmed, isStoredExpired, move } from '../state/booking-state.ts';
import { can } from '../state/machine.ts';
import { fulfillmentMachine } from '../../machines/fulfillment.ts';
import type { Booking } from '../model/records.ts';
import { parseRequest } from '../rules/validate.ts';
import { assertNoOtherOperation, moveOffer } from './offers.ts';
import { applyRefund, priceRefund } from './refund.ts';
import { CleanupRequest } from '../model/osdm/aftersales-requests.ts';
import { ticketsOf } from './tickets.ts';

/**
 * Cleanup (spec §4.1 rule 12): rolls a confirmed booking back completely within the window of
 * rules/cleanup.yaml, on the terms of its roll-back row, with no separate confirmation (OSDM 3.4).
 * `osdmVersion` is the requested version as major × 100 + minor (3.4 → 304).
 */
export function cleanupBooking(ctx: Context, booking: Booking, body: unknown, osdmVersion: number): Booking {
  const request = parseRequest(CleanupRequest, body ?? {});
  const state = booking.machine.value;
  const terms = enforce(ctx, 'cleanup', {
    bookingState: isConfirmed(state) ? 'FULFILLED' : isStoredExpired(state) ? 'EXPIRED' : 'PREBOOKED',
    overruleCodeGiven: request.overruleCode !== undefined,
    osdmVersion,
    now: ctx.now.toISOString(),
    confirmedOn: booking.confirmedOn ?? booking.createdOn,
  });
  const moved = move(ctx, booking, { type: 'CLEANUP' }, phrase('operation-cleanup'));
  // Spec §4.1 rule 10: not while a refund, release or exchange is under way.
  assertNoOtherOperation(ctx, booking);
  const tickets = ticketsOf(booking);
  const live = booking.fulfillments.filter((f) => can(fulfillmentMachine, f.status, { type: 'REFUND' }));
  const partIds = new Set(live.flatMap((f) => f.bookingPartIds));
  // The roll-back row of rules/cleanup.yaml says what is paid back; a table without one refunds nothing.
  const offer = priceRefund(
    ctx,
    booking,
    tickets,
    partIds,
    live.map((f) => f.id),
    'NONE',
    undefined,
    terms ?? { refundPercent: 0, fee: 0 },
  );
  return applyRefund(ctx, moved, moveOffer(ctx, offer, { type: 'CONFIRM' }));
}

/** An instant after every window a rule can name: asked with it, a time-bound rule says where its window ends. */
const LAST_INSTANT = '9999-12-31T23:59:59Z';

/**
 * Where a confirmed booking's cleanup window closes, as rules/cleanup.yaml words it: the `until` its rules give when
 * asked long after (the sandbox's time travel). Undefined for a booking never confirmed, or rules without an end.
 */
export function cleanupWindowEnd(rules: RuleSet, booking: Booking): string | undefined {
  if (!booking.confirmedOn) return undefined;
  const { outcome } = rules.decisions.cleanup.evaluate<{ params?: { until?: unknown } }>({
    bookingState: 'FULFILLED',
    overruleCodeGiven: false,
    // The newest version the fact admits: the window, not the version, is asked about.
    osdmVersion: factCatalogue.cleanup.shape.osdmVersion.maxValue!,
    now: LAST_INSTANT,
    confirmedOn: booking.confirmedOn,
  });
  return typeof outcome?.params?.until === 'string' ? outcome.params.until : undefined;
}
