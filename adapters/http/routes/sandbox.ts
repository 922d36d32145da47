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

export const sandboxRoutes = (clock: Clock) => async (app: FastifyInstance) => {
  app.get('/clock', async () => ({ now: clock.now().toISOString() }));
  app.post('/clock', async (request) => {
    const change = parseRequest(ClockChange, request.body);
    if ('now' in change) clock.set!(new Date(change.now));
    else clock.advance!(change.advance);
    clock.freeze?.(change.freeze === true);
    return { now: clock.now().toISOString(), frozen: change.freeze === true };
  });
  app.post('/reset', async () => {
    await app.service.store.reset();
    return { status: 'reset' };
  });
};
