import { z } from 'zod';
import { ExchangeOperation, RefundOffer, ReleaseOffer } from './aftersales-response.ts';
import { CardReference } from './offer-request.ts';
import { AppliedCorporateCode, AppliedPassengerType } from './offer-response.ts';
import { BookingPartStatus, FulfillmentSummary, Instant, Price, ProductLegAssociation, Ref, TripCoverage, WarningCollection } from './shapes.ts';
import { PlaceAllocation } from './seat-response.ts';
import { PaymentMethod } from './booking-patch-requests.ts';

export { FulfillmentSummary } from './shapes.ts';
import { PlaceSelection } from './shapes.ts';

/**
 * BookingResponse and the answers read off a booking (spec §2.6 booking response facts, §2.7, §4.1; CONTRACT §4b,
 * §6) as engine/booking/render.ts and engine/index.ts render them, in OSDM 3.4 names.
 */

/**
 * A person's details as the booking shows them. OSDM 3.4 PersonDetail requires firstName and lastName; a
 * booking may lack them until confirmation (spec §2.7 rule 3), so both are optional here. E-mail and phone
 * number are under `contact` (OSDM ContactDetail), not at the top as in the request.
 */
export const BookedPersonDetail = z.strictObject({
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  contact: z.strictObject({ email: z.string().optional(), phoneNumber: z.string().optional() }).optional(),
});

/** OSDM Passenger. Travel passes are never shown among the cards (spec §2.6 rule 10). */
export const Passenger = z.strictObject({
  id: z.string(),
  externalRef: z.string(),
  type: z.string(),
  age: z.number().int().optional(),
  detail: BookedPersonDetail.optional(),
  prmNeeds: z.array(z.string()).optional(),
  cards: z.array(CardReference),
});

/** OSDM Purchaser. */
export const BookedPurchaser = z.strictObject({
  externalRef: z.string().optional(),
  detail: BookedPersonDetail.optional(),
});

/** The fields every booking part shows (OSDM AbstractBookingPart). */
const bookingPart = {
  id: z.string(),
  summary: z.string(),
  createdOn: Instant,
  validFrom: Instant,
  validUntil: Instant,
  confirmedOn: Instant.optional(),
  price: Price,
  status: BookingPartStatus,
  /** After a refund (spec §2.6 rule 10); 0 when nothing came back. */
  refundAmount: Price.optional(),
  passengerIds: z.array(z.string()),
  refundable: z.string(),
  exchangeable: z.string(),
  products: z.array(ProductLegAssociation),
  tripCoverage: TripCoverage,
};

export const Admission = z.strictObject({
  objectType: z.literal('Admission'),
  ...bookingPart,
  /** The passenger types the admission is priced for, as its offer part showed them; `passengerRef` is the passenger's id. */
  appliedPassengerTypes: z.array(AppliedPassengerType).optional(),
  /** The booking's corporate codes (spec §2.3 rule 5), each with its issuer. */
  appliedCorporateCodes: z.array(AppliedCorporateCode).optional(),
  reservationRefs: z.array(Ref),
  ancillaryRefs: z.array(Ref),
  regulatoryConditions: z.array(z.string()).optional(),
});

export const Reservation = z.strictObject({
  objectType: z.literal('Reservation'),
  ...bookingPart,
  /** The place selection the booking asked for (spec §2.10), as given, with the reservation's id. */
  placeSelection: PlaceSelection.optional(),
  placeAllocation: PlaceAllocation.optional(),
});

export const Ancillary = z.strictObject({
  objectType: z.literal('Ancillary'),
  ...bookingPart,
  type: z.string(),
});

/** OSDM BookedOffer: the offer booked and its parts. */
export const BookedOffer = z.strictObject({
  offerId: z.string(),
  admissions: z.array(Admission),
  reservations: z.array(Reservation),
  ancillaries: z.array(Ancillary),
  appliedThroughTicketTags: z.array(z.string()).optional(),
});

/** OSDM Fulfillment as GET /fulfillments/{id} shows it: the Aztec payload is a BAR_CODE security feature, Base64 (CONTRACT §4b). */
export const Fulfillment = FulfillmentSummary.extend({
  issuingLanguage: z.enum(['sv-SE', 'en-GB']),
  contentComplete: z.boolean(),
  fulfillmentParts: z.array(
    z.strictObject({
      controlId: z.string(),
      passengerRef: z.string(),
      securityFeatures: z.array(
        z.strictObject({
          type: z.strictObject({ type: z.literal('BAR_CODE'), symbology: z.literal('AZTEC'), format: z.literal('BINARY') }),
          data: z.string().describe('Base64'),
        }),
      ),
    }),
  ),
});

/**
 * OSDM Booking. `refundAmount` at booking level is the one addition to OSDM 3.4's Booking (spec §2.6 rule 10, a
 * deviation CONTRACT §4c lists); `confirmationTimeLimit` goes once the booking is fulfilled.
 */
export const Booking = z.strictObject({
  id: z.string(),
  bookingCode: z.string().describe('The booking id (spec §2.6 rule 1).'),
  externalRef: z.string(),
  createdOn: Instant,
  confirmationTimeLimit: Instant.optional(),
  purchaser: BookedPurchaser.optional(),
  passengers: z.array(Passenger),
  bookedOffers: z.array(BookedOffer),
  /** A travel pass purchase: how the pass is delivered (spec §4.2 rule 5). */
  fulfillmentType: z.string().optional(),
  paymentMethods: z.array(PaymentMethod).optional(),
  provisionalPrice: Price,
  confirmedPrice: Price,
  fulfillments: z.array(FulfillmentSummary),
  refundOffers: z.array(RefundOffer).optional(),
  releaseOffers: z.array(ReleaseOffer).optional(),
  exchangeOperations: z.array(ExchangeOperation).optional(),
  refundAmount: Price.optional(),
});

/** POST /booking, GET and PATCH /bookings/{id} → 200. Warnings: incomplete passenger data, no purchaser, … (rules/errors.yaml). */
export const BookingResponse = z.strictObject({ booking: Booking, warnings: WarningCollection.optional() });
export const PassengerResponse = z.strictObject({ passenger: Passenger });
export const PurchaserResponse = z.strictObject({ purchaser: BookedPurchaser });
export const FulfillmentResponse = z.strictObject({ fulfillment: Fulfillment });
/** POST /bookings/{id}/fulfillments → 200 (the OSDM form; fulfillment is synchronous here). */
export const FulfillmentCollectionResponse = z.strictObject({ fulfillments: z.array(Fulfillment) });
