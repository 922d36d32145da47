import { z } from 'zod';
import { CardReference, PromotionCode } from './offer-request.ts';
import { PlaceSelection } from './shapes.ts';

/**
 * BookingRequest as the operator accepts it (spec §2.6), in OSDM 3.4 field names. Passenger details may
 * be incomplete at creation (spec §2.7 rule 3); the rules that need them run at confirmation.
 */
const ignored = z.unknown().optional();

const Contact = z.strictObject({
  email: z.string().optional(),
  phoneNumber: z.string().optional(),
  summary: ignored,
  preferredLanguage: ignored,
  address: ignored,
  postalAddress: ignored,
});

export const PersonDetail = z.strictObject({
  firstName: z.string().min(1).optional(),
  lastName: z.string().min(1).optional(),
  email: z.string().email('an e-mail address').optional(),
  phoneNumber: z.string().optional(),
  contact: Contact.optional(),
  // Spec §2.6: ignored if present.
  address: ignored,
  preferredLanguage: ignored,
  summary: ignored,
  firstFamilyName: ignored,
  secondFamilyName: ignored,
  postalAddress: ignored,
  taxId: ignored,
});
export type PersonDetailInput = z.infer<typeof PersonDetail>;

/**
 * A passenger's details as a booking request or a passenger patch may send them: spec §2.6 names the e-mail
 * `eMail`, OSDM and the purchaser's details `email`. Both are taken (CONTRACT §4); read, it is `email`.
 */
export const PassengerDetail = PersonDetail.extend({ eMail: z.string().email('an e-mail address').optional() })
  .refine((d) => d.eMail === undefined || d.email === undefined || d.eMail === d.email, { message: 'eMail and email differ: give one', path: ['eMail'] })
  .transform(({ eMail, ...d }) => (eMail === undefined || d.email !== undefined ? d : { ...d, email: eMail }));

export const PassengerSpecification = z.strictObject({
  externalRef: z.string().min(1),
  type: z.literal('PERSON'), // spec §2.6: always PERSON; zod's own message, in the caller's language
  age: z.number().int().min(0).max(130).optional(),
  cards: z.array(CardReference).default([]),
  prmNeeds: z.array(z.string()).optional(),
  detail: PassengerDetail.optional(),
  // Spec §2.6: ignored if present.
  gender: ignored,
  dateOfBirth: ignored,
});
export type PassengerSpecification = z.infer<typeof PassengerSpecification>;

export const Purchaser = z.strictObject({
  externalRef: z.string().optional(),
  detail: PersonDetail.extend({
    // Spec §2.7 rule 1: an address id, if given, must be a URN.
    address: z
      .object({
        id: z
          .string()
          .regex(/^urn:[a-z0-9][a-z0-9-]{0,31}:\S+$/i, 'a URN')
          .optional(),
      })
      .passthrough()
      .optional(),
  }),
  companyDetails: ignored,
});

export const OfferSelection = z.strictObject({
  offerId: z.string().min(1),
  passengerRefs: z.array(z.string().min(1)).min(1),
  throughTicketTags: z.array(z.enum(['RESPLUS'])).optional(),
  placeSelections: z.array(PlaceSelection).optional(),
  /** Spec §2.8 rule 2: the ancillaries chosen, one item per group; mandatory ones not chosen are added with their default. */
  optionalAncillarySelections: z.array(z.strictObject({ ancillaryId: z.string().min(1), passengerRefs: z.array(z.string()).optional() })).optional(),
  externalRef: ignored,
  optionalReservationSelections: ignored,
  afterSaleByRetailerOnly: ignored,
  appliedRegulatoryCondition: ignored,
});

export const BookingRequest = z.strictObject({
  externalRef: z.string().min(1), // spec §2.6: the caller's unique reference
  offers: z.array(OfferSelection),
  passengerSpecifications: z.array(PassengerSpecification).min(1),
  purchaser: Purchaser.optional(),
  placeSelections: z.array(PlaceSelection).optional(),
  promotionCodes: z.array(PromotionCode).optional(),
  embed: z.array(z.string()).optional(),
  requestedFulfillmentType: ignored,
  preferredFulfillmentMedia: ignored,
});
export type BookingRequest = z.infer<typeof BookingRequest>;
