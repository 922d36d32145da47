import { describe, expect, it } from 'vitest';
import type { Requestor } from '../engine/index.ts';
import { makeContext } from '../engine/model/context.ts';
import { allocate } from '../engine/seats/allocate.ts';
import type { Holding } from '../engine/holdings/place-holdings.ts';
import { engine, trip } from './helpers/server.ts';

const requestor: Requestor = { client: 'demo-reseller', salesApplication: 'WEB_SE', salesUnitCode: 'TEST', language: 'en-GB' };
const now = new Date('2026-11-20T10:00:00+01:00');
let n = 0;
const call = { requestor, now, ids: { next: (k: string) => `${k}-${++n}` } };

/** A provisional booking of a 2nd-class private sleeper for three on night train 421 (nothing else held). */
function privateSleeperForThree() {
  const { offers } = engine().offers(call, {
    tripSpecifications: [trip('NT', '2026-12-01T18:00:00+01:00', '2026-12-02T08:00:00+01:00')],
    anonymousPassengerSpecifications: [30, 31, 32].map((age, i) => ({ externalRef: `p${i + 1}`, type: 'PERSON', age })),
    offerSearchCriteria: { travelClasses: ['SECOND'], flexibilities: ['NON_FLEXIBLE'] },
  }).value;
  const offer = offers.find((o) => o.product.code === 'NIGHT_2_SLEEPER_PRIVATE')!;
  const { request } = engine().readBookingRequest({
    externalRef: 'private',
    offers: [{ offerId: offer.offerId, passengerRefs: ['p1', 'p2', 'p3'] }],
    passengerSpecifications: ['p1', 'p2', 'p3'].map((externalRef) => ({ externalRef, type: 'PERSON' })),
  });
  return engine().book(call, request, new Map([[offer.offerId, offer]])).value.booking;
}

describe('allocation of private compartments (spec §2.5 rule 4)', () => {
  it('a 2nd-class private group is not split: with the three-bed compartments of coach 7 taken, it skips the two-bed ones', () => {
    const booking = privateSleeperForThree();
    const leg = booking.trip.legs[0]!;
    // Someone holds one bed in each three-bed compartment (1–6) of the first sleeper coach.
    const held: Holding[] = [1, 2, 3, 4, 5, 6].map((c) => ({
      train: `421/2026-12-01`,
      coachNumber: '7',
      placeNumber: `${c}1`,
      compartment: String(c),
      gender: 'MEN',
      private: false,
      from: Date.parse(leg.departure),
      to: Date.parse(leg.arrival),
      bookingId: 'other',
      reservationId: `other-${c}`,
      passengerId: 'x',
    }));
    const ctx = makeContext(engine().rules, requestor, now, call.ids, 'k');
    const { reservations } = allocate(ctx, {
      booking,
      held,
      targets: new Set(booking.reservations.map((r) => r.id)),
      mode: 'create',
      pointerOf: () => '#/placeSelections',
    });
    const places = reservations.map((r) => `${r.placeAllocation!.coachNumber}/${r.placeAllocation!.compartment}/${r.placeAllocation!.placeNumber}`);
    expect(places).toEqual(['8/1/11', '8/1/12', '8/1/13']);
    expect(reservations.every((r) => r.placeAllocation!.private)).toBe(true);
  });

  it('with nothing held, the group fills the first compartment', () => {
    const booking = privateSleeperForThree();
    expect(booking.reservations.map((r) => `${r.placeAllocation!.coachNumber}/${r.placeAllocation!.placeNumber}`)).toEqual(['7/11', '7/12', '7/13']);
  });
});
