import type { BookingState } from '../../machines/booking.ts';
import type { BookingPartState } from '../../machines/booking-part.ts';
import type { ExchangeState } from '../../machines/exchange.ts';
import type { FulfillmentState } from '../../machines/fulfillment.ts';
import type { AftersalesOfferState } from '../../machines/offers.ts';
import type { Currency, Language, TravelPassEntry } from '../rules/schemas.ts';
import type { InternalPassengerType } from '../rules/facts.ts';
import type { CardReference } from './osdm/offer-request.ts';
import type { PaymentMethod } from './osdm/booking-patch-requests.ts';

/**
 * What the engine stores between calls: offers and bookings as plain JSON. Responses are rendered from
 * these per request (language, station code kind), so texts never go stale in the store.
 */

interface Vat {
  countryCode: string;
  amount: number;
  percentage: number;
  scope: 'NATIONAL';
}
/** OSDM Price: amount in minor units, scale 2 (CONTRACT §4). */
export interface Money {
  currency: Currency;
  amount: number;
  scale: 2;
  vats?: Vat[];
}

export interface Leg {
  /** The caller's leg externalRef, used as the leg id (unique within a request, CONTRACT §4a). */
  id: string;
  origin: string; // station ref as the caller sent it
  destination: string;
  departure: string; // ISO with offset
  arrival: string;
  /** The local date of the departure in the operator's calendar (engine/rules/calendar.ts): with the vehicle number, the train. */
  operatingDay: string;
  serviceName?: string;
  vehicleNumber: string;
  category: string; // ST, RE, IC, NT, EN, RB
  carrier: { ref: string; name?: string };
}

export interface Trip {
  id: string;
  legs: Leg[];
  mainLegId: string;
  international: boolean;
}

export interface OfferPassenger {
  externalRef: string;
  age: number;
  cards: CardReference[];
  internalType: InternalPassengerType;
  responseType: string;
  description: Record<Language, string>;
}

export interface OfferedProduct {
  code: string; // products.yaml key, e.g. DAY_2_STANDARD
  id: string; // offered product id, e.g. JREF_2_H
  flexibility: 'NON_FLEXIBLE' | 'FULL_FLEXIBLE';
}

export interface AdmissionPart {
  id: string;
  /** One passenger in offer mode INDIVIDUAL; all of them in COLLECTIVE (spec §2.3 rule 3). */
  passengerRefs: string[];
  offerMode: 'INDIVIDUAL' | 'COLLECTIVE';
  price: Money;
  legIds: string[];
  product: OfferedProduct;
  refundable: string;
  exchangeable: string;
  /** The travel passes (card numbers) that pay for this admission (spec §2.7 rule 8); absent when none does. */
  travelPasses?: string[];
}

export interface ReservationPart {
  id: string;
  passengerRef: string;
  legId: string;
  price: Money;
  product: OfferedProduct;
}

/** One ancillary a passenger may have on a leg (spec §2.8); the group says whether it is mandatory. */
export interface AncillaryPart {
  id: string;
  passengerRef: string;
  legId: string;
  item: string; // ancillary-items.yaml key
  group: string;
  /** minGroupItemsToBeBooked of the group: 0 optional, 1 mandatory. */
  groupMin: number;
  /** The item the group gets when the booking selects none (mandatory or included groups). */
  isDefault: boolean;
  price: Money;
  refundable: string;
  exchangeable: string;
}

/** What a travel pass offer sells (spec §4.2). */
export interface PassOffer {
  passType: string;
  kind: 'annual' | 'monthly' | 'multiRide';
  validFrom: string;
  validUntil: string;
  /** The two stations of a bound pass, as the request gave them. */
  places?: [string, string];
  fulfillment: { type: string; media: string };
}

export interface StoredOffer {
  offerId: string;
  owner: string;
  salesApplication: string;
  createdOn: string;
  preBookableUntil: string;
  currency: Currency;
  /** A journey's trip; a pass offer has a trip without legs and `pass`. */
  trip: Trip;
  pass?: PassOffer;
  /** An exchange offer (spec §4.1 rule 7): the booking and fulfillments it would replace. */
  exchange?: { bookingId: string; fulfillmentIds: string[]; partIds: string[]; /** Minor units, from rules/exchange-guards.yaml. */ fee?: number };
  passengers: OfferPassenger[];
  product: OfferedProduct;
  admissions: AdmissionPart[];
  reservations: ReservationPart[];
  ancillaries: AncillaryPart[];
  offerMode: 'INDIVIDUAL' | 'COLLECTIVE';
  minimalPrice: Money;
  corporateCodes: Array<{ code: string; beneficiary?: string; issuer?: string }>;
  promotionCodes: Array<{ code: string; issuer?: string }>;
}

export interface PersonDetail {
  firstName?: string;
  lastName?: string;
  email?: string;
  phoneNumber?: string;
}

export interface BookedPassenger {
  id: string;
  externalRef: string;
  age?: number;
  type: string; // the response type (PERSON when the age is not given, spec §2.6)
  detail?: PersonDetail;
  cards: CardReference[];
  prmNeeds?: string[];
  /** The age and cards the admission is priced for. */
  pricing: { age: number; cards: CardReference[] };
  /** The passenger type that price is for (spec §2.9), shown on the admission; absent on bookings stored before it was kept. */
  pricedAs?: { type: string; description: Record<Language, string> };
}

/** machines/booking-part.ts. */
export type BookingPartStatus = BookingPartState;

export interface BookedAdmission extends Omit<AdmissionPart, 'passengerRefs'> {
  passengerIds: string[];
  status: BookingPartStatus;
  /** What came back when it was refunded (spec §2.6 rule 10); 0 when nothing did. */
  refundAmount?: Money;
  createdOn: string;
  confirmedOn?: string;
}
/** What a reservation holds (stored on it, rendered as OSDM placeAllocation, spec §2.10). */
export interface PlaceAllocation {
  vehicleNumber: string;
  coachNumber: string;
  placeNumber: string;
  layoutId: string;
  placeProperties: string[];
  /** The compartment of a night coach. */
  compartment?: string;
  /** The gender a shared compartment takes from its first passenger (spec §2.5 rule 6). */
  gender?: string;
  /** Held as a private compartment: nobody of another booking may join it (spec §2.5). */
  private?: boolean;
  /** Held by its passenger alone: nobody may join it, of this booking or another (spec §2.4). */
  alone?: boolean;
}

export interface BookedReservation extends Omit<ReservationPart, 'passengerRef'> {
  passengerId: string;
  /** The place selection the booking asked for (spec §2.10), as given. */
  placeSelection?: unknown;
  /** The place it holds (spec §2.10; engine/seats/allocate.ts). */
  placeAllocation?: PlaceAllocation;
  status: BookingPartStatus;
  /** What came back when it was refunded (spec §2.6 rule 10); 0 when nothing did. */
  refundAmount?: Money;
  createdOn: string;
  confirmedOn?: string;
}

interface BookedAncillary extends Omit<AncillaryPart, 'passengerRef' | 'isDefault'> {
  passengerId: string;
  status: BookingPartStatus;
  /** What came back when it was refunded (spec §2.6 rule 10); 0 when nothing did. */
  refundAmount?: Money;
  createdOn: string;
  confirmedOn?: string;
  /** Added by the service because the booking did not select it (spec §2.8 rules 2–3). */
  autoAdded: boolean;
}

/** What refund, release and on-hold offers have in common (machines/offers.ts). */
export interface AftersalesOfferRecord {
  id: string;
  state: AftersalesOfferState;
  createdOn: string;
  validUntil: string;
  confirmedOn?: string;
}

/** The fulfillments an offer covers, and their booking parts. */
export interface CoversTickets {
  fulfillmentIds: string[];
  bookingPartIds: string[];
}

/** Spec §3, §4.1 rule 6: a refund offer; it changes the booking and stays in it once confirmed. */
export interface RefundOffer extends AftersalesOfferRecord, CoversTickets {
  overruleCode?: string;
  refundableAmount: Money;
  refundFee: Money;
  parts: Array<{ partId: string; refundAmount: Money }>;
  /** Made by a cleanup (spec §4.1 rule 12): confirmed at once, 100 %, no fee. */
  cleanup?: boolean;
}

/** Spec §4.1 rule 5: a release offer; no money moves. */
export interface ReleaseOffer extends AftersalesOfferRecord, CoversTickets {
  overruleCode: string;
}

/** Spec §4.1 rule 11: an on-hold offer; the booking does not show it. */
export interface OnHoldOffer extends AftersalesOfferRecord {
  increasedTTL: string;
}

/** Spec §3, §4.1 rule 7: an exchange operation; its new parts join the booking when it is confirmed. */
export interface ExchangeOperation {
  id: string;
  state: ExchangeState;
  createdOn: string;
  validUntil: string;
  exchangeOfferId: string;
  /** The exchange offer booked, as it was offered (its answer shows it again); absent on operations stored before it was kept. */
  offer?: StoredOffer;
  /** The parts given up, EXCHANGE_ONGOING meanwhile. */
  originalPartIds: string[];
  fulfillmentIds: string[];
  trip: Trip;
  exchangePrice: Money;
  /** Minor units, from the exchange offer (rules/exchange-guards.yaml); absent in operations stored before it was kept. */
  exchangeFee?: number;
  admissions: BookedAdmission[];
  reservations: BookedReservation[];
  ancillaries: BookedAncillary[];
  confirmedOn?: string;
}

export interface Fulfillment {
  id: string;
  /** machines/fulfillment.ts. */
  status: FulfillmentState;
  createdOn: string;
  bookingPartIds: string[];
  passengerIds: string[];
  /** The ticket number; only fulfillments that are tickets (admissions) carry one. */
  controlNumber?: string;
  /** Base64 of the Aztec payload (CONTRACT §4b). */
  barcode?: string;
}

export interface Booking {
  id: string;
  owner: string;
  salesApplication: string;
  createdOn: string;
  externalRef: string;
  /** The booking machine's state (machines/booking.ts), stored with the booking. */
  machine: { value: BookingState };
  confirmationTimeLimit: string;
  confirmedOn?: string;
  currency: Currency;
  offerId: string;
  trip: Trip;
  product: OfferedProduct;
  throughTicketTags: string[];
  purchaser?: { externalRef?: string; detail?: PersonDetail };
  passengers: BookedPassenger[];
  admissions: BookedAdmission[];
  reservations: BookedReservation[];
  ancillaries: BookedAncillary[];
  offerMode: 'INDIVIDUAL' | 'COLLECTIVE';
  fulfillments: Fulfillment[];
  /** Appended by booking patches, never edited or removed (spec §4.1 rule 2). */
  paymentMethods: Array<Pick<PaymentMethod, 'type' | 'transactionId'>>;
  refundOffers?: RefundOffer[];
  exchangeOperations?: ExchangeOperation[];
  releaseOffers?: ReleaseOffer[];
  onHoldOffer?: OnHoldOffer;
  /** Spec §4.1 rule 11: once per booking. */
  onHoldUsed?: boolean;
  /** Spec §4.1 rule 8: an after-sales override profile makes the booking refundable and rebookable. */
  afterSalesOverride?: boolean;
  /** A travel pass purchase (spec §4.2): what is sold; no trip. */
  pass?: PassOffer & {
    number?: string;
    /** The pass's first valid day (YYYY-MM-DD): validFrom's local day in the operator's calendar. */
    firstDay?: string;
    /** The pass's last valid day (YYYY-MM-DD), both days included like customers.yaml's validTo. */
    lastDay?: string;
    /** A multi-ride pass's rides when bought (customers.yaml passTypes `rides`). */
    rides?: number;
    /** A personal pass's holder: the e-mail of their customers.yaml entry (spec §4.2 rule 4). */
    holder?: string;
  };
  corporateCodes: StoredOffer['corporateCodes'];
  promotionCodes: StoredOffer['promotionCodes'];
  provisionalPrice: Money;
  confirmedPrice: Money;
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
