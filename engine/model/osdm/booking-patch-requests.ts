import { z } from 'zod';
import { CardReference } from './offer-request.ts';
import { PlaceSelection } from './shapes.ts';
import { PassengerDetail, Purchaser } from './booking-request.ts';

/**
 * Bodies of the booking patches (spec §4.1, CONTRACT §4b, §6). A passenger or purchaser patch replaces the
 * details and must be complete (spec §2.7 rules 3, 5).
 */
const ignored = z.unknown().optional();

export const PassengerPatch = z.strictObject({
  id: z.string().optional(),
  externalRef: z.string().optional(),
  type: z.literal('PERSON').optional(), // spec §2.6
  age: z.number().int().min(0).max(130).optional(),
  /** When present, the passenger's new full list of cards; absent leaves them as they are (CONTRACT §4b). */
  cards: z.array(CardReference).optional(),
  prmNeeds: z.array(z.string()).optional(),
  detail: PassengerDetail,
  gender: ignored,
  dateOfBirth: ignored,
});
export type PassengerPatch = z.infer<typeof PassengerPatch>;

export const PurchaserPatch = Purchaser;

export const PaymentMethod = z.strictObject({
  type: z.enum(['CARD', 'CASH', 'DIRECT_DEBIT', 'ELECTRONIC_PAYMENT', 'INVOICE', 'VOUCHER', 'TRAVEL_ACCOUNT']),
  transactionId: z.string().optional(),
  voucherInformation: ignored,
  remainingVoucherAmount: ignored,
});
export type PaymentMethod = z.infer<typeof PaymentMethod>;

export const BookingPatch = z.strictObject({
  placeSelections: z.array(PlaceSelection).optional(),
  usedPaymentMethods: z.array(PaymentMethod).optional(),
  requestedFulfillmentType: z.string().optional(),
  preferredFulfillmentMedia: z.string().optional(),
  externalRef: z.string().optional(),
});
export type BookingPatch = z.infer<typeof BookingPatch>;
