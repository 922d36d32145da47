import { z } from 'zod';
import type { Context } from '../model/context.ts';
import { isExpired } from '../state/booking-state.ts';
import { tripOfPart } from '../model/trips.ts';
import type { PlaceSelection } from '../model/osdm/shapes.ts';
import type { Booking, Leg, StoredOffer } from '../model/records.ts';
import { parseRequest } from '../rules/validate.ts';
import { phrase, violation } from '../rules/violation.ts';
import { holds, holdingsOf, interval, overlaps, type Holding, type OnTrain } from '../holdings/place-holdings.ts';
import { candidate, candidatesFor, compartmentTerms, selectable, type Candidate, type Seeker } from './places.ts';
import { trainKey } from '../model/train.ts';
import type { PartReference, PlacePreSelection, PlaceStatus } from '../model/osdm/seat-response.ts';

/** The four query parameters of /availabilities, …/preferences and …/place-map (CONTRACT §6). */
export const AvailabilityQuery = z.object({
  contextType: z.enum(['OFFER', 'BOOKING']),
  contextId: z.string().min(1),
  resourceType: z.string().min(1),
  resourceId: z.string().min(1),
});
export type AvailabilityQuery = z.infer<typeof AvailabilityQuery>;

export function readAvailabilityQuery(query: unknown): AvailabilityQuery {
  const q = parseRequest(AvailabilityQuery, query);
  // Spec §4.1 rule 3: a place map is for a reservation, never a fare.
  if (q.resourceType !== 'RESERVATION') throw violation('86028', {}, '#/resourceType');
  return q;
}

/** Whom a place map is for: one reservation (offered or booked) of one passenger on one leg (spec §2.11). */
export interface MapSubject {
  leg: Leg;
  tripId: string;
  productCode: string;
  seeker: Seeker;
  /** The request's context and resource (OSDM PlaceAvailability.reference). */
  reference: z.infer<typeof PartReference>;
  /** Booking context: the places of all reservations on the leg (spec §2.11 preSelections). */
  preSelections?: Array<z.infer<typeof PlacePreSelection>>;
}

/**
 * Resolves the context of an availability request (spec §4.1 rule 3): the caller's offer and its reservation
 * offer part, or the caller's booking and its reservation; unknown → 404, expired → 409, a train without a
 * published seat map → 86030 (offer) or 86032 (booking), a sales application without place maps → 403.
 */
export function subjectOf(ctx: Context, q: AvailabilityQuery, found: { offer?: StoredOffer; booking?: Booking }): MapSubject {
  if (!ctx.salesApplication.permissions.placeMap) {
    throw violation(
      'X_OPERATION_NOT_PERMITTED',
      { salesApplication: ctx.salesApplication.code, operation: phrase('operation-place-maps') },
      'header:Requestor',
    );
  }
  const noMap = q.contextType === 'OFFER' ? '86030' : '86032';
  const published = (leg: Leg) => {
    if (!ctx.rules.fleet.categories[leg.category]?.placeMap) throw violation(noMap, {}, '#/resourceId');
  };
  if (q.contextType === 'OFFER') {
    const offer = found.offer;
    if (!offer || offer.owner !== ctx.requestor.client)
      throw violation('RESOURCE_NOT_FOUND', { resource: phrase('resource-offer'), id: q.contextId }, '#/contextId');
    const part = offer.reservations.find((r) => r.id === q.resourceId);
    if (!part) throw violation('RESOURCE_NOT_FOUND', { resource: phrase('resource-reservation-offer-part'), id: q.resourceId }, '#/resourceId');
    if (ctx.now.getTime() > Date.parse(offer.preBookableUntil))
      throw violation('X_OFFER_EXPIRED', { id: offer.offerId, until: offer.preBookableUntil }, '#/contextId');
    const leg = offer.trip.legs.find((l) => l.id === part.legId)!;
    published(leg);
    return {
      leg,
      tripId: offer.trip.id,
      productCode: part.product.code,
      reference: referenceOf(q),
      seeker: { ...interval(leg), bookingId: '', ...compartmentTerms(ctx.rules, part.product.code), wheelchair: false },
    };
  }
  const booking = found.booking;
  if (!booking || booking.owner !== ctx.requestor.client)
    throw violation('RESOURCE_NOT_FOUND', { resource: phrase('resource-booking'), id: q.contextId }, '#/contextId');
  const r = booking.reservations.find((x) => x.id === q.resourceId);
  if (!r) throw violation('RESOURCE_NOT_FOUND', { resource: phrase('resource-reservation'), id: q.resourceId }, '#/resourceId');
  if (isExpired(booking, ctx.now)) throw violation('X_BOOKING_EXPIRED', { id: booking.id, until: booking.confirmationTimeLimit });
  // A reservation an exchange made travels on the exchange's trip (leg ids may repeat from one trip to the next).
  const trip = tripOfPart(booking, r.id);
  const leg = trip.legs.find((l) => l.id === r.legId)!;
  published(leg);
  const product = ctx.rules.products.products[r.product.code]!;
  const passenger = booking.passengers.find((p) => p.id === r.passengerId)!;
  const fleet = ctx.rules.fleet;
  const genders = ((r.placeSelection as PlaceSelection | undefined)?.accommodations ?? [])
    .flatMap((a) => a.placeProperties)
    .filter((p) => fleet.genderPlaceProperties.includes(p));
  const gender = product.compartment === 'SHARED' ? (r.placeAllocation?.gender ?? genders[0]) : undefined;
  const preSelections = booking.reservations
    .filter((x) => x.legId === r.legId && tripOfPart(booking, x.id).id === trip.id && holds(booking, x, ctx.now))
    .map((x) => ({ reservationId: x.id, coach: x.placeAllocation!.coachNumber, place: x.placeAllocation!.placeNumber }));
  return {
    leg,
    tripId: trip.id,
    productCode: r.product.code,
    reference: referenceOf(q),
    seeker: {
      ...interval(leg),
      bookingId: booking.id,
      reservationId: r.id,
      ...compartmentTerms(ctx.rules, r.product.code),
      ...(gender ? { gender } : {}),
      wheelchair: (passenger.prmNeeds ?? []).includes(fleet.wheelchair.prmNeed),
    },
    ...(preSelections.length > 0 ? { preSelections } : {}),
  };
}

const referenceOf = (q: AvailabilityQuery) => ({
  contextId: q.contextId,
  contextType: q.contextType,
  resourceId: q.resourceId,
  resourceType: 'RESERVATION' as const,
});

/** Every place of the train with its status for the subject (spec §2.11 PlacePosition.status). */
export function placeStatuses(ctx: Context, subject: MapSubject, onTrains: readonly OnTrain[]): Array<Candidate & { status: z.infer<typeof PlaceStatus> }> {
  const { rules } = ctx;
  const train = trainKey(subject.leg);
  const held: Holding[] = holdingsOf(onTrains, ctx.now).filter((h) => h.train === train);
  const sells = new Set(candidatesFor(rules, subject.leg.category, subject.productCode).map((c) => c.coach.number));
  const coaches = rules.fleet.categories[subject.leg.category]?.coaches ?? [];
  return coaches.flatMap((coach) => {
    const layout = rules.coachLayouts.layouts[coach.layout]!;
    return layout.places.map((place) => {
      const c = candidate(rules, coach, layout, place);
      const taken = held.some(
        (h) =>
          h.reservationId !== subject.seeker.reservationId && h.coachNumber === coach.number && h.placeNumber === place.number && overlaps(h, subject.seeker),
      );
      const status =
        sells.has(coach.number) && selectable(c, subject.seeker, held) ? ('FREE' as const) : taken ? ('ALLOCATED' as const) : ('RESTRICTED' as const);
      return { ...c, status };
    });
  });
}
