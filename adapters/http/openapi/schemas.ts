import { z } from 'zod';

/**
 * Response shapes the OpenAPI document names that no zod schema defined before (DESIGN: one source per shape).
 * The Problem is exact (engine/violation.ts renders it). The Reseller API's response bodies are rendered by the
 * engine without a schema yet, so here only their top level is described (`{booking: object}`); each such shape
 * is marked `loose` and listed in the document's description, so the list shrinks as real schemas arrive.
 */
export const loose = new Set<z.ZodType>();
const looseShape = <T extends z.ZodType>(schema: T): T => {
  loose.add(schema);
  return schema;
};

// ---------------------------------------------------------------- Problem (RFC 9457, CONTRACT §5)

export const ProblemPointer = z.object({
  requestPointer: z.string().describe('A JSON pointer into the request body in OSDM form (`#/offers/0/offerId`), or `header:Requestor`, `path`, `query:contextId`.'),
  detail: z.string().optional().describe('What is wrong at that place.'),
});

export const Problem = z.object({
  code: z.string().describe("The operator's five-digit code (`86005`), or a named code (`RESOURCE_NOT_FOUND`, `X_…` = this operator's own). rules/errors.yaml is the catalogue."),
  type: z.string().describe('`/errors/<code>`'),
  title: z.string().describe('Short, in the language of Accept-Language (sv-SE or en-GB).'),
  status: z.number().int().describe('The HTTP status, repeated.'),
  detail: z.string().describe('What happened, in the language of Accept-Language. A 500 names a reference to quote to the operator.'),
  instance: z.string().optional().describe('The path of the request.'),
  pointers: z.array(ProblemPointer).optional().describe('Where in the request each problem lies.'),
}).meta({
  examples: [{
    code: '86001', type: '/errors/86001', title: 'Validation error', status: 400,
    detail: 'The request is not valid: offerSearchCritera: unknown field "offerSearchCritera"', instance: '/v3/offers',
    pointers: [{ requestPointer: '#/offerSearchCritera', detail: 'unknown field "offerSearchCritera"' }],
  }],
});

// ---------------------------------------------------------------- OAuth 2.0 (RFC 6749, CONTRACT §3)

export const TokenForm = z.object({
  grant_type: z.literal('client_credentials'),
  scope: z.string().optional().describe('Space-separated: `reseller`, `customer`. Absent: every scope of the client.'),
  client_id: z.string().optional().describe('With client_secret, instead of HTTP Basic.'),
  client_secret: z.string().optional(),
});

export const TokenGrant = z.object({
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().describe('Seconds.'),
  ext_expires_in: z.number().int(),
  access_token: z.string().describe('An HS256 JWT.'),
});

export const OAuthErrorBody = z.object({
  error: z.enum(['invalid_request', 'invalid_client', 'unsupported_grant_type', 'invalid_scope']),
  error_description: z.string(),
});

// ---------------------------------------------------------------- Customer API (spec §2.12, §4.3)

export const TravelPass = z.object({
  cardNumber: z.string(),
  cardType: z.string(),
  description: z.string().describe('In the language of Accept-Language.'),
  validFrom: z.string().describe('YYYY-MM-DD'),
  validTo: z.string().describe('YYYY-MM-DD'),
});

export const CustomerRecord = looseShape(z.object({
  firstName: z.string(),
  lastName: z.string(),
  memberNumber: z.string().optional(),
  level: z.string().optional(),
  email: z.string(),
  phoneNumber: z.string(),
  travelPasses: z.array(TravelPass).optional(),
}));

export const ContractRecord = looseShape(z.object({
  organizationName: z.string(),
  department: z.string().nullable(),
  contractNumber: z.string(),
  organizationNumber: z.string(),
}));

// ---------------------------------------------------------------- Reseller API responses (top level only)

const warnings = z.object({ warnings: z.array(z.object({ code: z.string(), detail: z.string() })) }).optional()
  .describe('OSDM 3.4 warnings: the operation went through, but the caller should know.');
const object = (what: string) => z.object({}).loose().describe(what);

export const OfferCollectionResponse = looseShape(z.object({
  offers: z.array(object('OSDM Offer: offerId, summary, preBookableUntil, price, admissionOfferParts, reservationOfferParts, ancillaryOfferParts, …')),
  anonymousPassengerSpecifications: z.array(object('The passengers of the request, as given.')),
  warnings,
}));
export const BookingResponse = looseShape(z.object({ booking: object('OSDM Booking: id, bookingCode, externalRef, confirmationTimeLimit, passengers, purchaser, bookedOffers, fulfillments, …'), warnings }));
export const FulfillmentResponse = looseShape(z.object({ fulfillment: object('OSDM Fulfillment: id, status, controlNumber, fulfillmentParts[].securityFeatures (the Aztec ticket), …') }));
export const FulfillmentCollectionResponse = looseShape(z.object({ fulfillments: z.array(object('OSDM Fulfillment')) }));
export const PassengerResponse = looseShape(z.object({ passenger: object('OSDM Passenger'), warnings }));
export const PurchaserResponse = looseShape(z.object({ purchaser: object('OSDM Purchaser'), warnings }));
export const RefundOfferCollectionResponse = looseShape(z.object({ refundOffers: z.array(object('OSDM RefundOffer')) }));
export const RefundOfferResponse = looseShape(z.object({ refundOffer: object('OSDM RefundOffer: id, status, refundFee, refundableAmount, validFrom, validUntil, …') }));
export const ReleaseOfferCollectionResponse = looseShape(z.object({ releaseOffers: z.array(object('OSDM ReleaseOffer')) }));
export const ReleaseOfferResponse = looseShape(z.object({ releaseOffer: object('OSDM ReleaseOffer') }));
export const OnHoldOfferResponse = looseShape(z.object({ onHoldOffer: object('OSDM OnHoldOffer: id, status, validUntil, …') }));
export const ExchangeOfferCollectionResponse = looseShape(z.object({ exchangeOffers: z.array(object('OSDM ExchangeOffer')) }));
export const ExchangeOperationResponse = looseShape(z.object({ exchangeOperation: object('OSDM ExchangeOperation') }));
export const AvailabilityCountResponse = looseShape(z.object({
  availabilities: z.array(z.object({ placeProperties: z.array(z.string()), count: z.number().int() })),
}));
export const PlacePreferencesResponse = looseShape(z.object({ availablePlaces: z.array(object('An available place: coach, place number, properties')) }));
export const PlaceAvailabilityResponse = looseShape(z.object({ vehicleAvailability: object('OSDM PlaceAvailability') }));
export const CoachLayoutResponse = looseShape(z.object({ coachLayout: object('OSDM CoachLayout') }));

// ---------------------------------------------------------------- the rest

export const Health = z.object({ status: z.literal('ok') });
export const SandboxClock = z.object({ now: z.string().describe('ISO 8601') });
export const SandboxReset = z.object({ status: z.literal('reset') });
export const SandboxTraces = looseShape(z.object({ requestId: z.string(), traces: z.array(object('A decision trace: decision, facts, the rows that fired with their file:line')) }));
export const OpenApiDocument = looseShape(z.object({ openapi: z.string(), info: object('title, version, description'), paths: object('every operation') }).loose());
