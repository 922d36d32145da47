import fc from 'fast-check';
import { ApiCommand, type CommandSpec } from '../../helpers/model-command.ts';
import {
  bookingMachine,
  bookingPartMachine,
  enter,
  iso,
  isBookable,
  lifetimes,
  pick,
  ref,
  roomsLeft,
  type Model,
  type SalesApplication,
} from '../../helpers/model.ts';
import type { System } from '../../helpers/model-system.ts';
import { RequestOffers } from './offers.ts';

/** How complete the booking request's people are (spec §2.6, §2.7 rule 3). */
export type Completeness = 'complete' | 'passenger-without-last-name' | 'passenger-without-detail' | 'no-purchaser';

export const PURCHASER = { detail: { firstName: 'Anna', lastName: 'Svensson', email: 'anna.svensson@example.se', phoneNumber: '+46701234567' } };

/**
 * POST /v3/booking or /v3/bookings (spec §2.6, §3 first row) of one of the model's offers that is still
 * bookable: a provisional booking (PREBOOKED) living the provisional lifetime of rules/limits.yaml.
 * Incomplete passenger data or no purchaser still books, with a warning for each (docs/api-behaviour.md "Warnings").
 * A place in a shared night compartment gets a gender (MEN or LADIES: both fit couchettes and sleepers);
 * forgetting it is refused with 86005 and books nothing (spec §2.5 rule 5).
 */
export class Book extends ApiCommand {
  readonly offer: number;
  readonly completeness: Completeness;
  /** Which passenger lacks data when one does. */
  readonly who: number;
  /** Whether the passengers repeat their ages (optional; equal to the offer's when given). */
  readonly withAges: boolean;
  readonly path: '/v3/booking' | '/v3/bookings';
  readonly gender: 'MEN' | 'LADIES' | 'forgotten';
  /** The sales application booking it: an agent (AGENT_SE) may put it on hold and release it (rules/sales-applications.yaml). */
  readonly salesApplication: SalesApplication;
  constructor(
    offer: number,
    completeness: Completeness,
    who: number,
    withAges: boolean,
    path: '/v3/booking' | '/v3/bookings',
    gender: 'MEN' | 'LADIES' | 'forgotten' = 'MEN',
    salesApplication: SalesApplication = 'WEB_SE',
  ) {
    super();
    this.offer = offer;
    this.completeness = completeness;
    this.who = who;
    this.withAges = withAges;
    this.path = path;
    this.gender = gender;
    this.salesApplication = salesApplication;
  }

  check(m: Readonly<Model>) {
    return m.offers.some((o) => isBookable(m, o) && roomsLeft(m, o));
  }

  protected async act(m: Model, s: System) {
    const offer = pick(
      m.offers.filter((o) => isBookable(m, o) && roomsLeft(m, o)),
      this.offer,
    )!;
    const lacking = this.completeness.startsWith('passenger') ? this.who % offer.passengers.length : -1;
    const passengerSpecifications = offer.passengers.map((p, i) => ({
      externalRef: p.ref,
      type: 'PERSON',
      ...(this.withAges ? { age: p.age } : {}),
      ...(i !== lacking
        ? { detail: { firstName: `Passenger${i + 1}`, lastName: 'Testsson' } }
        : this.completeness === 'passenger-without-last-name'
          ? { detail: { firstName: `Passenger${i + 1}` } }
          : {}),
    }));
    const warnings = (lacking >= 0 ? 1 : 0) + (this.completeness === 'no-purchaser' ? 1 : 0);
    const timeLimit = m.now + lifetimes().provisionalBooking;
    const externalRef = `model-${++m.sequence}`;
    const genderless = this.gender === 'forgotten' && offer.sharedPlaces.length > 0;
    const placeSelections =
      this.gender === 'forgotten'
        ? []
        : offer.sharedPlaces.map((place) => ({
            reservationId: ref(place),
            tripLegCoverage: ref(`${place}Leg`),
            accommodations: [
              {
                passengerRefs: offer.passengers.map((p) => p.ref),
                accommodationType: ref(`${place}Type`),
                accommodationSubType: 'ANY_SEAT',
                placeProperties: [this.gender],
              },
            ],
          }));
    const body = {
      externalRef,
      offers: [{ offerId: ref(offer.id), passengerRefs: offer.passengers.map((p) => p.ref), ...(placeSelections.length ? { placeSelections } : {}) }],
      passengerSpecifications,
      ...(this.completeness !== 'no-purchaser' ? { purchaser: PURCHASER } : {}),
    };
    if (genderless) {
      await s.send({
        name: `book ${offer.id} without the gender its shared compartment needs`,
        method: 'post',
        path: this.path,
        body,
        salesApplication: this.salesApplication,
        expect: { status: 400, body: { code: '86005' } },
      });
      return;
    }
    const res = await s.send({
      name: `book ${offer.id} (${this.completeness})`,
      method: 'post',
      path: this.path,
      body,
      salesApplication: this.salesApplication,
      expect: {
        status: 200,
        body: {
          booking: { id: '$string', externalRef, confirmationTimeLimit: iso(timeLimit), confirmedPrice: { amount: 0 }, fulfillments: [] },
          warnings: warnings === 0 ? '$absent' : { warnings: { $length: warnings } },
        },
      },
    });
    const id = s.newVar('booking');
    s.save(id, 'booking.id');
    const price = `${id}Price`;
    s.save(price, 'booking.provisionalPrice.amount');
    const passengers = offer.passengers.map((_, i) => {
      const passenger = `${id}Passenger${i + 1}`;
      s.save(passenger, `booking.passengers[${i}].id`);
      return { id: passenger, complete: i !== lacking };
    });
    const reservations = (res.body.booking.bookedOffers[0].reservations as unknown[]).map((_, i) => {
      const reservation = `${id}Reservation${i + 1}`;
      s.save(reservation, `booking.bookedOffers[0].reservations[${i}].id`);
      s.save(`${reservation}Leg`, `booking.bookedOffers[0].reservations[${i}].placeAllocation.tripLegCoverage`);
      s.save(`${reservation}Type`, `booking.bookedOffers[0].reservations[${i}].placeAllocation.accommodationType`);
      return reservation;
    });
    const admissions = res.body.booking.bookedOffers[0].admissions as Array<{ exchangeable?: string }>;
    m.bookings.push({
      id,
      price,
      state: enter(m, bookingMachine),
      timeLimit,
      passengers,
      purchaser: this.completeness !== 'no-purchaser',
      reservations,
      fulfillments: [],
      createdAt: m.now,
      salesApplication: this.salesApplication,
      ages: offer.passengers.map((p) => p.age),
      ...(offer.trip ? { trip: offer.trip } : {}),
      ...(offer.departure ? { departure: offer.departure } : {}),
      ...(offer.privateRooms ? { privateRooms: true } : {}),
      exchangeable: admissions.every((a) => a.exchangeable === 'YES'),
      onHoldUsed: false,
      fulfillmentStatus: {},
      parts: { state: enter(m, bookingPartMachine) },
      partStatus: {},
      exchanged: false,
      refunded: new Map(),
    });
  }

  toString() {
    return `Book(offer #${this.offer}, ${this.completeness}${this.completeness.startsWith('passenger') ? ` #${this.who}` : ''}, ${this.withAges ? 'with ages' : 'no ages'}, ${this.path}, gender ${this.gender}, ${this.salesApplication})`;
  }
}

export const spec: CommandSpec = {
  name: 'Book',
  weight: 4,
  arbitrary: fc
    .tuple(
      fc.nat({ max: 9 }),
      fc.constantFrom<Completeness>('complete', 'complete', 'complete', 'passenger-without-last-name', 'passenger-without-detail', 'no-purchaser'),
      fc.nat({ max: 8 }),
      fc.boolean(),
      fc.constantFrom('/v3/booking' as const, '/v3/bookings' as const),
      fc.constantFrom('MEN' as const, 'LADIES' as const, 'MEN' as const, 'LADIES' as const, 'forgotten' as const),
      fc.constantFrom<SalesApplication>('WEB_SE', 'AGENT_SE'),
    )
    .map(([offer, completeness, who, withAges, path, gender, app]) => new Book(offer, completeness, who, withAges, path, gender, app)),
  drives: {
    'booking:xstate.init': () => [
      new RequestOffers('sto-gbg-0800', [35], 'SECOND', 'FULL_FLEXIBLE', 0),
      new Book(0, 'complete', 0, true, '/v3/booking', 'MEN', 'AGENT_SE'),
    ],
    'bookingPart:xstate.init': () => [
      new RequestOffers('sto-gbg-0800', [35], 'SECOND', 'FULL_FLEXIBLE', 0),
      new Book(0, 'complete', 0, true, '/v3/booking', 'MEN', 'AGENT_SE'),
    ],
  },
};
