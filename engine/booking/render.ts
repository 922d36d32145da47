import { renderExchangeOperation, renderRefundOffer, renderReleaseOffer } from './render-aftersales.ts';
import type { Booking, BookedAdmission, BookedReservation, Fulfillment, Money } from '../model/records.ts';
import { sum } from '../offers/pricing.ts';
import { appliedCorporateCodes } from '../offers/render.ts';
import type { RuleSet } from '../rules/ruleset.ts';
import { renderPlaceAllocation, renderPlaceSelection } from '../seats/render.ts';
import { fulfillmentSummary } from './fulfillment-summary.ts';
import { tripOfPart } from '../model/trips.ts';
import type { Language } from '../rules/schemas.ts';
import type { z } from 'zod';
import type * as R from '../model/osdm/booking-response.ts';
import { isConfirmedOperation, isOpenOffer, isPendingOperation } from '../state/aftersales-state.ts';
import { isConfirmed } from '../state/booking-state.ts';

/** OSDM 3.4 Booking rendered from the stored booking (spec §2.6 booking response facts). */
export function renderBooking(rules: RuleSet, booking: Booking, language: Language): z.infer<typeof R.Booking> {
  const refunded = [...booking.admissions, ...booking.reservations, ...booking.ancillaries].flatMap((p) => (p.refundAmount ? [p.refundAmount] : []));
  const refundAmountOf = (p: { refundAmount?: Money }) => (p.refundAmount ? { refundAmount: p.refundAmount } : {});
  const trip = booking.trip;
  const coverage = (partId: string, legIds: string[]) => ({ coveredTripId: tripOfPart(booking, partId).id, coveredLegIds: legIds });
  const validity = (partId: string, legIds: string[]) => {
    if (booking.pass) return { validFrom: booking.pass.validFrom, validUntil: booking.pass.validUntil };
    // A part's legs are legs of its own trip: the booking's, or the new trip of the exchange that made it.
    const legs = tripOfPart(booking, partId).legs.filter((l) => legIds.includes(l.id));
    return { validFrom: legs[0]!.departure, validUntil: legs[legs.length - 1]!.arrival };
  };
  const corporateCodes = appliedCorporateCodes(rules, booking.corporateCodes);
  // The passenger types an admission is priced for, as its offer part showed them (OSDM: passengerRef is the id now).
  const appliedPassengerTypesOf = (a: BookedAdmission) => {
    const types = a.passengerIds.flatMap((id) => {
      const p = booking.passengers.find((x) => x.id === id);
      return p?.pricedAs ? [{ passengerRef: p.id, type: p.pricedAs.type, description: p.pricedAs.description[language] }] : [];
    });
    return types.length ? { appliedPassengerTypes: types } : {};
  };
  const summary = (code: string) => rules.products.products[code]?.summary[language] ?? rules.customers.passTypes[code]?.name[language] ?? code;
  const admission = (a: BookedAdmission) => ({
    objectType: 'Admission' as const,
    id: a.id,
    summary: summary(a.product.code),
    createdOn: a.createdOn,
    ...validity(a.id, a.legIds),
    ...(a.confirmedOn ? { confirmedOn: a.confirmedOn } : {}),
    price: a.price,
    status: a.status,
    ...refundAmountOf(a),
    passengerIds: a.passengerIds,
    refundable: a.refundable,
    exchangeable: a.exchangeable,
    products: [{ productId: a.product.id, legIds: a.legIds }],
    tripCoverage: coverage(a.id, a.legIds),
    ...appliedPassengerTypesOf(a),
    ...(corporateCodes.length ? { appliedCorporateCodes: corporateCodes } : {}),
    reservationRefs: booking.reservations.filter((r) => a.passengerIds.includes(r.passengerId)).map((r) => ({ id: r.id })),
    ancillaryRefs: booking.ancillaries.filter((x) => a.passengerIds.includes(x.passengerId)).map((x) => ({ id: x.id })),
    ...(trip.international ? { regulatoryConditions: ['CIV'] } : {}),
  });
  const reservation = (r: BookedReservation) => ({
    objectType: 'Reservation' as const,
    id: r.id,
    summary: summary(r.product.code),
    createdOn: r.createdOn,
    ...validity(r.id, [r.legId]),
    ...(r.confirmedOn ? { confirmedOn: r.confirmedOn } : {}),
    price: r.price,
    status: r.status,
    ...refundAmountOf(r),
    passengerIds: [r.passengerId],
    refundable: booking.admissions[0]?.refundable ?? 'NO',
    exchangeable: booking.admissions[0]?.exchangeable ?? 'NO',
    products: [{ productId: r.product.id, legIds: [r.legId] }],
    tripCoverage: coverage(r.id, [r.legId]),
    ...(r.placeSelection ? { placeSelection: renderPlaceSelection(booking, r) } : {}),
    ...(r.placeAllocation ? { placeAllocation: renderPlaceAllocation(rules, booking, r) } : {}),
  });
  return {
    id: booking.id,
    bookingCode: booking.id, // spec §2.6 rule 1
    externalRef: booking.externalRef,
    createdOn: booking.createdOn,
    ...(!isConfirmed(booking.machine.value) ? { confirmationTimeLimit: booking.confirmationTimeLimit } : {}),
    ...(booking.purchaser ? { purchaser: renderPerson(booking.purchaser) } : {}),
    passengers: booking.passengers.map((p) => ({
      id: p.id,
      externalRef: p.externalRef,
      type: p.type,
      ...(p.age !== undefined ? { age: p.age } : {}),
      ...(p.detail ? { detail: renderDetail(p.detail) } : {}),
      ...(p.prmNeeds ? { prmNeeds: p.prmNeeds } : {}),
      // Spec §2.6 rule 10: travel pass information is not returned.
      cards: p.cards.filter((c) => c.type !== 'TRAVEL_PASS'),
    })),
    bookedOffers: [
      {
        offerId: booking.offerId,
        admissions: booking.admissions.map(admission),
        reservations: booking.reservations.map(reservation),
        ancillaries: booking.ancillaries.map((x) => ({
          objectType: 'Ancillary' as const,
          id: x.id,
          type: rules.ancillaryItems[x.item]?.type ?? x.item,
          summary: rules.ancillaryItems[x.item]?.summary[language] ?? x.item,
          createdOn: x.createdOn,
          ...validity(x.id, [x.legId]),
          ...(x.confirmedOn ? { confirmedOn: x.confirmedOn } : {}),
          price: x.price,
          status: x.status,
          ...refundAmountOf(x),
          passengerIds: [x.passengerId],
          refundable: x.refundable,
          exchangeable: x.exchangeable,
          products: [{ productId: x.item, legIds: [x.legId] }],
          tripCoverage: coverage(x.id, [x.legId]),
        })),
        ...(booking.throughTicketTags.length ? { appliedThroughTicketTags: booking.throughTicketTags } : {}),
      },
    ],
    ...(booking.pass ? { fulfillmentType: booking.pass.fulfillment.type } : {}),
    ...(booking.paymentMethods.length ? { paymentMethods: booking.paymentMethods } : {}),
    provisionalPrice: booking.provisionalPrice,
    confirmedPrice: booking.confirmedPrice,
    fulfillments: booking.fulfillments.map((f) => fulfillmentSummary(booking, f)),
    // Spec §3 rules 1–2: refund offers stay in the booking; a release offer shows only while provisional.
    ...(booking.refundOffers?.length ? { refundOffers: booking.refundOffers.map((o) => renderRefundOffer(booking, o)) } : {}),
    ...(booking.releaseOffers?.some((o) => isOpenOffer(o.state))
      ? { releaseOffers: booking.releaseOffers.filter((o) => isOpenOffer(o.state)).map((o) => renderReleaseOffer(booking, o)) }
      : {}),
    ...(booking.exchangeOperations?.length
      ? {
          exchangeOperations: booking.exchangeOperations
            .filter((o) => isPendingOperation(o.state) || isConfirmedOperation(o.state))
            .map((o) => renderExchangeOperation(rules, booking, o, language)),
        }
      : {}),
    // Spec §2.6 rule 10: after a refund, refundAmount at booking level and on each refunded part.
    ...(refunded.length ? { refundAmount: sum(rules, refunded, booking.currency, booking.trip.international) } : {}),
  };
}

function renderDetail(d: NonNullable<Booking['passengers'][number]['detail']>) {
  return {
    ...(d.firstName ? { firstName: d.firstName } : {}),
    ...(d.lastName ? { lastName: d.lastName } : {}),
    ...(d.email || d.phoneNumber ? { contact: { ...(d.email ? { email: d.email } : {}), ...(d.phoneNumber ? { phoneNumber: d.phoneNumber } : {}) } } : {}),
  };
}

function renderPerson(p: NonNullable<Booking['purchaser']>) {
  return { ...(p.externalRef ? { externalRef: p.externalRef } : {}), ...(p.detail ? { detail: renderDetail(p.detail) } : {}) };
}

/** GET /fulfillments/{id}: the ticket, with the Aztec payload as a BAR_CODE security feature (CONTRACT §4b). */
export function renderFulfillment(booking: Booking, f: Fulfillment, language: Language): z.infer<typeof R.Fulfillment> {
  return {
    ...fulfillmentSummary(booking, f),
    issuingLanguage: language,
    contentComplete: true,
    fulfillmentParts: f.barcode
      ? [
          {
            // A fulfillment with a barcode is a ticket: it has a control number and its passengers (lifecycle.ts).
            controlId: f.controlNumber!,
            passengerRef: booking.passengers.find((p) => p.id === f.passengerIds[0])!.externalRef,
            securityFeatures: [{ type: { type: 'BAR_CODE', symbology: 'AZTEC', format: 'BINARY' }, data: f.barcode }],
          },
        ]
      : [],
  };
}
