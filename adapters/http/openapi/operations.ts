import { z } from 'zod';
import { BookingPatch, PassengerPatch, PurchaserPatch } from '../../../engine/model/osdm/booking-patch-requests.ts';
import { BookingRequest } from '../../../engine/model/osdm/booking-request.ts';
import { ContractLookupRequest, EmailLookupRequest, IdentityNumberLookupRequest, MemberNumberLookupRequest } from '../../../engine/model/osdm/customer-requests.ts';
import { OfferCollectionRequest } from '../../../engine/model/osdm/offer-request.ts';
import { CleanupRequest, OfferConfirmation, OnHoldOfferPatchRequest, OnHoldOfferRequest, RefundOfferRequest, ReleaseOfferRequest } from '../../../engine/model/osdm/aftersales-requests.ts';
import { ExchangeOfferRequest, ExchangeOperationPatch, ExchangeOperationRequest } from '../../../engine/aftersales/exchange.ts';
import { ErrorPage } from '../routes/errors.ts';
import { AfterSalesOverrideChange, ClockChange } from '../routes/sandbox.ts';
import * as S from './schemas.ts';

/**
 * Every operation of the HTTP API, keyed `METHOD /path` with OpenAPI path templates (`{bookingId}`, not
 * `:bookingId`). GET /openapi.json is generated from this map and the routes the server registers:
 *
 * - a registered route without an entry here fails test/openapi.test.ts (add the entry with the route);
 * - an entry with no registered route is published with `x-signalbox-status: planned` (sandbox ones are left out
 *   of a server without --sandbox);
 * - `ANY /path` covers a route registered for every method (`app.all`); `*` at the end of a path is any rest.
 *
 * `request` is the zod schema the handler validates the body with (named in `schemas` of document.ts to become a
 * component); `responses` are the successful answers. The Problems an operation can give follow from `access`
 * (401/403 for a token, 400 for a body, 404 for a path parameter, …); `problems` adds the specific ones.
 */
export type Access =
  | 'public'      // no credentials
  | 'client'      // the token endpoint: client credentials (HTTP Basic or form fields)
  | 'reseller'    // Bearer token with scope reseller + Requestor header
  | 'customer'    // Bearer token with scope customer + Ocp-Apim-Subscription-Key
  | 'sandbox';    // no credentials; only with `signalbox serve --sandbox`

export interface Answer {
  description: string;
  /** The body; absent for an empty one. */
  schema?: z.ZodType;
  /** Defaults to application/json. */
  contentType?: string;
}

export interface Operation {
  summary: string;
  /** Where the behaviour is decided: `spec §4.1`, `CONTRACT §6`. */
  section: string;
  tag: 'OAuth' | 'Offers' | 'Booking' | 'Fulfillment' | 'Aftersales' | 'Availability' | 'Customer API' | 'Sandbox' | 'Service';
  access: Access;
  description?: string;
  request?: { schema: z.ZodType; required?: boolean; contentType?: string };
  query?: Record<string, { description: string; required?: boolean; schema?: z.ZodType }>;
  responses: Record<number, Answer>;
  /** Problem statuses beyond those `access` and the request imply, with what they mean here. */
  problems?: Record<number, string>;
}


const availabilityQuery = {
  contextType: { description: '`OFFER` or `BOOKING`', required: true, schema: z.enum(['OFFER', 'BOOKING']) },
  contextId: { description: 'The offerId (OFFER) or the bookingId (BOOKING).', required: true },
  resourceType: { description: '`RESERVATION` (FARE → error, spec §4.1 rule 3).', required: true },
  resourceId: { description: 'The reservationOfferPartId (OFFER) or the reservationId (BOOKING).', required: true },
};

const json = (description: string, schema: z.ZodType): Answer => ({ description, schema });
const noContent: Answer = { description: 'Done; empty body.' };

export const operations: Record<string, Operation> = {
  // ---------------------------------------------------------------- service
  'GET /': {
    summary: 'What this server is, with links', section: 'CONTRACT §2, §10', tag: 'Service', access: 'public',
    description: 'An HTML page: links to /docs, /openapi.json and /health, and on a sandbox the demo credentials. `Accept: application/json` gets the same as JSON.',
    responses: { 200: { description: 'An HTML page.', schema: z.string(), contentType: 'text/html' } },
  },
  'GET /health': {
    summary: 'Liveness', section: 'CONTRACT §2', tag: 'Service', access: 'public',
    responses: { 200: json('The process serves requests.', S.Health) },
  },
  'GET /openapi.json': {
    summary: 'This document', section: 'CONTRACT §2', tag: 'Service', access: 'public',
    description: 'The OpenAPI 3.1 document of this server, generated from its zod schemas and the routes it registers.',
    responses: { 200: json('OpenAPI 3.1', S.OpenApiDocument) },
  },
  'GET /docs': {
    summary: 'Browsable API reference', section: 'CONTRACT §2', tag: 'Service', access: 'public',
    description: 'Renders /openapi.json with Swagger UI, served from the npm package swagger-ui-dist (no CDN).',
    responses: { 200: { description: 'An HTML page.', schema: z.string(), contentType: 'text/html' } },
  },
  'GET /docs/{file}': {
    summary: 'Scripts and styles of /docs', section: 'CONTRACT §2', tag: 'Service', access: 'public',
    responses: { 200: { description: 'A static file.', schema: z.string(), contentType: 'application/octet-stream' } },
  },

  'GET /errors/{code}': {
    summary: "An error's page", section: 'CONTRACT §4c', tag: 'Service', access: 'public',
    description: "What a Problem's `type` points at: the code's status, title and detail in both languages, and the rule rows that raise it. JSON when Accept asks for it.",
    responses: { 200: { description: 'An HTML page, or the same as JSON.', schema: ErrorPage } },
  },

  // ---------------------------------------------------------------- OAuth
  'POST /oauth2/token': {
    summary: 'Get an access token (client credentials)', section: 'spec §5, CONTRACT §3', tag: 'OAuth', access: 'client',
    description: 'RFC 6749 §4.4. The client authenticates with HTTP Basic or with client_id and client_secret fields. '
      + 'Errors are RFC 6749 §5.2 bodies, not Problems. The answer carries Cache-Control: no-store.',
    request: { schema: S.TokenForm, required: true, contentType: 'application/x-www-form-urlencoded' },
    responses: { 200: json('A bearer token.', S.TokenGrant) },
  },

  // ---------------------------------------------------------------- Reseller API: offers and booking
  'POST /v3/offers': {
    summary: 'Offers for trips or travel passes', section: 'spec §2.2, §2.3, §4.1', tag: 'Offers', access: 'reseller',
    request: { schema: OfferCollectionRequest, required: true },
    responses: { 200: json('OfferCollectionResponse', S.OfferCollectionResponse) },
    problems: { 501: 'an offer kind not built yet' },
  },
  'POST /v3/booking': {
    summary: 'Create a provisional booking', section: 'spec §2.6, §4.1', tag: 'Booking', access: 'reseller',
    description: "The operator's path; POST /v3/bookings is OSDM's alias.",
    request: { schema: BookingRequest, required: true },
    responses: { 200: json('BookingResponse: the provisional booking, confirmationTimeLimit ahead.', S.BookingResponse) },
    problems: { 404: 'an offer id that does not exist (or is another client’s)', 409: 'X_OFFER_EXPIRED' },
  },
  'POST /v3/bookings': {
    summary: 'Create a provisional booking (OSDM path)', section: 'CONTRACT §6', tag: 'Booking', access: 'reseller',
    request: { schema: BookingRequest, required: true },
    responses: { 200: json('BookingResponse', S.BookingResponse) },
    problems: { 404: 'an offer id that does not exist (or is another client’s)', 409: 'X_OFFER_EXPIRED' },
  },
  'GET /v3/bookings/{bookingId}': {
    summary: 'Read a booking', section: 'spec §4.1', tag: 'Booking', access: 'reseller',
    description: 'The only way to learn the fulfillment ids after POST …/fulfillment (spec §4.1 rule 1).',
    responses: { 200: json('BookingResponse', S.BookingResponse) },
  },
  'PATCH /v3/bookings/{bookingId}': {
    summary: 'Patch a booking: placeSelections, usedPaymentMethods', section: 'spec §4.1 rule 2, CONTRACT §4b', tag: 'Booking', access: 'reseller',
    request: { schema: BookingPatch, required: true },
    responses: { 200: json('BookingResponse', S.BookingResponse) },
    problems: { 409: 'X_BOOKING_STATE, X_BOOKING_EXPIRED', 501: 'voucher payment' },
  },
  'GET /v3/bookings/{bookingId}/passengers/{passengerId}': {
    summary: 'Read a passenger', section: 'CONTRACT §6', tag: 'Booking', access: 'reseller',
    responses: { 200: json('PassengerResponse', S.PassengerResponse) },
  },
  'PATCH /v3/bookings/{bookingId}/passengers/{passengerId}': {
    summary: "Replace a passenger's details", section: 'spec §2.7, CONTRACT §4b', tag: 'Booking', access: 'reseller',
    request: { schema: PassengerPatch, required: true },
    responses: { 200: json('PassengerResponse', S.PassengerResponse) },
    problems: { 409: 'X_BOOKING_STATE' },
  },
  'GET /v3/bookings/{bookingId}/purchaser': {
    summary: 'Read the purchaser', section: 'CONTRACT §6', tag: 'Booking', access: 'reseller',
    responses: { 200: json('PurchaserResponse', S.PurchaserResponse) },
  },
  'PATCH /v3/bookings/{bookingId}/purchaser': {
    summary: 'Replace the purchaser', section: 'spec §2.7, CONTRACT §4b', tag: 'Booking', access: 'reseller',
    request: { schema: PurchaserPatch, required: true },
    responses: { 200: json('PurchaserResponse', S.PurchaserResponse) },
    problems: { 409: 'X_BOOKING_STATE' },
  },
  'POST /v3/bookings/{bookingId}/booked-offers': {
    summary: 'Add offers to a booking (not supported)', section: 'spec §4.1 "Unsupported"', tag: 'Booking', access: 'reseller',
    responses: {},
    problems: { 400: '86007 for a travel pass offer', 501: 'always, for any other offer' },
  },
  'ANY /v3/bookings/{bookingId}/booked-offers/*': {
    summary: 'Booked-offer endpoints (not supported)', section: 'spec §4.1 "Unsupported", CONTRACT §5', tag: 'Booking', access: 'reseller',
    responses: {},
    problems: { 501: 'always' },
  },

  // ---------------------------------------------------------------- confirmation and tickets
  'POST /v3/bookings/{bookingId}/fulfillment': {
    summary: 'Confirm a booking (operator form)', section: 'spec §4.1 rule 1, CONTRACT §6', tag: 'Fulfillment', access: 'reseller',
    description: 'Answers 202 with an empty body; poll GET /v3/bookings/{bookingId} for the fulfillment ids. Also confirms a pending exchange.',
    responses: { 202: noContent },
    problems: { 400: 'X_BOOKING_INCOMPLETE with pointers to what is missing', 409: 'X_BOOKING_EXPIRED, X_BOOKING_STATE' },
  },
  'POST /v3/bookings/{bookingId}/fulfillments': {
    summary: 'Confirm a booking (OSDM form)', section: 'CONTRACT §6', tag: 'Fulfillment', access: 'reseller',
    responses: { 200: json('FulfillmentCollectionResponse: fulfillment is synchronous here.', S.FulfillmentCollectionResponse), 202: noContent },
    problems: { 400: 'X_BOOKING_INCOMPLETE', 409: 'X_BOOKING_EXPIRED, X_BOOKING_STATE' },
  },
  'GET /v3/fulfillments/{fulfillmentId}': {
    summary: 'Read a fulfillment (the ticket)', section: 'spec §4.1, CONTRACT §4b', tag: 'Fulfillment', access: 'reseller',
    description: 'The ticket number is controlNumber; the Aztec payload is a BAR_CODE security feature (Base64).',
    responses: { 200: json('FulfillmentResponse', S.FulfillmentResponse) },
  },

  // ---------------------------------------------------------------- aftersales
  'POST /v3/bookings/{bookingId}/refund-offers': {
    summary: 'Create a refund offer', section: 'spec §4.1 rule 6', tag: 'Aftersales', access: 'reseller',
    request: { schema: RefundOfferRequest, required: true },
    responses: { 200: json('RefundOfferCollectionResponse', S.RefundOfferCollectionResponse) },
    problems: { 409: 'X_CONCURRENT_AFTERSALES, X_BOOKING_STATE' },
  },
  'GET /v3/bookings/{bookingId}/refund-offers/{refundOfferId}': {
    summary: 'Read a refund offer', section: 'CONTRACT §6', tag: 'Aftersales', access: 'reseller',
    responses: { 200: json('RefundOfferResponse', S.RefundOfferResponse) },
  },
  'PATCH /v3/bookings/{bookingId}/refund-offers/{refundOfferId}': {
    summary: 'Confirm a refund offer', section: 'CONTRACT §6', tag: 'Aftersales', access: 'reseller',
    request: { schema: OfferConfirmation, required: true },
    responses: { 200: json('RefundOfferResponse', S.RefundOfferResponse) },
    problems: { 409: 'X_OFFER_EXPIRED' },
  },
  'DELETE /v3/bookings/{bookingId}/refund-offers/{refundOfferId}': {
    summary: 'Delete a refund offer', section: 'CONTRACT §6', tag: 'Aftersales', access: 'reseller',
    description: 'A confirmed refund offer cannot be deleted: 404.',
    responses: { 204: noContent },
  },
  'POST /v3/bookings/{bookingId}/release-offers': {
    summary: 'Create a release offer', section: 'spec §4.1 rule 5', tag: 'Aftersales', access: 'reseller',
    request: { schema: ReleaseOfferRequest, required: true },
    responses: { 200: json('ReleaseOfferCollectionResponse', S.ReleaseOfferCollectionResponse) },
    problems: { 403: 'X_OPERATION_NOT_PERMITTED', 409: 'X_CONCURRENT_AFTERSALES' },
  },
  'GET /v3/bookings/{bookingId}/release-offers/{releaseOfferId}': {
    summary: 'Read a release offer', section: 'CONTRACT §6', tag: 'Aftersales', access: 'reseller',
    responses: { 200: json('ReleaseOfferResponse', S.ReleaseOfferResponse) },
  },
  'PATCH /v3/bookings/{bookingId}/release-offers/{releaseOfferId}': {
    summary: 'Confirm a release offer', section: 'CONTRACT §6', tag: 'Aftersales', access: 'reseller',
    request: { schema: OfferConfirmation, required: true },
    responses: { 200: json('ReleaseOfferResponse', S.ReleaseOfferResponse) },
    problems: { 409: 'X_OFFER_EXPIRED' },
  },
  'DELETE /v3/bookings/{bookingId}/release-offers/{releaseOfferId}': {
    summary: 'Delete a release offer', section: 'CONTRACT §6', tag: 'Aftersales', access: 'reseller',
    responses: { 204: noContent },
  },
  'POST /v3/bookings/{bookingId}/on-hold-offer': {
    summary: 'Create an on-hold offer', section: 'spec §4.1 rule 11', tag: 'Aftersales', access: 'reseller',
    request: { schema: OnHoldOfferRequest },
    responses: { 200: json('OnHoldOfferResponse', S.OnHoldOfferResponse) },
    problems: { 403: 'X_OPERATION_NOT_PERMITTED', 409: 'X_BOOKING_STATE' },
  },
  'PATCH /v3/bookings/{bookingId}/on-hold-offer/{onHoldOfferId}': {
    summary: 'Confirm an on-hold offer', section: 'spec §4.1 rule 11, CONTRACT §6', tag: 'Aftersales', access: 'reseller',
    request: { schema: OnHoldOfferPatchRequest },
    responses: { 200: json('OnHoldOfferResponse', S.OnHoldOfferResponse) },
  },
  'DELETE /v3/bookings/{bookingId}/on-hold-offer/{onHoldOfferId}': {
    summary: 'Delete an on-hold offer', section: 'CONTRACT §6', tag: 'Aftersales', access: 'reseller',
    responses: { 204: noContent },
  },
  'POST /v3/bookings/{bookingId}/exchange-offers': {
    summary: 'Exchange offers', section: 'spec §4.1 rule 7', tag: 'Aftersales', access: 'reseller',
    request: { schema: ExchangeOfferRequest, required: true },
    responses: { 200: json('ExchangeOfferCollectionResponse', S.ExchangeOfferCollectionResponse) },
    problems: { 409: 'X_CONCURRENT_AFTERSALES' },
  },
  'POST /v3/bookings/{bookingId}/exchange-operations': {
    summary: 'Create an exchange operation', section: 'spec §4.1 rule 7', tag: 'Aftersales', access: 'reseller',
    request: { schema: ExchangeOperationRequest, required: true },
    responses: { 200: json('ExchangeOperationResponse', S.ExchangeOperationResponse) },
    problems: { 409: 'X_CONCURRENT_AFTERSALES, X_OFFER_EXPIRED' },
  },
  'GET /v3/bookings/{bookingId}/exchange-operations/{exchangeOperationId}': {
    summary: 'Read an exchange operation', section: 'CONTRACT §6', tag: 'Aftersales', access: 'reseller',
    responses: { 200: json('ExchangeOperationResponse', S.ExchangeOperationResponse) },
  },
  'PATCH /v3/bookings/{bookingId}/exchange-operations/{exchangeOperationId}': {
    summary: 'Change an exchange operation', section: 'CONTRACT §6', tag: 'Aftersales', access: 'reseller',
    request: { schema: ExchangeOperationPatch },
    responses: { 200: json('ExchangeOperationResponse', S.ExchangeOperationResponse) },
  },
  'DELETE /v3/bookings/{bookingId}/exchange-operations/{exchangeOperationId}': {
    summary: 'Delete an exchange operation', section: 'CONTRACT §6', tag: 'Aftersales', access: 'reseller',
    responses: { 204: noContent },
  },
  'POST /v3/bookings/{bookingId}/cleanup': {
    summary: 'Roll a confirmed booking back completely', section: 'spec §4.1 rule 12, §9', tag: 'Aftersales', access: 'reseller',
    description: 'Needs OSDM version 3.4 or higher: send `Accept: application/json; version=3.4`.',
    request: { schema: CleanupRequest },
    responses: { 202: noContent },
    problems: { 400: '86042 (overrule code), X_CLEANUP_WINDOW_PASSED', 406: 'a version below 3.4' },
  },

  // ---------------------------------------------------------------- availability
  'GET /v3/availabilities': {
    summary: 'Available places per place-property combination', section: 'spec §4.1, CONTRACT §6', tag: 'Availability', access: 'reseller',
    query: availabilityQuery,
    responses: { 200: json('Counts', S.AvailabilityCountResponse) },
  },
  'GET /v3/availabilities/preferences': {
    summary: 'Seat availability', section: 'spec §4.1, CONTRACT §6', tag: 'Availability', access: 'reseller',
    query: availabilityQuery,
    responses: { 200: json('Available places', S.PlacePreferencesResponse) },
  },
  'GET /v3/availabilities/place-map': {
    summary: 'Place map', section: 'spec §2.11, §4.1 rule 3', tag: 'Availability', access: 'reseller',
    query: availabilityQuery,
    responses: { 200: json('PlaceAvailability', S.PlaceAvailabilityResponse) },
    problems: { 403: 'X_OPERATION_NOT_PERMITTED' },
  },
  'GET /v3/coach-layouts/{layoutId}': {
    summary: 'A coach layout', section: 'spec §2.11, CONTRACT §6', tag: 'Availability', access: 'reseller',
    responses: { 200: json('CoachLayoutResponse', S.CoachLayoutResponse) },
  },
  'ANY /v3/availabilities/nearby': {
    summary: 'Nearby availability (not supported)', section: 'spec §4.1, CONTRACT §5', tag: 'Availability', access: 'reseller',
    responses: {},
    problems: { 501: 'always' },
  },

  // ---------------------------------------------------------------- Customer API
  'POST /customer/contacts/email': {
    summary: 'Find a customer by e-mail', section: 'spec §4.3, CONTRACT §7', tag: 'Customer API', access: 'customer',
    description: 'The e-mail may be URL-encoded; case does not matter.',
    request: { schema: EmailLookupRequest, required: true },
    responses: { 200: json('The customer record itself (spec §2.12).', S.CustomerRecord) },
  },
  'POST /customer/contacts/prio-number': {
    summary: 'Find a customer by member number', section: 'spec §4.3, CONTRACT §7', tag: 'Customer API', access: 'customer',
    request: { schema: MemberNumberLookupRequest, required: true },
    responses: { 200: json('The customer record itself (spec §2.12).', S.CustomerRecord) },
  },
  'POST /customer/contacts/ssn': {
    summary: 'Find a customer by personal identity number', section: 'spec §4.3, CONTRACT §7', tag: 'Customer API', access: 'customer',
    request: { schema: IdentityNumberLookupRequest, required: true },
    responses: { 200: json('The customer record itself (spec §2.12).', S.CustomerRecord) },
  },
  'POST /customer/contracts/contract-number': {
    summary: 'Find a corporate contract', section: 'spec §4.3, CONTRACT §7', tag: 'Customer API', access: 'customer',
    request: { schema: ContractLookupRequest, required: true },
    responses: { 200: json('The contract record itself (spec §2.12).', S.ContractRecord) },
  },

  // ---------------------------------------------------------------- sandbox (--sandbox only)
  'GET /sandbox/clock': {
    summary: 'Read the sandbox clock', section: 'CONTRACT §8', tag: 'Sandbox', access: 'sandbox',
    responses: { 200: json('The sandbox time.', S.SandboxClock) },
  },
  'POST /sandbox/clock': {
    summary: 'Set or advance the sandbox clock', section: 'CONTRACT §8', tag: 'Sandbox', access: 'sandbox',
    description: 'Every TTL, expiry and "24 hours before departure" rule reads this clock; token lifetimes do not.',
    request: { schema: ClockChange, required: true },
    responses: { 200: json('The sandbox time after the change.', S.SandboxClock) },
  },
  'PUT /sandbox/bookings/{bookingId}/after-sales-override': {
    summary: "Give a booking the operator's after-sales override profile, or take it away", section: 'spec §4.1 rule 8; CONTRACT §8 (our addition)', tag: 'Sandbox', access: 'sandbox',
    description: 'With the override, refund offers refund in full without fee and exchanges are allowed even for tickets that are neither refundable nor exchangeable (rules/refund-fees.yaml, rules/exchange-guards.yaml), without overrule codes. Any booking, whoever sold it: the operator sets it.',
    request: { schema: AfterSalesOverrideChange, required: true },
    responses: { 200: json('The booking now has (or no longer has) the override.', S.SandboxAfterSalesOverride) },
  },
  'POST /sandbox/reset': {
    summary: 'Empty the store', section: 'CONTRACT §8', tag: 'Sandbox', access: 'sandbox',
    description: 'Bookings and offers go; rules and reference data stay.',
    responses: { 200: json('Reset.', S.SandboxReset) },
  },
  'GET /sandbox/traces/{requestId}': {
    summary: 'The rule traces behind a recent response', section: 'CONTRACT §8, §9', tag: 'Sandbox', access: 'sandbox',
    description: 'By the x-request-id of one of the last 500 responses; what `signalbox test --target` prints for a failing step.',
    responses: { 200: json('Traces', S.SandboxTraces) },
  },
};
