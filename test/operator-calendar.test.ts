import { describe, expect, it } from 'vitest';
import { inOffset, type Offset } from './helpers/offsets.ts';
import { testServer } from './helpers/server.ts';

/**
 * Three cases where the date as written and the operator's calendar disagree. An instant means the same in any
 * offset (spec §1.7, CONTRACT §4), and the days the operator counts in — a train's operating day, a pass's validity
 * days, a passenger's age — are days of its calendar in Europe/Stockholm, not of the offset a request happens to be
 * written in. Each pair sends the same
 * departure, 00:30 in Stockholm, written once with +01:00 and once in UTC (the previous day's date).
 *
 * The sandbox clock starts on 2026-11-20, before every departure here and within the booking horizon
 * (rules/limits.yaml bookingHorizon).
 */

const STOCKHOLM = 'urn:x_swe:stn:740000001';
const GOTEBORG = 'urn:x_swe:stn:740000002';
const UPPSALA = 'urn:x_swe:stn:740000004';

/** One leg of a fast train (category ST: a day train with mandatory reservations, rules/products.yaml). */
function trip(train: string, from: string, to: string, departure: string, arrival: string) {
  return {
    externalRef: `train-${train}`,
    legs: [
      {
        externalRef: `leg-${train}`,
        timedLeg: {
          start: { stopPlaceRef: { objectType: 'StopPlaceRef', stopPlaceRef: from }, serviceDeparture: { timetabledTime: departure } },
          end: { stopPlaceRef: { objectType: 'StopPlaceRef', stopPlaceRef: to }, serviceArrival: { timetabledTime: arrival } },
          service: {
            publishedServiceName: train,
            vehicleNumbers: [train],
            productCategory: { productCategoryRef: 'urn:x_swe:sbc:ST' },
            carriers: [{ ref: 'urn:x_swe:carrier:74' }],
          },
        },
      },
    ],
  };
}

/** `minutes` after `departure`, written in the departure's offset (a request writes its times alike). */
const later = (departure: string, minutes: number) =>
  inOffset(new Date(Date.parse(departure) + minutes * 60_000).toISOString(), (departure.endsWith('Z') ? 'Z' : departure.slice(-6)) as Offset);

const SECOND_FLEX = { travelClasses: ['SECOND'], flexibilities: ['FULL_FLEXIBLE'] };

describe('a train is one train on its operating day, whatever offset its departure is written in', () => {
  /** Books one adult on train 7717 departing at `departure`; answers the place the booking got, as `coach/place`. */
  async function bookOne(server: Awaited<ReturnType<typeof testServer>>, departure: string, arrival: string, name: string) {
    const offers = await server.reseller('POST', '/v3/offers', {
      tripSpecifications: [trip('7717', STOCKHOLM, GOTEBORG, departure, arrival)],
      anonymousPassengerSpecifications: [{ externalRef: 'p1', type: 'PERSON', age: 40 }],
      offerSearchCriteria: SECOND_FLEX,
    });
    expect(offers.status).toBe(200);
    const booking = await server.reseller('POST', '/v3/booking', {
      externalRef: `booking-of-${name}`,
      offers: [{ offerId: offers.body.offers[0].offerId, passengerRefs: ['p1'] }],
      passengerSpecifications: [{ externalRef: 'p1', type: 'PERSON', age: 40, detail: { firstName: name, lastName: 'Testsson' } }],
    });
    expect(booking.status).toBe(200);
    const places = booking.body.booking.bookedOffers[0].reservations.flatMap((r: any) =>
      r.placeAllocation.reservedPlaces.map((p: any) => `coach ${p.coachNumber} place ${p.placeNumbers.join('+')}`),
    );
    expect(places).toHaveLength(1);
    return places[0] as string;
  }

  it('sells a place once when the train is booked again written in another offset', async () => {
    const server = await testServer();
    const first = await bookOne(server, '2026-12-12T00:30:00+01:00', '2026-12-12T03:30:00+01:00', 'Anna');
    const second = await bookOne(server, '2026-12-11T23:30:00Z', '2026-12-12T02:30:00Z', 'Erik');
    expect(second, `train 7717 of 12 December sold ${first} twice: once as 00:30+01:00, once as 23:30Z the day before`).not.toBe(first);
  });

  it('sells a place once when the train is booked twice written alike (the control)', async () => {
    const server = await testServer();
    const first = await bookOne(server, '2026-12-12T00:30:00+01:00', '2026-12-12T03:30:00+01:00', 'Anna');
    expect(await bookOne(server, '2026-12-12T00:30:00+01:00', '2026-12-12T03:30:00+01:00', 'Erik')).not.toBe(first);
  });
});

describe("a pass is valid on the operator's calendar days, whatever offset the departure is written in", () => {
  /** Erik's monthly pass Stockholm–Uppsala, second class, valid 2026-11-15 to 2026-12-14 (rules/customers.yaml). */
  const MONTHLY = { type: 'TRAVEL_PASS', code: 'OPR_MONTHLY', number: 'MONTHLY-0001' };

  /** The price of the standard second-class non-flexible admission Uppsala → Stockholm departing at `departure`. */
  async function price(departure: string, cards: object[]) {
    const server = await testServer();
    const arrival = later(departure, 40);
    const offers = await server.reseller('POST', '/v3/offers', {
      tripSpecifications: [trip('2001', UPPSALA, STOCKHOLM, departure, arrival)],
      anonymousPassengerSpecifications: [{ externalRef: 'erik', type: 'PERSON', age: 33, cards }],
      offerSearchCriteria: { travelClasses: ['SECOND'], flexibilities: ['NON_FLEXIBLE'] },
    });
    expect(offers.status).toBe(200);
    expect(offers.body.offers[0].offerSummary.overallServiceClass.type).toBe('STANDARD');
    return offers.body.offers[0].admissionOfferParts[0].price.amount as number;
  }

  it('pays the trip on the last day of the pass (the control)', async () => {
    expect(await price('2026-12-14T23:30:00+01:00', [MONTHLY])).toBe(0);
  });

  it('pays the full price on the day after, 2026-12-15 at 00:30 in Stockholm, written with +01:00', async () => {
    const full = await price('2026-12-15T00:30:00+01:00', []);
    expect(full).toBeGreaterThan(0);
    expect(await price('2026-12-15T00:30:00+01:00', [MONTHLY])).toBe(full);
  });

  it('pays the same full price for the same departure written 2026-12-14T23:30Z', async () => {
    const full = await price('2026-12-15T00:30:00+01:00', []);
    expect(await price('2026-12-14T23:30:00Z', [MONTHLY]), 'the pass expired on 2026-12-14, the last day of the operator, before this train').toBe(full);
  });
});

describe("a passenger's age is counted on the operator's calendar day of departure, whatever offset it is written in", () => {
  /** The passenger type of a passenger born on `dateOfBirth`, departing at `departure`. */
  async function passengerType(departure: string, dateOfBirth: string) {
    const server = await testServer();
    const arrival = later(departure, 180);
    const offers = await server.reseller('POST', '/v3/offers', {
      tripSpecifications: [trip('7719', STOCKHOLM, GOTEBORG, departure, arrival)],
      anonymousPassengerSpecifications: [{ externalRef: 'p1', type: 'PERSON', dateOfBirth }],
      offerSearchCriteria: SECOND_FLEX,
    });
    expect(offers.status).toBe(200);
    return offers.body.offers[0].admissionOfferParts[0].appliedPassengerTypes[0].type as string;
  }

  // Born on 12 December 2000: 26 on 12 December 2026, the departure day in Stockholm (spec §2.9: 26-64 PERSON).
  it('is 26 on the 26th birthday, departing at 00:30 written with +01:00', async () => {
    expect(await passengerType('2026-12-12T00:30:00+01:00', '2000-12-12')).toBe('PERSON');
  });

  it('is 26 on the 26th birthday, departing at 00:30 in Stockholm written 2026-12-11T23:30Z', async () => {
    expect(await passengerType('2026-12-11T23:30:00Z', '2000-12-12'), 'in Stockholm the train leaves on the birthday').toBe('PERSON');
  });

  it('is still 25 the day before the birthday (the control)', async () => {
    expect(await passengerType('2026-12-12T00:30:00+01:00', '2000-12-13')).toBe('YOUTH');
    expect(await passengerType('2026-12-11T23:30:00Z', '2000-12-13')).toBe('YOUTH');
  });
});
