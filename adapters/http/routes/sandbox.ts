import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { IsoDuration } from '../../../engine/rules/schemas.ts';
import { DATE_TIME_WITH_OFFSET, durationMs, isRealInstant } from '../../../engine/rules/time.ts';
import { phrase, RuleViolation } from '../../../engine/index.ts';
import { parseRequest } from '../../../engine/rules/validate.ts';
import type { Clock } from '../../clock.ts';

/** Sandbox controls (CONTRACT §8), registered only with --sandbox. */
/**
 * `freeze: true` (our addition to CONTRACT §8) stops the clock at that instant until the next change
 * without it, so a scenario run against a live server sees the exact instants it sees in-process.
 */
export const ClockChange = z.union([
  z.strictObject({ now: z.string().regex(DATE_TIME_WITH_OFFSET, { error: 'an ISO 8601 date-time with offset', abort: true }).refine(isRealInstant, 'not a real instant (a day, hour or offset out of range)'), freeze: z.boolean().optional() }),
  z.strictObject({ advance: IsoDuration, freeze: z.boolean().optional() }),
]);

/**
 * Spec §4.1 rule 8: the operator may give a booking an after-sales override profile, after which ordinary refund
 * and exchange requests succeed without overrule codes, even for non-refundable, non-exchangeable tickets. The
 * operator's own tools set it; in the sandbox this control does (our addition to CONTRACT §8).
 */
export const AfterSalesOverrideChange = z.strictObject({
  afterSalesOverride: z.boolean().describe('true: the booking may be refunded in full and exchanged whatever its tickets allow.'),
});

/** 10000-01-01T00:00:00Z: from here on toISOString() writes a six-digit year no date-time pattern accepts. */
const LAST_WRITABLE_INSTANT = Date.UTC(10000, 0, 1);

export const sandboxRoutes = (clock: Clock) => async (app: FastifyInstance) => {
  app.get('/clock', async () => ({ now: clock.now().toISOString() }));
  app.post('/clock', async (request) => {
    const change = parseRequest(ClockChange, request.body);
    // The clock moves only to an instant every date in the engine can be written as (years 1970–9999); a refused
    // change leaves it where it was.
    const next = 'now' in change ? Date.parse(change.now) : clock.now().getTime() + durationMs(change.advance);
    if (!(next >= 0 && next < LAST_WRITABLE_INSTANT)) {
      throw new RuleViolation('86001', { reason: phrase('clock-out-of-range') }, [{ requestPointer: 'now' in change ? '#/now' : '#/advance' }]);
    }
    if ('now' in change) clock.set!(new Date(next));
    else clock.advance!(change.advance);
    clock.freeze?.(change.freeze === true);
    return { now: clock.now().toISOString(), frozen: change.freeze === true };
  });
  app.put<{ Params: { bookingId: string } }>('/bookings/:bookingId/after-sales-override', async (request) => {
    const { afterSalesOverride } = parseRequest(AfterSalesOverrideChange, request.body);
    await app.service.setAfterSalesOverride(request.params.bookingId, afterSalesOverride);
    return { bookingId: request.params.bookingId, afterSalesOverride };
  });
  app.post('/reset', async () => {
    await app.service.store.reset();
    return { status: 'reset' };
  });
};
