import type { FastifyInstance } from 'fastify';
import { phrase, RuleViolation, type AvailabilityKind } from '../../../engine/index.ts';
import { answer } from '../answer.ts';

/**
 * Seat availability under /v3 (spec §2.11, §4.1 rule 3, CONTRACT §6): counts, available places and the place
 * map for an offer's reservation offer part or a booking's reservation; coach layouts by id.
 */
export async function availabilityRoutes(app: FastifyInstance) {
  const { service } = app;
  const kinds: Array<[string, AvailabilityKind]> = [['/availabilities', 'counts'], ['/availabilities/preferences', 'preferences'], ['/availabilities/place-map', 'place-map']];
  for (const [path, kind] of kinds) {
    app.get(path, async (request, reply) => {
      const requestor = await app.requestorOf(request);
      return answer(request, reply, await service.availability(requestor, kind, request.query ?? {}));
    });
  }

  app.get<{ Params: { layoutId: string } }>('/coach-layouts/:layoutId', async (request, reply) => {
    await app.requestorOf(request);
    const body = service.engine.coachLayout(request.params.layoutId);
    // Spec §4.1 rule 3: an unknown coach layout id.
    if (!body) throw new RuleViolation('RESOURCE_NOT_FOUND', { resource: phrase('resource-coach-layout'), id: request.params.layoutId });
    return reply.send(body);
  });
}
