import { z } from 'zod';
import type { AnyStateMachine, StateValueFrom } from 'xstate';
import { bookingMachine } from '../../machines/booking.ts';
import { bookingPartMachine, type BookingPartState } from '../../machines/booking-part.ts';
import { exchangeMachine } from '../../machines/exchange.ts';
import { fulfillmentMachine } from '../../machines/fulfillment.ts';
import { aftersalesOfferMachine } from '../../machines/offers.ts';
import { Currency, Flexibility, LocalizedText, type Language, type TravelPassEntry } from '../rules/schemas.ts';
import { InternalPassengerType } from '../rules/facts.ts';
import { violation } from '../rules/violation.ts';
import { CardReference } from './osdm/offer-request.ts';
import { PaymentMethod } from './osdm/booking-patch-requests.ts';
/**
 * What the engine stores between calls: offers and bookings as plain JSON. Responses are rendered from
 * these per request (language, station code kind), so texts never go stale in the store. Each shape is a zod schema
 * and its type: a store decodes the bookings it reads with `Booking` (`decodeStoredBooking`).
 */

/** A machine's state as stored: one of the machine's own states, read off the machine. */
function stateOf<M extends AnyStateMachine>(machine: M) {
  return z.enum(Object.keys(machine.root.states) as [StateValueFrom<M> & string, ...Array<StateValueFrom<M> & string>]);
}

const Vat = z.object({
  countryCode: z.string(),
  amount: z.number(),
  percentage: z.number(),
  scope: z.literal('NATIONAL'),
});
/** OSDM Price: amount in minor units, scale 2 (CONTRACT §4). */
export const Money = z.object({
  currency: Currency,
  amount: z.number(),
  scale: z.literal(2),
  vats: z.array(Vat).optional(),
});
export type Money = z.infer<typeof Money>;

export const Leg = z.object({
  /** The caller's leg externalRef, used as the leg id (unique within a request, CONTRACT §4a). */
  id: z.string(),
  /** The station ref as the caller sent it. */
  origin: z.string(),
  destination: z.string(),
  /** ISO with offset. */
  departure: z.string(),
  arrival: z.string(),
  /** The local date of the departure in the operator's calendar (engine/rules/calendar.ts): with the vehicle number, the train. */
  operatingDay: z.string(),
  serviceName: z.string().optional(),
  vehicleNumber: z.string(),
  /** ST, RE, IC, NT, EN, RB. */
  category: z.string(),
  carrier: z.object({ ref: z.string(), name: z.string().optional() }),
});
export type Leg = z.infer<typeof Leg>;

export const Trip = z.object({
  id: z.string(),
  legs: z.array(Leg),
  mainLegId: z.string(),
  international: z.boolean(),
});
export type Trip = z.infer<typeof Trip>;

const OfferPassenger = z.object({
  externalRef: z.string(),
  age: z.number(),
  cards: z.array(CardReference),
  internalType: InternalPassengerType,
  responseType: z.string(),
  /**
   * The passengerType row that typed the passenger (rules/passenger-types.yaml): its description is read from the
   * rules when the offer is rendered or booked, so a quote keeps the decision, not the text in every language.
   * Absent from quotes stored before it was kept.
   */
  typedBy: z.string().optional(),
});
export type OfferPassenger = z.infer<typeof OfferPassenger>;

const OfferedProduct = z.object({
  /** products.yaml key, e.g. DAY_2_STANDARD. */
  code: z.string(),
  /** Offered product id, e.g. JREF_2_H. */
  id: z.string(),
  flexibility: Flexibility,
});
export type OfferedProduct = z.infer<typeof OfferedProduct>;

const OfferMode = z.enum(['INDIVIDUAL', 'COLLECTIVE']);

const AdmissionPart = z.object({
  id: z.string(),
  /** One passenger in offer mode INDIVIDUAL; all of them in COLLECTIVE (spec §2.3 rule 3). */
  passengerRefs: z.array(z.string()),
  offerMode: OfferMode,
  price: Money,
  legIds: z.array(z.string()),
  product: OfferedProduct,
  refundable: z.string(),
  exchangeable: z.string(),
  /** The travel passes (card numbers) that pay for this admission (spec §2.7 rule 8); absent when none does. */
  travelPasses: z.array(z.string()).optional(),
});
export type AdmissionPart = z.infer<typeof AdmissionPart>;

const ReservationPart = z.object({
  id: z.string(),
  passengerRef: z.string(),
  legId: z.string(),
  price: Money,
  product: OfferedProduct,
});
export type ReservationPart = z.infer<typeof ReservationPart>;

/** One ancillary a passenger may have on a leg (spec §2.8); the group says whether it is mandatory. */
const AncillaryPart = z.object({
  id: z.string(),
  passengerRef: z.string(),
  legId: z.string(),
  /** ancillary-items.yaml key. */
  item: z.string(),
  group: z.string(),
  /** minGroupItemsToBeBooked of the group: 0 optional, 1 mandatory. */
  groupMin: z.number(),
  /** The item the group gets when the booking selects none (mandatory or included groups). */
  isDefault: z.boolean(),
  price: Money,
  refundable: z.string(),
  exchangeable: z.string(),
});
export type AncillaryPart = z.infer<typeof AncillaryPart>;

/** What a travel pass offer sells (spec §4.2). */
const PassOffer = z.object({
  passType: z.string(),
  kind: z.enum(['annual', 'monthly', 'multiRide']),
  validFrom: z.string(),
  validUntil: z.string(),
  /** The two stations of a bound pass, as the request gave them. */
  places: z.tuple([z.string(), z.string()]).optional(),
  fulfillment: z.object({ type: z.string(), media: z.string() }),
});
export type PassOffer = z.infer<typeof PassOffer>;

const CorporateCodes = z.array(z.object({ code: z.string(), beneficiary: z.string().optional(), issuer: z.string().optional() }));
const PromotionCodes = z.array(z.object({ code: z.string(), issuer: z.string().optional() }));

export const StoredOffer = z.object({
  offerId: z.string(),
  owner: z.string(),
  salesApplication: z.string(),
  createdOn: z.string(),
  preBookableUntil: z.string(),
  currency: Currency,
  /** A journey's trip; a pass offer has a trip without legs and `pass`. */
  trip: Trip,
  pass: PassOffer.optional(),
  /** An exchange offer (spec §4.1 rule 7): the booking and fulfillments it would replace. */
  exchange: z
    .object({
      bookingId: z.string(),
      fulfillmentIds: z.array(z.string()),
      partIds: z.array(z.string()),
      /** Minor units, from rules/exchange-guards.yaml. */
      fee: z.number().optional(),
    })
    .optional(),
  passengers: z.array(OfferPassenger),
  product: OfferedProduct,
  admissions: z.array(AdmissionPart),
  reservations: z.array(ReservationPart),
  ancillaries: z.array(AncillaryPart),
  offerMode: OfferMode,
  minimalPrice: Money,
  corporateCodes: CorporateCodes,
  promotionCodes: PromotionCodes,
  /** The rule release that priced the offer (docs/releases.md); absent when the rules the server started with did. */
  release: z.string().optional(),
});
export type StoredOffer = z.infer<typeof StoredOffer>;

const PersonDetail = z.object({
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  email: z.string().optional(),
  phoneNumber: z.string().optional(),
});
export type PersonDetail = z.infer<typeof PersonDetail>;

const BookedPassenger = z.object({
  id: z.string(),
  externalRef: z.string(),
  age: z.number().optional(),
  /** The response type (PERSON when the age is not given, spec §2.6). */
  type: z.string(),
  detail: PersonDetail.optional(),
  cards: z.array(CardReference),
  prmNeeds: z.array(z.string()).optional(),
  /** The age and cards the admission is priced for. */
  pricing: z.object({ age: z.number(), cards: z.array(CardReference) }),
  /** The passenger type that price is for (spec §2.9), shown on the admission; absent on bookings stored before it was kept. */
  pricedAs: z.object({ type: z.string(), description: LocalizedText }).optional(),
});
export type BookedPassenger = z.infer<typeof BookedPassenger>;

/** machines/booking-part.ts. */
const BookingPartStatus = stateOf(bookingPartMachine);
export type BookingPartStatus = BookingPartState;

/** What every booked part keeps beside what was offered. */
const Booked = {
  status: BookingPartStatus,
  /** What came back when it was refunded (spec §2.6 rule 10); 0 when nothing did. */
  refundAmount: Money.optional(),
  createdOn: z.string(),
  confirmedOn: z.string().optional(),
};

const BookedAdmission = AdmissionPart.omit({ passengerRefs: true }).extend({ passengerIds: z.array(z.string()), ...Booked });
export type BookedAdmission = z.infer<typeof BookedAdmission>;

/** What a reservation holds (stored on it, rendered as OSDM placeAllocation, spec §2.10). */
const PlaceAllocation = z.object({
  vehicleNumber: z.string(),
  coachNumber: z.string(),
  placeNumber: z.string(),
  layoutId: z.string(),
  placeProperties: z.array(z.string()),
  /** The compartment of a night coach. */
  compartment: z.string().optional(),
  /** The gender a shared compartment takes from its first passenger (spec §2.5 rule 6). */
  gender: z.string().optional(),
  /** Held as a private compartment: nobody of another booking may join it (spec §2.5). */
  private: z.boolean().optional(),
  /** Held by its passenger alone: nobody may join it, of this booking or another (spec §2.4). */
  alone: z.boolean().optional(),
});
export type PlaceAllocation = z.infer<typeof PlaceAllocation>;

const BookedReservation = ReservationPart.omit({ passengerRef: true }).extend({
  passengerId: z.string(),
  /** The place selection the booking asked for (spec §2.10), as given. */
  placeSelection: z.unknown().optional(),
  /** The place it holds (spec §2.10; engine/seats/allocate.ts). */
  placeAllocation: PlaceAllocation.optional(),
  ...Booked,
});
export type BookedReservation = z.infer<typeof BookedReservation>;

const BookedAncillary = AncillaryPart.omit({ passengerRef: true, isDefault: true }).extend({
  passengerId: z.string(),
  ...Booked,
  /** Added by the service because the booking did not select it (spec §2.8 rules 2–3). */
  autoAdded: z.boolean(),
});

/** What refund, release and on-hold offers have in common (machines/offers.ts). */
const AftersalesOfferRecord = z.object({
  id: z.string(),
  state: stateOf(aftersalesOfferMachine),
  createdOn: z.string(),
  validUntil: z.string(),
  confirmedOn: z.string().optional(),
});
export type AftersalesOfferRecord = z.infer<typeof AftersalesOfferRecord>;

/** The fulfillments an offer covers, and their booking parts. */
const CoversTickets = z.object({
  fulfillmentIds: z.array(z.string()),
  bookingPartIds: z.array(z.string()),
});
export type CoversTickets = z.infer<typeof CoversTickets>;

/** Spec §3, §4.1 rule 6: a refund offer; it changes the booking and stays in it once confirmed. */
const RefundOffer = AftersalesOfferRecord.extend({
  ...CoversTickets.shape,
  overruleCode: z.string().optional(),
  refundableAmount: Money,
  refundFee: Money,
  parts: z.array(z.object({ partId: z.string(), refundAmount: Money })),
  /** Made by a cleanup (spec §4.1 rule 12): confirmed at once, 100 %, no fee. */
  cleanup: z.boolean().optional(),
});
export type RefundOffer = z.infer<typeof RefundOffer>;

/** Spec §4.1 rule 5: a release offer; no money moves. */
const ReleaseOffer = AftersalesOfferRecord.extend({ ...CoversTickets.shape, overruleCode: z.string() });
export type ReleaseOffer = z.infer<typeof ReleaseOffer>;

/** Spec §4.1 rule 11: an on-hold offer; the booking does not show it. */
const OnHoldOffer = AftersalesOfferRecord.extend({ increasedTTL: z.string() });
export type OnHoldOffer = z.infer<typeof OnHoldOffer>;

/** Spec §3, §4.1 rule 7: an exchange operation; its new parts join the booking when it is confirmed. */
const ExchangeOperation = z.object({
  id: z.string(),
  state: stateOf(exchangeMachine),
  createdOn: z.string(),
  validUntil: z.string(),
  exchangeOfferId: z.string(),
  /** The exchange offer booked, as it was offered (its answer shows it again); absent on operations stored before it was kept. */
  offer: StoredOffer.optional(),
  /** The parts given up, EXCHANGE_ONGOING meanwhile. */
  originalPartIds: z.array(z.string()),
  fulfillmentIds: z.array(z.string()),
  trip: Trip,
  exchangePrice: Money,
  /** Minor units, from the exchange offer (rules/exchange-guards.yaml); absent in operations stored before it was kept. */
  exchangeFee: z.number().optional(),
  admissions: z.array(BookedAdmission),
  reservations: z.array(BookedReservation),
  ancillaries: z.array(BookedAncillary),
  confirmedOn: z.string().optional(),
});
export type ExchangeOperation = z.infer<typeof ExchangeOperation>;

const Fulfillment = z.object({
  id: z.string(),
  /** machines/fulfillment.ts. */
  status: stateOf(fulfillmentMachine),
  createdOn: z.string(),
  bookingPartIds: z.array(z.string()),
  passengerIds: z.array(z.string()),
  /** The ticket number; only fulfillments that are tickets (admissions) carry one. */
  controlNumber: z.string().optional(),
  /** Base64 of the Aztec payload (CONTRACT §4b). */
  barcode: z.string().optional(),
});
export type Fulfillment = z.infer<typeof Fulfillment>;

/** A booking as the store keeps it: stores decode what they read with it (`decodeStoredBooking`). */
export const Booking = z.object({
  id: z.string(),
  owner: z.string(),
  salesApplication: z.string(),
  createdOn: z.string(),
  externalRef: z.string(),
  /** The booking machine's state (machines/booking.ts), stored with the booking. */
  machine: z.object({ value: stateOf(bookingMachine) }),
  confirmationTimeLimit: z.string(),
  confirmedOn: z.string().optional(),
  currency: Currency,
  offerId: z.string(),
  trip: Trip,
  product: OfferedProduct,
  throughTicketTags: z.array(z.string()),
  purchaser: z.object({ externalRef: z.string().optional(), detail: PersonDetail.optional() }).optional(),
  passengers: z.array(BookedPassenger),
  admissions: z.array(BookedAdmission),
  reservations: z.array(BookedReservation),
  ancillaries: z.array(BookedAncillary),
  offerMode: OfferMode,
  fulfillments: z.array(Fulfillment),
  /** Appended by booking patches, never edited or removed (spec §4.1 rule 2). */
  paymentMethods: z.array(PaymentMethod.pick({ type: true, transactionId: true })),
  refundOffers: z.array(RefundOffer).optional(),
  exchangeOperations: z.array(ExchangeOperation).optional(),
  releaseOffers: z.array(ReleaseOffer).optional(),
  onHoldOffer: OnHoldOffer.optional(),
  /** Spec §4.1 rule 11: once per booking. */
  onHoldUsed: z.boolean().optional(),
  /** Spec §4.1 rule 8: an after-sales override profile makes the booking refundable and rebookable. */
  afterSalesOverride: z.boolean().optional(),
  /** A travel pass purchase (spec §4.2): what is sold; no trip. */
  pass: PassOffer.extend({
    number: z.string().optional(),
    /** The pass's first valid day (YYYY-MM-DD): validFrom's local day in the operator's calendar. */
    firstDay: z.string().optional(),
    /** The pass's last valid day (YYYY-MM-DD), both days included like customers.yaml's validTo. */
    lastDay: z.string().optional(),
    /** A multi-ride pass's rides when bought (customers.yaml passTypes `rides`). */
    rides: z.number().optional(),
    /** A personal pass's holder: the e-mail of their customers.yaml entry (spec §4.2 rule 4). */
    holder: z.string().optional(),
  }).optional(),
  corporateCodes: CorporateCodes,
  promotionCodes: PromotionCodes,
  provisionalPrice: Money,
  confirmedPrice: Money,
  /**
   * The rule release its offers were priced with, which decides every later step on it (docs/releases.md); absent when
   * the rules the server started with did, and on bookings stored before releases existed.
   */
  release: z.string().optional(),
});
export type Booking = z.infer<typeof Booking>;

/**
 * A booking read from a store, checked against the schema: a row that is not a booking (written by hand, cut short,
 * from another program) is refused as X_BOOKING_UNREADABLE, naming the booking and the first field at fault, instead
 * of failing somewhere in the engine.
 */
export function decodeStoredBooking(id: string, data: unknown): Booking {
  const result = Booking.safeParse(data);
  // The booking as read, not the schema's copy of it: that copy orders keys as the schema does and drops those it
  // does not name, which would change what is stored again and answered.
  if (result.success) return data as Booking;
  const issue = result.error.issues[0]!;
  throw violation('X_BOOKING_UNREADABLE', { id, field: issue.path.length > 0 ? `/${issue.path.join('/')}` : '/' });
}

/** Who is asking, already authenticated by the adapter. */
export interface Requestor {
  client: string;
  salesApplication: string;
  salesUnitCode: string;
  language: Language;
}

/** The id source the caller gives the engine (randomness stays outside it). */
export interface IdSource {
  next(kind: 'offer' | 'booking' | 'part' | 'passenger' | 'fulfillment' | 'pass'): string;
}

/**
 * Spec §4.2 rule 6: a travel pass bought through the API is, once confirmed, a pass like those of customers.yaml,
 * its number the fulfillment's controlNumber; spec §2.7 rule 8 checks it as it checks them (validity, class,
 * stations, the holder's name). A store indexes the passes its bookings sold (Store.soldPasses) by pass number
 * and by holder (holdings/sold-passes.ts), as it indexes pass uses by pass.
 */
export interface SoldPass extends TravelPassEntry {
  bookingId: string;
  /** The holder of a personal pass: the e-mail of their entry in customers.yaml. */
  holder?: string;
}

/** A warning of a successful answer (OSDM `warnings`), its text from rules/errors.yaml in the caller's language. */
export interface Warning {
  code: string;
  params?: Record<string, unknown>;
}
