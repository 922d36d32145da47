import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine/index.ts';
import type { Leg } from '../engine/model/records.ts';
import type { Context } from '../engine/model/context.ts';
import type { RuleSet } from '../engine/rules/ruleset.ts';
import { hasRoom } from '../engine/seats/capacity.ts';
import { interval, type Holding } from '../engine/holdings/place-holdings.ts';
import { candidatesFor } from '../engine/seats/places.ts';
import { trainKey } from '../engine/model/train.ts';
import { passengers, testServer, trip } from './helpers/server.ts';

/**
 * Capacity drives offers: once the last first-class sleeper compartment of a night train is
 * held, that product is no longer offered — nor as an exchange offer — while the others still are; freeing one
 * (the booking expires) brings it back.
 */
describe('capacity drives offers', () => {
  it('a sold-out product disappears from the offers, and comes back when a place is freed', async () => {
    const server = await testServer();
    const night = trip('NT', '2026-12-01T18:00:00+01:00', '2026-12-02T08:00:00+01:00');
    const firstClass = async () =>
      (
        await server.reseller('POST', '/v3/offers', {
          tripSpecifications: [night],
          anonymousPassengerSpecifications: passengers(40),
          offerSearchCriteria: { travelClasses: ['FIRST'], flexibilities: ['NON_FLEXIBLE'] },
        })
      ).body.offers as Array<{ offerId: string; products: Array<{ id: string }> }>;

    // Private first-class compartments: one booking of one passenger holds a whole compartment.
    let sold = 0;
    for (;;) {
      const offers = await firstClass();
      if (offers.length === 0) break;
      const booked = await server.reseller('POST', '/v3/booking', {
        externalRef: `sleeper-${sold}`,
        offers: [{ offerId: offers[0]!.offerId, passengerRefs: ['p1'] }],
        passengerSpecifications: [{ externalRef: 'p1', type: 'PERSON' }],
      });
      expect(booked.status, JSON.stringify(booked.body)).toBe(200);
      sold++;
      expect(sold).toBeLessThan(200);
    }
    expect(sold).toBeGreaterThan(0);
    // Second class is still for sale on the same train.
    const second = await server.reseller('POST', '/v3/offers', {
      tripSpecifications: [night],
      anonymousPassengerSpecifications: passengers(40),
      offerSearchCriteria: { travelClasses: ['SECOND'] },
    });
    expect(second.body.offers.length).toBeGreaterThan(0);

    // Exchange offers are made from the same capacity: a day ticket cannot be exchanged into a sold-out sleeper.
    const day = await server.reseller('POST', '/v3/offers', {
      tripSpecifications: [trip()],
      anonymousPassengerSpecifications: passengers(40),
      offerSearchCriteria: { travelClasses: ['SECOND'], flexibilities: ['FULL_FLEXIBLE'] },
    });
    const dayBooking = await server.reseller('POST', '/v3/booking', {
      externalRef: 'day',
      offers: [{ offerId: day.body.offers[0].offerId, passengerRefs: ['p1'] }],
      passengerSpecifications: [{ externalRef: 'p1', type: 'PERSON', detail: { firstName: 'Ada', lastName: 'Lind' } }],
      purchaser: { detail: { firstName: 'Ada', lastName: 'Lind', email: 'ada@example.se', phoneNumber: '+46701111111' } },
    });
    const tickets = await server.reseller('POST', `/v3/bookings/${dayBooking.body.booking.id}/fulfillments`);
    const exchangeTo = (travelClasses: string[]) =>
      server.reseller('POST', `/v3/bookings/${dayBooking.body.booking.id}/exchange-offers`, {
        fulfillmentIds: tickets.body.fulfillments.map((f: { id: string }) => f.id),
        tripSpecifications: [night],
        anonymousPassengerSpecifications: passengers(40),
        offerSearchCriteria: { travelClasses, flexibilities: ['NON_FLEXIBLE'] },
      });
    const firstClassExchange = await exchangeTo(['FIRST']);
    expect(firstClassExchange.status, JSON.stringify(firstClassExchange.body)).toBe(200);
    expect(firstClassExchange.body.exchangeOffers).toEqual([]);
    expect((await exchangeTo(['SECOND'])).body.exchangeOffers.length).toBeGreaterThan(0);

    // The provisional bookings expire after 60 minutes and give their compartments back.
    server.clock.advance!('PT61M');
    expect((await firstClass()).map((o) => o.products[0]!.id)).toEqual(['JREFAP_N']);
    expect((await exchangeTo(['FIRST'])).body.exchangeOffers.map((o: { products: Array<{ id: string }> }) => o.products[0]!.id)).toEqual(['JREFAP_N']);
  });
});

/**
 * The count behind "sold out" on a train of three places, one of them a wheelchair place (spec §2.10 rule 6): the
 * shipped fleet has dozens of places per product, so its offers never reach the limit with 9 passengers.
 */
describe('capacity of one product on one leg', () => {
  const rules = createEngine().rules;
  const all = candidatesFor(rules, 'IC', 'DAY_2_STANDARD');
  const chosen = [...all.filter((c) => !c.wheelchair).slice(0, 2), all.find((c) => c.wheelchair)!];
  const places = chosen.map((c, i) => ({ ...c.place, number: String(i + 1) }));
  const tiny = {
    ...rules,
    fleet: {
      ...rules.fleet,
      categories: {
        ...rules.fleet.categories,
        IC: { ...rules.fleet.categories['IC']!, coaches: [{ number: '1', layout: 'TINY', products: ['DAY_2_STANDARD'] }] },
      },
    },
    coachLayouts: { ...rules.coachLayouts, layouts: { ...rules.coachLayouts.layouts, TINY: { ...chosen[0]!.layout, places } } },
  } as RuleSet;
  const ctx = { rules: tiny } as Context;
  const leg: Leg = {
    id: 'l1',
    origin: 'a',
    destination: 'b',
    departure: '2026-12-01T08:00:00+01:00',
    arrival: '2026-12-01T10:00:00+01:00',
    operatingDay: '2026-12-01',
    vehicleNumber: '531',
    category: 'IC',
    carrier: { ref: 'urn:x_swe:carrier:SJ' },
  };
  const room = (passengers: number, held: Holding[] = []) => hasRoom(ctx, [{ leg, code: 'DAY_2_STANDARD' }], passengers, held);

  it('an empty train has room for as many passengers as it has places that are not wheelchair places', () => {
    expect(chosen.filter((c) => c.wheelchair)).toHaveLength(1);
    expect(room(2)).toBe(true);
    expect(room(3)).toBe(false);
  });

  it('a place another booking holds over the leg counts as taken', () => {
    const held: Holding[] = [
      {
        train: trainKey(leg),
        coachNumber: '1',
        placeNumber: '1',
        private: false,
        ...interval(leg),
        bookingId: 'other',
        reservationId: 'r1',
        passengerId: 'p1',
      },
    ];
    expect(room(1, held)).toBe(true);
    expect(room(2, held)).toBe(false);
  });
});
