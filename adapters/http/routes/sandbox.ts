import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { IsoDuration } from '../../../engine/rules/schemas.ts';
import { DATE_TIME_WITH_OFFSET } from '../../../engine/time.ts';
import { parseRequest } from '../../../engine/validate.ts';
import type { Clock } from '../../clock.ts';

/** Sandbox controls (CONTRACT §8), registered only with --sandbox. */
export const ClockChange = z.union([
  z.strictObject({ now: z.string().regex(DATE_TIME_WITH_OFFSET, 'an ISO 8601 date-time with offset') }),
  z.strictObject({ advance: IsoDuration }),
]);

export const sandboxRoutes = (clock: Clock) => async (app: FastifyInstance) => {
  app.get('/clock', async () => ({ now: clock.now().toISOString() }));
  app.post('/clock', async (request) => {
    const change = parseRequest(ClockChange, request.body);
    if ('now' in change) clock.set!(new Date(change.now));
    else clock.advance!(change.advance);
    return { now: clock.now().toISOString() };
  });
  app.post('/reset', async () => {
    await app.service.store.reset();
    return { status: 'reset' };
  });
};
