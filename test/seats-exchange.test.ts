import { describe, expect, it } from 'vitest';
import { verifyTicket } from '../engine/index.ts';
import { PlaceAvailabilityResponse } from '../engine/model/osdm/seat-response.ts';
import { passengers, testServer, trip } from './helpers/server.ts';

/**
 * An exchange pre-books places on its new train (spec §2.10, §3): while the operation is PREBOOKED its place is
 * taken for everybody else, and when the operation passes its time limit without confirmation the place is free
 * again, without anything being written (the holding carries the operation's time limit).
 */
describe('places of a pre-booked exchange', () => {
  it('are taken until the operation expires, then free again; confirmed, the new parts travel on the new trip', async () => {
    const server = await testServer();
    const morning = trip('ST', '2026-12-01T08:00:00+01:00', '2026-12-01T11:00:00+01:00');
    const noon = trip('ST', '2026-12-01T12:00:00+01:00', '2026-12-01T15:00:00+01:00');
    const search = { travelClasses: ['SECOND'], flexibilities: ['FULL_FLEXIBLE'] };

    const offers = await server.reseller('POST', '/v3/offers', {
      tripSpecifications: [morning],
      anonymousPassengerSpecifications: passengers(40),
      offerSearchCriteria: search,
    });
    const booked = await server.reseller('POST', '/v3/booking', {
      externalRef: 'exchange-hold',
      offers: [{ offerId: offers.body.offers[0].offerId, passengerRefs: ['p1'] }],
      passengerSpecifications: [{ externalRef: 'p1', type: 'PERSON', age: 40, detail: { firstName: 'Ada', lastName: 'Lind' } }],
      purchaser: { detail: { firstName: 'Ada', lastName: 'Lind', email: 'ada@example.se', phoneNumber: '+46701111111' } },
    });
    const id = booked.body.booking.id as string;
    const confirmed = await server.reseller('POST', `/v3/bookings/${id}/fulfillments`);
    const exchangeOffers = await server.reseller('POST', `/v3/bookings/${id}/exchange-offers`, {
      fulfillmentIds: confirmed.body.fulfillments.map((f: { id: string }) => f.id),
      tripSpecifications: [noon],
      anonymousPassengerSpecifications: passengers(40),
      offerSearchCriteria: search,
    });
    expect(exchangeOffers.status, JSON.stringify(exchangeOffers.body)).toBe(200);
    const operation = await server.reseller('POST', `/v3/bookings/${id}/exchange-operations`, {
      exchangeOffers: [{ offerId: exchangeOffers.body.exchangeOffers[0].offerId, passengerRefs: ['p1'] }],
    });
    expect(operation.body.exchangeOperation.status).toBe('PREBOOKED');

    // What the noon train's place map says about each place, for a new passenger.
    const statuses = async () => {
      const o = await server.reseller('POST', '/v3/offers', {
        tripSpecifications: [noon],
        anonymousPassengerSpecifications: passengers(30),
        offerSearchCriteria: search,
      });
      const offer = o.body.offers[0];
      const map = await server.reseller(
        'GET',
        `/v3/availabilities/place-map?contextType=OFFER&contextId=${offer.offerId}&resourceType=RESERVATION&resourceId=${offer.reservationOfferParts[0].id}`,
      );
      return new Map(
        PlaceAvailabilityResponse.parse(map.body).vehicleAvailability.vehicle.coaches.flatMap((c) =>
          c.compartments.flatMap((k) => k.places.map((p) => [`${c.number}/${p.number}`, p.status] as const)),
        ),
      );
    };
    const occupied = [...(await statuses())].filter(([, s]) => s === 'ALLOCATED').map(([place]) => place);
    expect(occupied).toHaveLength(1);

    server.clock.advance!('PT61M');
    expect((await statuses()).get(occupied[0]!)).toBe('FREE');
    // The booking reads with the operation expired and its original parts back.
    const read = await server.reseller('GET', `/v3/bookings/${id}`);
    expect(read.body.booking.bookedOffers[0].reservations.map((r: { status: string }) => r.status)).toEqual(['FULFILLED']);

    // Exchanged again and confirmed: the new parts travel at noon, though both trips call their leg `leg-1`.
    const again = await server.reseller('POST', `/v3/bookings/${id}/exchange-offers`, {
      fulfillmentIds: confirmed.body.fulfillments.map((f: { id: string }) => f.id),
      tripSpecifications: [noon],
      anonymousPassengerSpecifications: passengers(40),
      offerSearchCriteria: search,
    });
    await server.reseller('POST', `/v3/bookings/${id}/exchange-operations`, {
      exchangeOffers: [{ offerId: again.body.exchangeOffers[0].offerId, passengerRefs: ['p1'] }],
    });
    const done = await server.reseller('POST', `/v3/bookings/${id}/fulfillments`);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const booking = (await server.reseller('GET', `/v3/bookings/${id}`)).body.booking;
    const [oldAdmission, newAdmission] = booking.bookedOffers[0].admissions;
    expect([oldAdmission.status, oldAdmission.validFrom]).toEqual(['EXCHANGED', '2026-12-01T08:00:00+01:00']);
    expect([newAdmission.status, newAdmission.validFrom]).toEqual(['FULFILLED', '2026-12-01T12:00:00+01:00']);
    const newSeat = booking.bookedOffers[0].reservations[1];
    expect([newSeat.status, newSeat.validFrom, newSeat.placeAllocation.reservedPlaces.length]).toEqual(['FULFILLED', '2026-12-01T12:00:00+01:00', 1]);
    const ticket = booking.fulfillments.find((f: { status: string; controlNumber?: string }) => f.status === 'FULFILLED' && f.controlNumber);
    const body = (await server.reseller('GET', `/v3/fulfillments/${ticket.id}`)).body;
    const payload = verifyTicket(body.fulfillment.fulfillmentParts[0].securityFeatures[0].data, 'signalbox-sandbox-ticket-key');
    expect(payload?.departure).toBe('2026-12-01T12:00:00+01:00');
  });
});
