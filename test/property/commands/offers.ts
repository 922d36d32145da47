import fc from 'fast-check';
import { ApiCommand, type CommandSpec } from '../../helpers/model-command.ts';
import { iso, lifetimes, type Model } from '../../helpers/model.ts';
import type { System } from '../../helpers/model-system.ts';
import { fixtureTrip, TRIP_NAMES, type TripName } from '../../helpers/model-trips.ts';
import { engine } from '../../helpers/server.ts';
import type { TravelClass } from '../../../engine/rules/facts.ts';

/**
 * The ids of products that give each passenger a compartment of their own (rules/products.yaml `compartmentEach`,
 * spec §2.4 JREFAP2): a few bookings fill a train's rooms, and the model does not count rooms, so it keeps none of
 * their offers (scenarios/booking/first-class-compartment-each.yaml covers them, a full train included).
 */
const roomEach = Object.values(engine().rules.products.products)
  .filter((p) => p.compartmentEach)
  .map((p) => `${p.id}_`);

/**
 * POST /v3/offers (spec §2.2, §2.3): a fixture trip, 1–9 passengers of any age, maybe a class and a
 * flexibility filter. Always 200 (no offers at all is an answer too: a cancelled train, a train gone);
 * each offer bookable for the offer lifetime of rules/limits.yaml. The model keeps one of them.
 */
export class RequestOffers extends ApiCommand {
  readonly trip: TripName;
  readonly ages: readonly number[];
  readonly travelClass: TravelClass | undefined;
  readonly flexibility: 'NON_FLEXIBLE' | 'FULL_FLEXIBLE' | undefined;
  /** Which of the offers the model keeps (modulo their number). */
  readonly keep: number;
  constructor(
    trip: TripName,
    ages: readonly number[],
    travelClass: TravelClass | undefined,
    flexibility: 'NON_FLEXIBLE' | 'FULL_FLEXIBLE' | undefined,
    keep: number,
  ) {
    super();
    this.trip = trip;
    this.ages = ages;
    this.travelClass = travelClass;
    this.flexibility = flexibility;
    this.keep = keep;
  }

  check(m: Readonly<Model>) {
    return m.offers.length < 12;
  }

  protected async act(m: Model, s: System) {
    const criteria = { ...(this.travelClass ? { travelClasses: [this.travelClass] } : {}), ...(this.flexibility ? { flexibilities: [this.flexibility] } : {}) };
    const res = await s.send({
      name: `offers on ${this.trip} for ages ${this.ages.join(', ')}`,
      method: 'post',
      path: '/v3/offers',
      body: {
        tripSpecifications: [fixtureTrip(this.trip)],
        anonymousPassengerSpecifications: this.ages.map((age, i) => ({ externalRef: `p${i + 1}`, type: 'PERSON', age })),
        ...(Object.keys(criteria).length ? { offerSearchCriteria: criteria } : {}),
      },
      expect: { status: 200, body: { offers: '$array' } },
    });
    const offers = res.body.offers as Array<{
      offerId: string;
      preBookableUntil: string;
      passengerRefs: string[];
      products: Array<{ id: string }>;
      reservationOfferParts?: Array<{ numberOfPrivateCompartments?: number }>;
    }>;
    const until = m.now + lifetimes().offer;
    for (const o of offers) {
      if (o.preBookableUntil !== iso(until))
        throw s.violation(`offer ${o.offerId} is bookable until ${o.preBookableUntil}; the offer lifetime says ${iso(until)}`, res);
      if (o.passengerRefs.join() !== this.ages.map((_, i) => `p${i + 1}`).join())
        throw s.violation(`offer ${o.offerId} covers ${o.passengerRefs.join(', ')}, not every passenger asked for`, res);
    }
    const keepable = offers.flatMap((o, i) => (o.products.some((p) => roomEach.some((prefix) => p.id.startsWith(prefix))) ? [] : [i]));
    if (keepable.length === 0) return;
    const kept = keepable[this.keep % keepable.length]!;
    const id = s.newVar('offer');
    s.save(id, `offers[${kept}].offerId`);
    // Spec §2.5: numberOfPrivateCompartments 0 marks a place in a shared compartment.
    const sharedPlaces = (offers[kept]!.reservationOfferParts ?? []).flatMap((p, i) => {
      if (p.numberOfPrivateCompartments !== 0) return [];
      const place = `${id}SharedPlace${i + 1}`;
      s.save(place, `offers[${kept}].reservationOfferParts[${i}].id`);
      s.save(`${place}Leg`, `offers[${kept}].reservationOfferParts[${i}].availablePlaces[0].tripLegCoverage`);
      s.save(`${place}Type`, `offers[${kept}].reservationOfferParts[${i}].availablePlaces[0].accommodationType`);
      return [place];
    });
    const legs = fixtureTrip(this.trip)['legs'] as Array<{ timedLeg: { start: { serviceDeparture: { timetabledTime: string } } } }>;
    const departure = new Date(legs[0]!.timedLeg.start.serviceDeparture.timetabledTime).getTime();
    const privateRooms = (offers[kept]!.reservationOfferParts ?? []).some((p) => p.numberOfPrivateCompartments === 1);
    m.offers.push({
      id,
      passengers: this.ages.map((age, i) => ({ ref: `p${i + 1}`, age })),
      bookableUntil: until,
      sharedPlaces,
      trip: this.trip,
      departure,
      privateRooms,
    });
  }

  toString() {
    return `RequestOffers(${this.trip}, [${this.ages.join(',')}], ${this.travelClass ?? 'any class'}, ${this.flexibility ?? 'any flexibility'}, keep ${this.keep})`;
  }
}

export const spec: CommandSpec = {
  name: 'RequestOffers',
  weight: 3,
  arbitrary: fc
    .tuple(
      fc.constantFrom(...TRIP_NAMES),
      fc.array(fc.integer({ min: 0, max: 99 }), { minLength: 1, maxLength: 9 }),
      fc.constantFrom(undefined, 'FIRST' as const, 'SECOND' as const),
      fc.constantFrom(undefined, 'NON_FLEXIBLE' as const, 'FULL_FLEXIBLE' as const),
      fc.nat({ max: 9 }),
    )
    .map(([trip, ages, c, f, keep]) => new RequestOffers(trip, ages, c, f, keep)),
};
