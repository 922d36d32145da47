import type { FastifyInstance } from 'fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { phrase, RuleViolation, type AftersalesCommand } from '../../../engine/index.ts';
import { parseRequest } from '../../../engine/rules/validate.ts';
import { OnHoldOfferPatchRequest } from '../../../engine/model/osdm/aftersales-requests.ts';
import { answer } from '../answer.ts';
import { statusOf } from '../outcomes.ts';
import { osdmVersionNumber } from '../version.ts';

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

  // Spec §4.1 rule 2, §2.10 rule 1: place selections and payment methods.
  app.patch<WithId>('/bookings/:bookingId', async (request, reply) => {
    const requestor = await app.requestorOf(request);
    const decided = await service.patchBooking(requestor, request.params.bookingId, request.body);
    return answer(request, reply, { value: service.engine.renderBooking(decided.value, requestor.language), traces: decided.traces });
  });

  type WithPassenger = { Params: { bookingId: string; passengerId: string } };
  app.get<WithPassenger>('/bookings/:bookingId/passengers/:passengerId', async (request, reply) => {
    const requestor = await app.requestorOf(request);
    const booking = await service.booking(requestor, request.params.bookingId);
    const body = service.engine.renderPassenger(booking, request.params.passengerId, requestor.language);
    if (!body) throw new RuleViolation('RESOURCE_NOT_FOUND', { resource: phrase('resource-passenger'), id: request.params.passengerId });
    return reply.send(body);
  });
  app.patch<WithPassenger>('/bookings/:bookingId/passengers/:passengerId', async (request, reply) => {
    const requestor = await app.requestorOf(request);
    const decided = await service.patchPassenger(requestor, request.params.bookingId, request.params.passengerId, request.body);
    return answer(request, reply, { value: service.engine.renderPassenger(decided.value, request.params.passengerId, requestor.language), traces: decided.traces });
  });

  app.get<WithId>('/bookings/:bookingId/purchaser', async (request, reply) => {
    const requestor = await app.requestorOf(request);
    const body = service.engine.renderPurchaser(await service.booking(requestor, request.params.bookingId), requestor.language);
    if (!body) throw new RuleViolation('RESOURCE_NOT_FOUND', { resource: phrase('resource-purchaser'), id: request.params.bookingId });
    return reply.send(body);
  });
  app.patch<WithId>('/bookings/:bookingId/purchaser', async (request, reply) => {
    const requestor = await app.requestorOf(request);
    const decided = await service.patchPurchaser(requestor, request.params.bookingId, request.body);
    return answer(request, reply, { value: service.engine.renderPurchaser(decided.value, requestor.language), traces: decided.traces });
  });

  // Aftersales (spec §3, §4.1 rules 5, 6, 11, 12; CONTRACT §6), one route shape per offer kind.
  type WithOffer = { Params: { bookingId: string; offerId: string } };
  const run = async (request: FastifyRequest<{ Params: { bookingId: string } }>, reply: FastifyReply, command: AftersalesCommand) => {
    const requestor = await app.requestorOf(request);
    const decided = await service.aftersales(requestor, request.params.bookingId, command);
    request.traces = decided.traces;
    return reply.status(statusOf(decided.value.outcome)).send(decided.value.response);
  };
  for (const kind of ['refund-offer', 'release-offer'] as const) {
    app.post<WithId>(`/bookings/:bookingId/${kind}s`, (request, reply) => run(request, reply, { kind, action: 'create', body: request.body }));
    app.get<WithOffer>(`/bookings/:bookingId/${kind}s/:offerId`, (request, reply) => run(request, reply, { kind, action: 'read', id: request.params.offerId }));
    app.patch<WithOffer>(`/bookings/:bookingId/${kind}s/:offerId`, (request, reply) => run(request, reply, { kind, action: 'confirm', id: request.params.offerId, body: request.body }));
    app.delete<WithOffer>(`/bookings/:bookingId/${kind}s/:offerId`, (request, reply) => run(request, reply, { kind, action: 'delete', id: request.params.offerId }));
  }
  // OSDM: the on-hold offer path is singular; PATCH {} confirms it.
  app.post<WithId>('/bookings/:bookingId/on-hold-offer', (request, reply) => run(request, reply, { kind: 'on-hold-offer', action: 'create', body: request.body ?? {} }));
  app.patch<WithOffer>('/bookings/:bookingId/on-hold-offer/:offerId', (request, reply) => {
    parseRequest(OnHoldOfferPatchRequest, request.body ?? {});
    return run(request, reply, { kind: 'on-hold-offer', action: 'confirm', id: request.params.offerId });
  });
  app.delete<WithOffer>('/bookings/:bookingId/on-hold-offer/:offerId', (request, reply) => run(request, reply, { kind: 'on-hold-offer', action: 'delete', id: request.params.offerId }));
  // Exchange (spec §3, §4.1 rule 7): offers, then an operation; the booking's fulfillment call confirms it.
  app.post<WithId>('/bookings/:bookingId/exchange-offers', async (request, reply) => {
    const requestor = await app.requestorOf(request);
    return answer(request, reply, await service.exchangeOffers(requestor, request.params.bookingId, request.body));
  });
  app.post<WithId>('/bookings/:bookingId/exchange-operations', async (request, reply) => {
    const requestor = await app.requestorOf(request);
    return answer(request, reply, await service.exchangeOperation(requestor, request.params.bookingId, request.body));
  });
  app.get<WithOffer>('/bookings/:bookingId/exchange-operations/:offerId', (request, reply) => run(request, reply, { kind: 'exchange-operation', action: 'read', id: request.params.offerId }));
  app.patch<WithOffer>('/bookings/:bookingId/exchange-operations/:offerId', (request, reply) => run(request, reply, { kind: 'exchange-operation', action: 'patch', id: request.params.offerId, body: request.body ?? {} }));
  app.delete<WithOffer>('/bookings/:bookingId/exchange-operations/:offerId', (request, reply) => run(request, reply, { kind: 'exchange-operation', action: 'delete', id: request.params.offerId }));
  app.post<WithId>('/bookings/:bookingId/cleanup', (request, reply) => run(request, reply, { kind: 'cleanup', body: request.body, osdmVersion: osdmVersionNumber(request.osdmVersion) }));

  // Spec §4.1 "Unsupported": adding offers to a booking. A travel pass offer gets its own code (§4.2 rule 1, 86007).
  app.post<WithId>('/bookings/:bookingId/booked-offers', async (request) => {
    const requestor = await app.requestorOf(request);
    await service.booking(requestor, request.params.bookingId);
    const offers = (request.body as { offers?: unknown } | undefined)?.offers;
    const offerIds = Array.isArray(offers) ? offers.map((o: { offerId?: unknown } | null) => String(o?.offerId)) : [];
    const stored = await service.store.getOffers(offerIds);
    if ([...stored.values()].some((o) => o.pass && o.owner === requestor.client)) throw new RuleViolation('86007', {}, [{ requestPointer: '#/offers' }]);
    throw new RuleViolation('X_NOT_SUPPORTED', { feature: phrase('feature-adding-offers') });
  });
  for (const path of ['/bookings/:bookingId/booked-offers/*', '/availabilities/nearby']) {
    app.all(path, async () => { throw new RuleViolation('X_NOT_SUPPORTED', { feature: phrase(path.startsWith('/availabilities') ? 'feature-nearby-availabilities' : 'feature-booked-offers') }); });
  }

  app.get<{ Params: { fulfillmentId: string } }>('/fulfillments/:fulfillmentId', async (request, reply) => {
    const requestor = await app.requestorOf(request);
    return reply.send(await service.fulfillment(requestor, request.params.fulfillmentId));
  });
}

