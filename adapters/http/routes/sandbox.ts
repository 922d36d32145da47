import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { IsoDuration } from '../../../engine/rules/schemas.ts';
import { DATE_TIME_WITH_OFFSET } from '../../../engine/time.ts';
import { parseRequest } from '../../../engine/validate.ts';
import type { Clock } from '../../clock.ts';

/** Sandbox controls (CONTRACT §8), registered only with --sandbox. */
/**
 * `freeze: true` (our addition to CONTRACT §8) stops the clock at that instant until the next change
 * without it, so a scenario run against a live server sees the exact instants it sees in-process.
 */
export const ClockChange = z.union([
  z.strictObject({ now: z.string().regex(DATE_TIME_WITH_OFFSET, 'an ISO 8601 date-time with offset'), freeze: z.boolean().optional() }),
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

export const sandboxRoutes = (clock: Clock) => async (app: FastifyInstance) => {
  app.get('/clock', async () => ({ now: clock.now().toISOString() }));
  app.post('/clock', async (request) => {
    const change = parseRequest(ClockChange, request.body);
    if ('now' in change) clock.set!(new Date(change.now));
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
