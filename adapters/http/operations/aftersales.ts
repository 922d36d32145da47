import type { AftersalesCommand } from '../../../engine/index.ts';
import { CleanupRequest, OfferConfirmation, OnHoldOfferPatchRequest, OnHoldOfferRequest, RefundOfferRequest, ReleaseOfferRequest } from '../../../engine/model/osdm/aftersales-requests.ts';
import { ExchangeOfferRequest, ExchangeOperationPatch, ExchangeOperationRequest } from '../../../engine/aftersales/exchange.ts';
import { parseRequest } from '../../../engine/rules/validate.ts';
import * as S from '../openapi/schemas.ts';
import { statusOf } from '../outcomes.ts';
import { osdmVersionNumber } from '../version.ts';
import { decided, json, noContent, operation, type Call, type Handler, type Operation } from './operation.ts';

/** An aftersales command on the booking of the path; its outcome gives the status (outcomes.ts) (spec §3, §4.1 rules 5, 6, 11, 12; CONTRACT §6). */
const run = <P extends `/v3/bookings/{bookingId}/${string}`>(command: (call: Call<P>) => AftersalesCommand): Handler<P> => async (call) => {
  const given = command(call);
  const done = await call.service.aftersales(await call.requestor(), (call.params as Record<'bookingId', string>).bookingId, given);
  return { status: statusOf(done.value.outcome), body: done.value.response, traces: done.traces };
};

/** Refund, release, on-hold, exchange and cleanup (spec §3, §4.1 rules 5–12). */
export const aftersales: Operation[] = [
  operation({
    method: 'POST', path: '/v3/bookings/{bookingId}/refund-offers', osdm: ['postRefundOffers'],
    summary: 'Create a refund offer', section: 'spec §4.1 rule 6', tag: 'Aftersales', access: 'reseller',
    request: { schema: RefundOfferRequest, required: true },
    responses: { 200: json('RefundOfferCollectionResponse', S.RefundOfferCollectionResponse) },
    problems: { 409: 'X_CONCURRENT_AFTERSALES, X_BOOKING_STATE' },
    handle: run(({ body }) => ({ kind: 'refund-offer', action: 'create', body })),
  }),
  operation({
    method: 'GET', path: '/v3/bookings/{bookingId}/refund-offers/{refundOfferId}', osdm: ['getRefundOffers'],
    summary: 'Read a refund offer', section: 'CONTRACT §6', tag: 'Aftersales', access: 'reseller',
    responses: { 200: json('RefundOfferResponse', S.RefundOfferResponse) },
    handle: run(({ params }) => ({ kind: 'refund-offer', action: 'read', id: params.refundOfferId })),
  }),
  operation({
    method: 'PATCH', path: '/v3/bookings/{bookingId}/refund-offers/{refundOfferId}', osdm: ['patchRefundOffers'],
    summary: 'Confirm a refund offer', section: 'CONTRACT §6', tag: 'Aftersales', access: 'reseller',
    request: { schema: OfferConfirmation, required: true },
    responses: { 200: json('RefundOfferResponse', S.RefundOfferResponse) },
    problems: { 409: 'X_OFFER_EXPIRED' },
    handle: run(({ params, body }) => ({ kind: 'refund-offer', action: 'confirm', id: params.refundOfferId, body })),
  }),
  operation({
    method: 'DELETE', path: '/v3/bookings/{bookingId}/refund-offers/{refundOfferId}', osdm: ['deleteRefundOffers'],
    summary: 'Delete a refund offer', section: 'CONTRACT §6', tag: 'Aftersales', access: 'reseller',
    description: 'A confirmed refund offer cannot be deleted: 404.',
    responses: { 204: noContent },
    handle: run(({ params }) => ({ kind: 'refund-offer', action: 'delete', id: params.refundOfferId })),
  }),
  operation({
    method: 'POST', path: '/v3/bookings/{bookingId}/release-offers', osdm: ['postReleaseOffers'],
    summary: 'Create a release offer', section: 'spec §4.1 rule 5', tag: 'Aftersales', access: 'reseller',
    request: { schema: ReleaseOfferRequest, required: true },
    responses: { 200: json('ReleaseOfferCollectionResponse', S.ReleaseOfferCollectionResponse) },
    problems: { 403: 'X_OPERATION_NOT_PERMITTED', 409: 'X_CONCURRENT_AFTERSALES' },
    handle: run(({ body }) => ({ kind: 'release-offer', action: 'create', body })),
  }),
  operation({
    method: 'GET', path: '/v3/bookings/{bookingId}/release-offers/{releaseOfferId}', osdm: ['getReleaseOffer'],
    summary: 'Read a release offer', section: 'CONTRACT §6', tag: 'Aftersales', access: 'reseller',
    responses: { 200: json('ReleaseOfferResponse', S.ReleaseOfferResponse) },
    handle: run(({ params }) => ({ kind: 'release-offer', action: 'read', id: params.releaseOfferId })),
  }),
  operation({
    method: 'PATCH', path: '/v3/bookings/{bookingId}/release-offers/{releaseOfferId}', osdm: ['patchReleaseOffers'],
    summary: 'Confirm a release offer', section: 'CONTRACT §6', tag: 'Aftersales', access: 'reseller',
    request: { schema: OfferConfirmation, required: true },
    responses: { 200: json('ReleaseOfferResponse', S.ReleaseOfferResponse) },
    problems: { 409: 'X_OFFER_EXPIRED' },
    handle: run(({ params, body }) => ({ kind: 'release-offer', action: 'confirm', id: params.releaseOfferId, body })),
  }),
  operation({
    method: 'DELETE', path: '/v3/bookings/{bookingId}/release-offers/{releaseOfferId}', osdm: ['deleteReleaseOffers'],
    summary: 'Delete a release offer', section: 'CONTRACT §6', tag: 'Aftersales', access: 'reseller',
    responses: { 204: noContent },
    handle: run(({ params }) => ({ kind: 'release-offer', action: 'delete', id: params.releaseOfferId })),
  }),
  // OSDM: the on-hold offer path is singular; PATCH {} confirms it.
  operation({
    method: 'POST', path: '/v3/bookings/{bookingId}/on-hold-offer', osdm: ['createOnHoldOffer'],
    summary: 'Create an on-hold offer', section: 'spec §4.1 rule 11', tag: 'Aftersales', access: 'reseller',
    request: { schema: OnHoldOfferRequest },
    responses: { 200: json('OnHoldOfferResponse', S.OnHoldOfferResponse) },
    problems: { 403: 'X_OPERATION_NOT_PERMITTED', 409: 'X_BOOKING_STATE' },
    handle: run(({ body }) => ({ kind: 'on-hold-offer', action: 'create', body: body ?? {} })),
  }),
  operation({
    method: 'PATCH', path: '/v3/bookings/{bookingId}/on-hold-offer/{onHoldOfferId}', osdm: ['confirmOnHoldOffer'],
    summary: 'Confirm an on-hold offer', section: 'spec §4.1 rule 11, CONTRACT §6', tag: 'Aftersales', access: 'reseller',
    request: { schema: OnHoldOfferPatchRequest },
    responses: { 200: json('OnHoldOfferResponse', S.OnHoldOfferResponse) },
    handle: run(({ params, body }) => {
      parseRequest(OnHoldOfferPatchRequest, body ?? {});
      return { kind: 'on-hold-offer', action: 'confirm', id: params.onHoldOfferId };
    }),
  }),
  operation({
    method: 'DELETE', path: '/v3/bookings/{bookingId}/on-hold-offer/{onHoldOfferId}', osdm: ['deleteOnHoldOffer'],
    summary: 'Delete an on-hold offer', section: 'CONTRACT §6', tag: 'Aftersales', access: 'reseller',
    responses: { 204: noContent },
    handle: run(({ params }) => ({ kind: 'on-hold-offer', action: 'delete', id: params.onHoldOfferId })),
  }),
  // Exchange (spec §3, §4.1 rule 7): offers, then an operation; the booking's fulfillment call confirms it.
  operation({
    method: 'POST', path: '/v3/bookings/{bookingId}/exchange-offers', osdm: ['createExchangeOffersCollection'],
    summary: 'Exchange offers', section: 'spec §4.1 rule 7', tag: 'Aftersales', access: 'reseller',
    request: { schema: ExchangeOfferRequest, required: true },
    responses: { 200: json('ExchangeOfferCollectionResponse', S.ExchangeOfferCollectionResponse) },
    problems: { 409: 'X_CONCURRENT_AFTERSALES' },
    handle: async ({ service, requestor, params, body }) => decided(await service.exchangeOffers(await requestor(), params.bookingId, body)),
  }),
  operation({
    method: 'POST', path: '/v3/bookings/{bookingId}/exchange-operations', osdm: ['createBookingsExchangeOperations'],
    summary: 'Create an exchange operation', section: 'spec §4.1 rule 7', tag: 'Aftersales', access: 'reseller',
    request: { schema: ExchangeOperationRequest, required: true },
    responses: { 200: json('ExchangeOperationResponse', S.ExchangeOperationResponse) },
    problems: { 409: 'X_CONCURRENT_AFTERSALES, X_OFFER_EXPIRED' },
    handle: async ({ service, requestor, params, body }) => decided(await service.exchangeOperation(await requestor(), params.bookingId, body)),
  }),
  operation({
    method: 'GET', path: '/v3/bookings/{bookingId}/exchange-operations/{exchangeOperationId}', osdm: ['getBookingsExchangeOperations'],
    summary: 'Read an exchange operation', section: 'CONTRACT §6', tag: 'Aftersales', access: 'reseller',
    responses: { 200: json('ExchangeOperationResponse', S.ExchangeOperationResponse) },
    handle: run(({ params }) => ({ kind: 'exchange-operation', action: 'read', id: params.exchangeOperationId })),
  }),
  operation({
    method: 'PATCH', path: '/v3/bookings/{bookingId}/exchange-operations/{exchangeOperationId}', osdm: ['updateBookingsExchangeOperations'],
    summary: 'Change an exchange operation', section: 'CONTRACT §6', tag: 'Aftersales', access: 'reseller',
    request: { schema: ExchangeOperationPatch },
    responses: { 200: json('ExchangeOperationResponse', S.ExchangeOperationResponse) },
    handle: run(({ params, body }) => ({ kind: 'exchange-operation', action: 'patch', id: params.exchangeOperationId, body: body ?? {} })),
  }),
  operation({
    method: 'DELETE', path: '/v3/bookings/{bookingId}/exchange-operations/{exchangeOperationId}', osdm: ['deleteBookingsExchangeOperation'],
    summary: 'Delete an exchange operation', section: 'CONTRACT §6', tag: 'Aftersales', access: 'reseller',
    responses: { 204: noContent },
    handle: run(({ params }) => ({ kind: 'exchange-operation', action: 'delete', id: params.exchangeOperationId })),
  }),
  operation({
    method: 'POST', path: '/v3/bookings/{bookingId}/cleanup', osdm: ['postBookingCleanup'],
    summary: 'Roll a confirmed booking back completely', section: 'spec §4.1 rule 12, §9', tag: 'Aftersales', access: 'reseller',
    description: 'Needs OSDM version 3.4 or higher: send `Accept: application/json; version=3.4`.',
    request: { schema: CleanupRequest },
    responses: { 202: noContent },
    problems: { 400: '86042 (overrule code), X_CLEANUP_WINDOW_PASSED', 406: 'a version below 3.4' },
    handle: run(({ request, body }) => ({ kind: 'cleanup', body, osdmVersion: osdmVersionNumber(request.osdmVersion) })),
  }),
];
