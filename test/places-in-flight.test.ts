import { describe, expect, it, vi } from 'vitest';
import { RuleViolation, trainHoldingsOf, type Booking, type Requestor, type TrainHoldings } from '../engine/index.ts';
import { clocksOf, virtualClock } from '../adapters/service/clock.ts';
import { createService, type Service } from '../adapters/service/service.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { NOTHING_IN_FLIGHT, type Store } from '../adapters/store/store.ts';
import { engine } from './helpers/server.ts';

/**
 * Places another process has in flight (`serve --workers N` on SQLite: booked on another worker, not yet committed,
 * handed over with the train's lock) are taken: a booking under the lock does not get them, and a patch asking for
 * one is refused (spec §2.10 rule 3), as if they were in the store.
 */

const requestor: Requestor = { client: 'demo-reseller', salesApplication: 'WEB_SE', salesUnitCode: 'TEST', language: 'en-GB' };
const START = '2026-11-20T10:00:00+01:00';
const station = (n: number) => ({ objectType: 'StopPlaceRef', stopPlaceRef: `urn:x_swe:stn:74000000${n}` });
const trip = {
  externalRef: 't',
  legs: [
    {
      externalRef: 'leg',
      timedLeg: {
        start: { stopPlaceRef: station(1), serviceDeparture: { timetabledTime: '2026-12-01T08:00:00+01:00' } },
        end: { stopPlaceRef: station(2), serviceArrival: { timetabledTime: '2026-12-01T10:00:00+01:00' } },
        service: {
          publishedServiceName: '777',
          vehicleNumbers: ['777'],
          productCategory: { productCategoryRef: 'urn:x_swe:sbc:ST' },
          carriers: [{ ref: 'urn:x_swe:carrier:74' }],
        },
      },
    },
  ],
};
type Offer = { offerId: string; reservationOfferParts: Array<{ id: string; availablePlaces: Array<{ tripLegCoverage: { tripId: string; legId: string } }> }> };

/**
 * A service on a store of its own, whose train lock reports `elsewhere` in flight (none: a process alone). Its ids
 * begin with `name`, as two workers' random ids never meet.
 */
function worker(elsewhere: () => readonly TrainHoldings[] = () => [], name = 'here'): Service {
  const store: Store = { ...memoryStore(), lockTrains: (_keys, work) => work({ inFlightElsewhere: elsewhere(), passOn: () => {} }) };
  let n = 0;
  return createService(engine(), store, clocksOf(virtualClock(new Date(START)), false), { next: (kind) => `${name}-${kind}-${++n}` });
}

async function book(service: Service, place?: string): Promise<Booking> {
  const offer = (
    (
      await service.offers(requestor, {
        tripSpecifications: [trip],
        anonymousPassengerSpecifications: [{ externalRef: 'p1', type: 'PERSON', age: 30 }],
        offerSearchCriteria: { travelClasses: ['FIRST'], flexibilities: ['FULL_FLEXIBLE'] },
      })
    ).value as { offers: Offer[] }
  ).offers[0]!;
  const part = offer.reservationOfferParts[0]!;
  const placeSelections = place
    ? [
        {
          reservationId: part.id,
          tripLegCoverage: part.availablePlaces[0]!.tripLegCoverage,
          places: [{ coachNumber: '1', placeNumber: place, passengerRef: 'p1' }],
        },
      ]
    : [];
  const res = await service.book(requestor, {
    externalRef: 'x',
    offers: [{ offerId: offer.offerId, passengerRefs: ['p1'], placeSelections }],
    passengerSpecifications: [{ externalRef: 'p1', type: 'PERSON', detail: { firstName: 'Ada', lastName: 'Lind' } }],
    purchaser: { detail: { firstName: 'Ada', lastName: 'Lind', email: 'ada@example.se', phoneNumber: '+46701111111' } },
  });
  return service.booking(requestor, (res.value as { booking: { id: string } }).booking.id);
}
const placeOf = (b: Booking) => {
  const a = b.reservations[0]!.placeAllocation!;
  return `${a.coachNumber}/${a.placeNumber}`;
};

describe("places another worker's bookings have in flight", () => {
  it('are not given to a booking made under the lock', async () => {
    const inFlight = trainHoldingsOf(await book(worker(undefined, 'other'), '11'));
    expect(placeOf(await book(worker(), '11'))).toBe('1/11'); // the same request, with nothing in flight elsewhere
    expect(
      placeOf(
        await book(
          worker(() => inFlight),
          '11',
        ),
      ),
    ).not.toBe('1/11');
  });

  it('refuse a patch that asks for one of them', async () => {
    const inFlight = trainHoldingsOf(await book(worker(undefined, 'other'), '11'));
    const patchTo = (b: Booking, place: string) => {
      const r = b.reservations[0]!;
      const places = [{ coachNumber: '1', placeNumber: place, passengerRef: r.passengerId }];
      return { placeSelections: [{ reservationId: r.id, tripLegCoverage: { tripId: b.trip.id, legId: r.legId }, places }] };
    };
    const alone = worker(); // the same patch, with nothing in flight elsewhere
    const mine = await book(alone, '12');
    expect(placeOf((await alone.patchBooking(requestor, mine.id, patchTo(mine, '11'))).value)).toBe('1/11');
    const here = worker(() => inFlight);
    const booking = await book(here, '12');
    await expect(here.patchBooking(requestor, booking.id, patchTo(booking, '11'))).rejects.toSatisfy((e) => e instanceof RuleViolation && e.code === '86035');
  });

  it('are none where the lock cannot pass them on (PostgreSQL): the train is kept until the booking is written', async () => {
    const events: string[] = [];
    let write!: () => void;
    const memory = memoryStore();
    const store: Store = {
      ...memory,
      lockTrains: async (_keys, work) => {
        const done = await work(NOTHING_IN_FLIGHT);
        events.push('train let go');
        return done;
      },
      insertBooking: async (booking) => {
        await new Promise<void>((resolve) => (write = resolve));
        await memory.insertBooking(booking);
        events.push('booking written');
      },
    };
    const service = createService(engine(), store, clocksOf(virtualClock(new Date(START)), false), { next: (kind) => `pg-${kind}-${events.length}` });
    const booked = book(service, '11');
    await vi.waitFor(() => expect(write).toBeDefined());
    expect(events).toEqual([]);
    write();
    expect(placeOf(await booked)).toBe('1/11');
    expect(events).toEqual(['booking written', 'train let go']);
  });
});
