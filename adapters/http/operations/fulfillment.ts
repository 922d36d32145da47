import { asPendingFulfillment } from '../../service/faults.ts';
import * as S from '../openapi/schemas.ts';
import { bodiless, json, noContent, operation, releaseOf, type Operation } from './operation.ts';

/** Confirmation and tickets (spec §4.1 rule 1). */
export const fulfillment: Operation[] = [
  operation({
    method: 'POST',
    path: '/v3/bookings/{bookingId}/fulfillment',
    osdm: ['postFulfillments'],
    summary: 'Confirm a booking (operator form)',
    section: 'spec §4.1 rule 1, CONTRACT §6',
    tag: 'Fulfillment',
    access: 'reseller',
    description: 'Answers 202 with an empty body; poll GET /v3/bookings/{bookingId} for the fulfillment ids. Also confirms a pending exchange.',
    responses: { 202: noContent },
    problems: { 400: 'X_BOOKING_INCOMPLETE with pointers to what is missing', 409: 'X_BOOKING_EXPIRED, X_BOOKING_STATE' },
    // Spec §4.1: the operator's form answers 202 with an empty body; the fulfillment id is on GET booking.
    handle: async ({ request, service, requestor, params }) => {
      return bodiless(await service.confirm(await requestor(), params.bookingId, request.faults ?? {}));
    },
  }),
  operation({
    method: 'POST',
    path: '/v3/bookings/{bookingId}/fulfillments',
    osdm: ['postFulfillments'],
    summary: 'Confirm a booking (OSDM form)',
    section: 'CONTRACT §6',
    tag: 'Fulfillment',
    access: 'reseller',
    responses: { 200: json('FulfillmentCollectionResponse: fulfillment is synchronous here.', S.FulfillmentCollectionResponse), 202: noContent },
    problems: { 400: 'X_BOOKING_INCOMPLETE', 409: 'X_BOOKING_EXPIRED, X_BOOKING_STATE' },
    // The OSDM form (CONTRACT §6): fulfillment here is synchronous, so it answers 200 with the collection; 202 while
    // a sandbox's fault fulfillment-pending keeps the tickets back (OSDM's asynchronous answer).
    handle: async ({ request, service, requestor, params }) => {
      const r = await requestor();
      const confirmed = await service.confirm(r, params.bookingId, request.faults ?? {});
      if (service.fulfillmentPending(r, params.bookingId)) return { status: 202, traces: confirmed.traces, ...releaseOf(confirmed) };
      const engine = await service.engineOf(confirmed.value);
      const fulfillments = confirmed.value.fulfillments.map((f) => engine.renderFulfillment(confirmed.value, f.id, r.language)!.fulfillment);
      return { body: { fulfillments }, traces: confirmed.traces, ...releaseOf(confirmed) };
    },
  }),
  operation({
    method: 'GET',
    path: '/v3/fulfillments/{fulfillmentId}',
    osdm: ['getFulfillmentId'],
    summary: 'Read a fulfillment (the ticket)',
    section: 'spec §4.1, CONTRACT §4b',
    tag: 'Fulfillment',
    access: 'reseller',
    description: 'The ticket number is controlNumber; the Aztec payload is a BAR_CODE security feature (Base64).',
    responses: { 200: json('FulfillmentResponse', S.FulfillmentResponse) },
    handle: async ({ service, requestor, params }) => {
      const r = await requestor();
      const { value: body, ...release } = await service.fulfillment(r, params.fulfillmentId);
      const bookingId = body.fulfillment.bookingRef;
      // A sandbox's fault fulfillment-pending: confirmed, the ticket not issued yet (spec §4.1 rule 1).
      return { body: service.fulfillmentPending(r, bookingId) ? asPendingFulfillment(body) : body, ...release };
    },
  }),
];
