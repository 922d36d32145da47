import { phrase, RuleViolation } from '../../../engine/index.ts';
import { BookingPatch, PassengerPatch, PurchaserPatch, BookingRequest } from '../../../engine/model/osdm/index.ts';
import { asPendingBooking } from '../../service/faults.ts';
import * as S from '../openapi/schemas.ts';
import { decided, json, operation, releaseOf, type Handler, type Operation } from './operation.ts';

const book: Handler = async ({ request, service, requestor, body }) => decided(await service.book(await requestor(), body, request.faults ?? {}));
const bookingProblems = { 404: 'an offer id that does not exist (or is another client’s)', 409: 'X_OFFER_EXPIRED' };

/** Provisional bookings, their passengers and purchaser (spec §2.6, §2.7, §4.1). */
export const booking: Operation[] = [
  operation({
    method: 'POST',
    path: '/v3/booking',
    osdm: ['postBookings'],
    summary: 'Create a provisional booking',
    section: 'spec §2.6, §4.1',
    tag: 'Booking',
    access: 'reseller',
    description: "The operator's path; POST /v3/bookings is OSDM's alias.",
    request: { schema: BookingRequest, required: true },
    responses: { 200: json('BookingResponse: the provisional booking, confirmationTimeLimit ahead.', S.BookingResponse) },
    problems: bookingProblems,
    handle: book,
  }),
  operation({
    method: 'POST',
    path: '/v3/bookings',
    osdm: ['postBookings'],
    summary: 'Create a provisional booking (OSDM path)',
    section: 'CONTRACT §6',
    tag: 'Booking',
    access: 'reseller',
    request: { schema: BookingRequest, required: true },
    responses: { 200: json('BookingResponse', S.BookingResponse) },
    problems: bookingProblems,
    handle: book,
  }),
  operation({
    method: 'GET',
    path: '/v3/bookings/{bookingId}',
    osdm: ['getBookingsId'],
    summary: 'Read a booking',
    section: 'spec §4.1',
    tag: 'Booking',
    access: 'reseller',
    description: 'The only way to learn the fulfillment ids after POST …/fulfillment (spec §4.1 rule 1).',
    responses: { 200: json('BookingResponse', S.BookingResponse) },
    handle: async ({ service, requestor, params }) => {
      const r = await requestor();
      const booking = await service.booking(r, params.bookingId);
      const body = (await service.engineOf(booking)).renderBooking(booking, r.language);
      // A sandbox's fault fulfillment-pending: the tickets are not issued yet (spec §4.1 rule 1: poll).
      return { body: service.fulfillmentPending(r, params.bookingId) ? asPendingBooking(body) : body, ...releaseOf(booking) };
    },
  }),
  operation({
    method: 'PATCH',
    path: '/v3/bookings/{bookingId}',
    osdm: ['updateBooking'],
    summary: 'Patch a booking: placeSelections, usedPaymentMethods',
    section: 'spec §4.1 rule 2, CONTRACT §4b',
    tag: 'Booking',
    access: 'reseller',
    request: { schema: BookingPatch, required: true },
    responses: { 200: json('BookingResponse', S.BookingResponse) },
    problems: { 409: 'X_BOOKING_STATE, X_BOOKING_EXPIRED', 501: 'voucher payment' },
    // Spec §4.1 rule 2, §2.10 rule 1: place selections and payment methods.
    handle: async ({ request, service, requestor, params, body }) => {
      const r = await requestor();
      const patched = await service.patchBooking(r, params.bookingId, body, request.faults ?? {});
      return { body: (await service.engineOf(patched.value)).renderBooking(patched.value, r.language), traces: patched.traces, ...releaseOf(patched) };
    },
  }),
  operation({
    method: 'GET',
    path: '/v3/bookings/{bookingId}/passengers/{passengerId}',
    osdm: ['getBookingPassengersId'],
    summary: 'Read a passenger',
    section: 'CONTRACT §6',
    tag: 'Booking',
    access: 'reseller',
    responses: { 200: json('PassengerResponse', S.PassengerResponse) },
    handle: async ({ service, requestor, params }) => {
      const r = await requestor();
      const booking = await service.booking(r, params.bookingId);
      const body = (await service.engineOf(booking)).renderPassenger(booking, params.passengerId, r.language);
      if (!body) throw new RuleViolation('RESOURCE_NOT_FOUND', { resource: phrase('resource-passenger'), id: params.passengerId });
      return { body, ...releaseOf(booking) };
    },
  }),
  operation({
    method: 'PATCH',
    path: '/v3/bookings/{bookingId}/passengers/{passengerId}',
    osdm: ['patchBookingPassenger'],
    summary: "Replace a passenger's details",
    section: 'spec §2.7, CONTRACT §4b',
    tag: 'Booking',
    access: 'reseller',
    request: { schema: PassengerPatch, required: true },
    responses: { 200: json('PassengerResponse', S.PassengerResponse) },
    problems: { 409: 'X_BOOKING_STATE' },
    handle: async ({ service, requestor, params, body }) => {
      const r = await requestor();
      const patched = await service.patchPassenger(r, params.bookingId, params.passengerId, body);
      const passenger = (await service.engineOf(patched.value)).renderPassenger(patched.value, params.passengerId, r.language);
      return { body: passenger, traces: patched.traces, ...releaseOf(patched) };
    },
  }),
  operation({
    method: 'GET',
    path: '/v3/bookings/{bookingId}/purchaser',
    osdm: ['getBookingPurchaser'],
    summary: 'Read the purchaser',
    section: 'CONTRACT §6',
    tag: 'Booking',
    access: 'reseller',
    responses: { 200: json('PurchaserResponse', S.PurchaserResponse) },
    handle: async ({ service, requestor, params }) => {
      const r = await requestor();
      const booking = await service.booking(r, params.bookingId);
      const body = (await service.engineOf(booking)).renderPurchaser(booking, r.language);
      if (!body) throw new RuleViolation('RESOURCE_NOT_FOUND', { resource: phrase('resource-purchaser'), id: params.bookingId });
      return { body, ...releaseOf(booking) };
    },
  }),
  operation({
    method: 'PATCH',
    path: '/v3/bookings/{bookingId}/purchaser',
    osdm: ['patchBookingPurchaser'],
    summary: 'Replace the purchaser',
    section: 'spec §2.7, CONTRACT §4b',
    tag: 'Booking',
    access: 'reseller',
    request: { schema: PurchaserPatch, required: true },
    responses: { 200: json('PurchaserResponse', S.PurchaserResponse) },
    problems: { 409: 'X_BOOKING_STATE' },
    handle: async ({ service, requestor, params, body }) => {
      const r = await requestor();
      const patched = await service.patchPurchaser(r, params.bookingId, body);
      return { body: (await service.engineOf(patched.value)).renderPurchaser(patched.value, r.language), traces: patched.traces, ...releaseOf(patched) };
    },
  }),
  operation({
    method: 'POST',
    path: '/v3/bookings/{bookingId}/booked-offers',
    osdm: ['postBookingBookedOffers'],
    summary: 'Add offers to a booking (not supported)',
    section: 'spec §4.1 "Unsupported"',
    tag: 'Booking',
    access: 'reseller',
    responses: {},
    problems: { 400: '86007 for a travel pass offer', 501: 'always, for any other offer' },
    // Spec §4.1 "Unsupported": adding offers to a booking. A travel pass offer gets its own code (§4.2 rule 1, 86007).
    handle: async ({ service, requestor, params, body }) => {
      const r = await requestor();
      await service.booking(r, params.bookingId);
      const offers = (body as { offers?: unknown } | undefined)?.offers;
      const offerIds = Array.isArray(offers) ? offers.map((o: { offerId?: unknown } | null) => String(o?.offerId)) : [];
      const stored = await service.store.getOffers(offerIds);
      if ([...stored.values()].some((o) => o.pass && o.owner === r.client)) throw new RuleViolation('86007', {}, [{ requestPointer: '#/offers' }]);
      throw new RuleViolation('X_NOT_SUPPORTED', { feature: phrase('feature-adding-offers') });
    },
  }),
  operation({
    method: 'ANY',
    path: '/v3/bookings/{bookingId}/booked-offers/*',
    osdm: [
      'getBookingBookedOffersId',
      'deleteBookingBookedOffersId',
      'deleteBookingBookedOffersIdPassengerId',
      'getBookingBookedOffersAdditionalOffers',
      'createBookingBookedOffersReservations',
      'deleteBookingBookedOffersReservations',
      'createBookingBookedOffersAncillaries',
      'deleteBookingBookedOffersAncillary',
      'deleteBookingBookedOffersAdmission',
    ],
    summary: 'Booked-offer endpoints (not supported)',
    section: 'spec §4.1 "Unsupported", CONTRACT §5',
    tag: 'Booking',
    access: 'reseller',
    responses: {},
    problems: { 501: 'always' },
    handle: async () => {
      throw new RuleViolation('X_NOT_SUPPORTED', { feature: phrase('feature-booked-offers') });
    },
  }),
];
