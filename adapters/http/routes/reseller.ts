import type { FastifyInstance } from 'fastify';
import { answer } from '../server.ts';

/** The Reseller API under /v3 (spec §4.1, CONTRACT §6). Each route: authenticate, call the service, answer. */
export async function resellerRoutes(app: FastifyInstance) {
  const { service } = app;
  type WithId = { Params: { bookingId: string } };

  app.post('/offers', async (request, reply) => {
    const requestor = await app.requestorOf(request);
    return answer(request, reply, await service.offers(requestor, request.body));
  });

  for (const path of ['/booking', '/bookings']) {
    app.post(path, async (request, reply) => {
      const requestor = await app.requestorOf(request);
      return answer(request, reply, await service.book(requestor, request.body));
    });
  }

  app.get<WithId>('/bookings/:bookingId', async (request, reply) => {
    const requestor = await app.requestorOf(request);
    const booking = await service.booking(requestor, request.params.bookingId);
    return reply.send(service.engine.renderBooking(booking, requestor.language));
  });

  // Spec §4.1: the operator's form answers 202 with an empty body; the fulfillment id is on GET booking.
  app.post<WithId>('/bookings/:bookingId/fulfillment', async (request, reply) => {
    const requestor = await app.requestorOf(request);
    const decided = await service.confirm(requestor, request.params.bookingId);
    request.traces = decided.traces;
    return reply.status(202).send();
  });

  // The OSDM form (CONTRACT §6): fulfillment here is synchronous, so it answers 200 with the collection.
  app.post<WithId>('/bookings/:bookingId/fulfillments', async (request, reply) => {
    const requestor = await app.requestorOf(request);
    const decided = await service.confirm(requestor, request.params.bookingId);
    const fulfillments = decided.value.fulfillments.map((f) => (service.engine.renderFulfillment(decided.value, f.id, requestor.language)!).fulfillment);
    return answer(request, reply, { value: { fulfillments }, traces: decided.traces });
  });

  app.get<{ Params: { fulfillmentId: string } }>('/fulfillments/:fulfillmentId', async (request, reply) => {
    const requestor = await app.requestorOf(request);
    return reply.send(await service.fulfillment(requestor, request.params.fulfillmentId));
  });
}
