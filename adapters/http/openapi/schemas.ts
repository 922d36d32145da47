import { z } from 'zod';
import { DecisionTrace } from '../../../engine/index.ts';

/**
 * Response shapes the OpenAPI document names that the engine does not define (DESIGN: one source per shape):
 * the Problem (engine/rules/violation.ts renders it), the OAuth bodies, the sandbox and service answers. The Reseller
 * and Customer API bodies are the engine's response schemas, re-exported below under their OSDM names so the
 * document's components carry those names. The scenario runner checks every response against these
 * (adapters/harness/api-schema.ts).
 */
export {
  Admission,
  Ancillary,
  BookedOffer,
  BookedPersonDetail,
  BookedPurchaser,
  Booking,
  BookingResponse,
  Fulfillment,
  FulfillmentCollectionResponse,
  FulfillmentResponse,
  FulfillmentSummary,
  Passenger,
  PassengerResponse,
  PurchaserResponse,
  Reservation,
} from '../../../engine/model/osdm/index.ts';
export {
  ExchangeOffer,
  ExchangeOfferCollectionResponse,
  ExchangeOperation,
  ExchangeOperationResponse,
  OnHoldOffer,
  OnHoldOfferResponse,
  RefundOffer,
  RefundOfferCollectionResponse,
  RefundOfferResponse,
  ReleaseOffer,
  ReleaseOfferCollectionResponse,
  ReleaseOfferResponse,
} from '../../../engine/model/osdm/index.ts';
export { ContractRecord, CustomerRecord, TravelPass } from '../../../engine/model/osdm/index.ts';
export {
  AdmissionOfferPart,
  AncillaryGroupItem,
  AncillaryOfferPart,
  AppliedPassengerType,
  Offer,
  OfferCollectionResponse,
  OfferedProduct,
  OfferSummary,
  ReservationGroupItem,
  ReservationOfferPart,
} from '../../../engine/model/osdm/index.ts';
export { Price, TripCoverage, TripLegCoverage, Vat, WarningCollection } from '../../../engine/model/osdm/index.ts';
export {
  AvailabilityCountResponse,
  CoachLayoutResponse,
  PlaceAllocation,
  PlaceAvailabilityResponse,
  PlacePreferencesResponse,
} from '../../../engine/model/osdm/index.ts';

// ---------------------------------------------------------------- Problem (RFC 9457, CONTRACT §5)

export { Problem, ProblemPointer } from './problem.ts';

// ---------------------------------------------------------------- OAuth 2.0 (RFC 6749, CONTRACT §3)

export const TokenForm = z.object({
  grant_type: z.literal('client_credentials'),
  scope: z.string().optional().describe('Space-separated: `reseller`, `customer`. Absent: every scope of the client.'),
  client_id: z.string().optional().describe('With client_secret, instead of HTTP Basic.'),
  client_secret: z.string().optional(),
});

export const TokenGrant = z.strictObject({
  token_type: z.literal('Bearer'),
  expires_in: z.number().int().describe('Seconds.'),
  ext_expires_in: z.number().int(),
  access_token: z.string().describe('An HS256 JWT.'),
});

export const OAuthErrorBody = z.strictObject({
  error: z.enum(['invalid_request', 'invalid_client', 'unsupported_grant_type', 'invalid_scope']),
  error_description: z.string(),
});

// ---------------------------------------------------------------- the rest

export const Health = z.strictObject({ status: z.literal('ok'), node: z.string().describe('process.version of the Node serving, e.g. v24.11.0') });
/** GET /sandbox/clock; POST answers `frozen` too (CONTRACT §8, our `freeze`). */
export const SandboxClock = z.strictObject({ now: z.string().describe('ISO 8601'), frozen: z.boolean().optional() });
export const SandboxReset = z.strictObject({ status: z.literal('reset') });
export const SandboxAfterSalesOverride = z.strictObject({ bookingId: z.string(), afterSalesOverride: z.boolean() });

export { DecisionTrace };
export const SandboxTraces = z.strictObject({ requestId: z.string(), traces: z.array(DecisionTrace) });

/** GET /openapi.json: this document. Its paths and components are OpenAPI 3.1's own, described by that standard. */
export const OpenApiDocument = z.strictObject({
  openapi: z.literal('3.1.0'),
  info: z.strictObject({ title: z.string(), version: z.string(), description: z.string() }),
  tags: z.array(z.strictObject({ name: z.string(), description: z.string() })),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.record(z.string(), z.record(z.string(), z.unknown())),
});
