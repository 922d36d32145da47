import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RuleViolation, type Requestor } from '../engine/index.ts';
import { holdingsOf, overlaps } from '../engine/holdings/place-holdings.ts';
import { clocksOf, virtualClock } from '../adapters/service/clock.ts';
import { createService, type Service } from '../adapters/service/service.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { runs, seed } from './helpers/facts.ts';
import { engine } from './helpers/server.ts';

/**
 * Seats are inventory (spec §2.10, §2.11): for random sequences of bookings, place selections,
 * expiries and refunds on one train, (1) no place is ever held twice over overlapping intervals, and (2) the
 * place map's FREE places are exactly those a booking can get: booking a FREE place gets it, booking any other
 * gets another place and a warning (spec §2.10 rule 3).
 */

const requestor: Requestor = { client: 'demo-reseller', salesApplication: 'WEB_SE', salesUnitCode: 'TEST', language: 'en-GB' };
const START = '2026-11-20T10:00:00+01:00';
const station = (n: number) => ({ objectType: 'StopPlaceRef', stopPlaceRef: `urn:x_swe:stn:74000000${n}` });
/** Legs of train 777 on 2026-12-01: some overlap in time, some follow each other. */
const SEGMENTS = [
  { from: 1, to: 4, dep: '08:00', arr: '09:00' },
  { from: 4, to: 2, dep: '09:00', arr: '10:00' },
  { from: 1, to: 2, dep: '08:00', arr: '10:00' },
  { from: 2, to: 3, dep: '10:00', arr: '11:00' },
] as const;
const tripOf = (s: number) => {
  const seg = SEGMENTS[s]!;
  return {
    externalRef: 't',
    legs: [
      {
        externalRef: 'leg',
        timedLeg: {
          start: { stopPlaceRef: station(seg.from), serviceDeparture: { timetabledTime: `2026-12-01T${seg.dep}:00+01:00` } },
          end: { stopPlaceRef: station(seg.to), serviceArrival: { timetabledTime: `2026-12-01T${seg.arr}:00+01:00` } },
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
};
const TRAIN = '777/2026-12-01';
/** The contested places: the first twelve of first-class coach 1. */
const PLACES = Array.from({ length: 12 }, (_, i) => String(11 + i));

interface World {
  service: Service;
  clock: ReturnType<typeof virtualClock>;
  bookings: string[];
}

const offerFor = async (w: World, segment: number, count: number) => {
  const res = (
    await w.service.offers(requestor, {
      tripSpecifications: [tripOf(segment)],
      anonymousPassengerSpecifications: Array.from({ length: count }, (_, i) => ({ externalRef: `p${i + 1}`, type: 'PERSON', age: 30 + i })),
      offerSearchCriteria: { travelClasses: ['FIRST'], flexibilities: ['FULL_FLEXIBLE'] },
    })
  ).value as { offers: Array<Offer> };
  return res.offers[0]!;
};
type Offer = { offerId: string; reservationOfferParts: Array<{ id: string; availablePlaces: Array<{ tripLegCoverage: { tripId: string; legId: string } }> }> };
const bookingBody = (offer: Offer, places: Array<string | undefined>, ref: string) => ({
  externalRef: ref,
  offers: [
    {
      offerId: offer.offerId,
      passengerRefs: places.map((_, i) => `p${i + 1}`),
      placeSelections: places.flatMap((p, i) => {
        const part = offer.reservationOfferParts[i]!;
        return p
          ? [
              {
                reservationId: part.id,
                tripLegCoverage: part.availablePlaces[0]!.tripLegCoverage,
                places: [{ coachNumber: '1', placeNumber: p, passengerRef: `p${i + 1}` }],
              },
            ]
          : [];
      }),
    },
  ],
  passengerSpecifications: places.map((_, i) => ({ externalRef: `p${i + 1}`, type: 'PERSON', detail: { firstName: `P${i}`, lastName: 'Test' } })),
  purchaser: { detail: { firstName: 'Ada', lastName: 'Lind', email: 'ada@example.se', phoneNumber: '+46701111111' } },
});
/** Runs a command; a refusal by the rules is an answer, not a failure. */
const tolerate = async (run: () => Promise<unknown>) => {
  try {
    await run();
  } catch (e) {
    if (!(e instanceof RuleViolation)) throw e;
  }
};

type Command = (w: World) => Promise<void>;
const book = fc
  .record({ segment: fc.nat(SEGMENTS.length - 1), places: fc.array(fc.option(fc.constantFrom(...PLACES), { nil: undefined }), { minLength: 1, maxLength: 3 }) })
  .map(({ segment, places }): Command => async (w) => {
    const offer = await offerFor(w, segment, places.length);
    const res = await w.service.book(requestor, bookingBody(offer, places, `prop-${w.bookings.length}`));
    w.bookings.push((res.value as { booking: { id: string } }).booking.id);
  });
const select = fc.record({ pick: fc.nat(), place: fc.constantFrom(...PLACES) }).map(({ pick, place }): Command => async (w) => {
  if (w.bookings.length === 0) return;
  const id = w.bookings[pick % w.bookings.length]!;
  const booking = await w.service.booking(requestor, id);
  const r = booking.reservations[0]!;
  // After booking a passenger is named by id (spec §2.7 rule 2).
  const selection = {
    reservationId: r.id,
    tripLegCoverage: { tripId: booking.trip.id, legId: r.legId },
    places: [{ coachNumber: '1', placeNumber: place, passengerRef: r.passengerId }],
  };
  let granted = false;
  await tolerate(async () => {
    await w.service.patchBooking(requestor, id, { placeSelections: [selection] });
    granted = true;
  });
  // Spec §2.10 rule 3: a patch either takes the place asked for or is refused; it never answers with another one.
  if (granted) {
    const held = (await w.service.booking(requestor, id)).reservations[0]!.placeAllocation!;
    if (held.coachNumber !== '1' || held.placeNumber !== place)
      throw new Error(`a patch asking 1/${place} went through, but ${r.id} holds ${held.coachNumber}/${held.placeNumber}`);
  }
});
const advance = fc.integer({ min: 5, max: 70 }).map((minutes): Command => async (w) => {
  w.clock.advance!(`PT${minutes}M`);
});
const refund = fc.nat().map((pick): Command => async (w) => {
  if (w.bookings.length === 0) return;
  const id = w.bookings[pick % w.bookings.length]!;
  await tolerate(async () => {
    const confirmed = (await w.service.confirm(requestor, id)).value;
    const made = await w.service.createRefundOffer(requestor, id, { fulfillmentIds: confirmed.fulfillments.map((f) => f.id) });
    const offerId = made.value.refundOffers[0]?.id;
    if (offerId) await w.service.confirmRefundOffer(requestor, id, offerId, { status: 'CONFIRMED' });
  });
});

/** (1) No place is held twice over overlapping intervals. */
async function noDoubleHolding(w: World) {
  const held = holdingsOf(await w.service.store.holdingsOnTrain(TRAIN), w.clock.now());
  for (const [i, a] of held.entries())
    for (const b of held.slice(i + 1)) {
      if (a.coachNumber === b.coachNumber && a.placeNumber === b.placeNumber && overlaps(a, b)) {
        throw new Error(`place ${a.coachNumber}/${a.placeNumber} held by ${a.reservationId} and ${b.reservationId} at once`);
      }
    }
}

/** (2) On every segment, the place map's FREE places are exactly those a booking gets as asked (probed purely, nothing stored). */
async function mapIsTruth(w: World) {
  const onTrain = await w.service.store.holdingsOnTrain(TRAIN);
  for (let segment = 0; segment < SEGMENTS.length; segment++) {
    const offer = await offerFor(w, segment, 1);
    const map = (
      await w.service.availability(requestor, 'place-map', {
        contextType: 'OFFER',
        contextId: offer.offerId,
        resourceType: 'RESERVATION',
        resourceId: offer.reservationOfferParts[0]!.id,
      })
    ).value as {
      vehicleAvailability: { vehicle: { coaches: Array<{ number: string; compartments: Array<{ places: Array<{ number: string; status: string }> }> }> } };
    };
    const coach1 = map.vehicleAvailability.vehicle.coaches.find((c) => c.number === '1')!.compartments.flatMap((c) => c.places);
    const stored = await w.service.store.getOffers([offer.offerId]);
    for (const place of PLACES) {
      const shown = coach1.find((p) => p.number === place)!;
      expect(['FREE', 'ALLOCATED', 'RESTRICTED']).toContain(shown.status);
      const { request } = engine().readBookingRequest(bookingBody(offer, [place], 'probe'));
      const probe = engine().book({ requestor, now: w.clock.now(), ids: { next: (k) => `probe-${k}` } }, request, stored, onTrain).value;
      const got = probe.booking.reservations[0]!.placeAllocation!;
      const asked = got.coachNumber === '1' && got.placeNumber === place;
      if (asked !== (shown.status === 'FREE'))
        throw new Error(`segment ${segment}, place 1/${place}: the map says ${shown.status}, a booking ${asked ? 'gets it' : 'does not'}`);
    }
  }
}

describe('seat inventory', () => {
  const s = seed();
  it(`never holds a place twice, and the place map tells what can be booked (seed ${s})`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof({ arbitrary: book, weight: 4 }, { arbitrary: select, weight: 2 }, { arbitrary: advance, weight: 1 }, { arbitrary: refund, weight: 1 }),
          { minLength: 3, maxLength: 14 },
        ),
        async (commands) => {
          const clock = virtualClock(new Date(START));
          let n = 0;
          const w: World = {
            service: createService(engine(), memoryStore(), clocksOf(clock, false), { next: (kind) => `${kind}-${++n}` }),
            clock,
            bookings: [],
          };
          for (const command of commands) {
            await command(w);
            await noDoubleHolding(w);
          }
          await mapIsTruth(w);
        },
      ),
      { seed: s, numRuns: runs(25) },
    );
  }, 120_000);
});
