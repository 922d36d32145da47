import { z } from 'zod';
import { enforce, type Context } from '../model/context.ts';
import { chooseAncillaries } from '../booking/ancillaries.ts';
import { issueFulfillments } from '../booking/lifecycle.ts';
import { move, movePart } from '../state/booking-state.ts';
import { mapPlaceSelections } from '../booking/places.ts';
import { PlaceSelection } from '../model/osdm/shapes.ts';
import { can, initialState, step } from '../state/machine.ts';
import { fulfillmentMachine } from '../../machines/fulfillment.ts';
import type { Booking, BookingPartStatus, ExchangeOperation, StoredOffer } from '../model/records.ts';
import { createOffers, readOfferRequest } from '../offers/create.ts';
import { OfferCollectionRequest } from '../model/osdm/offer-request.ts';
import { plus } from '../rules/time.ts';
import { parseRequest } from '../rules/validate.ts';
import { phrase, violation } from '../rules/violation.ts';
import { allocate } from '../seats/allocate.ts';
import type { Holding } from '../holdings/place-holdings.ts';
import { assertPassesFree, assertRidesLeft } from '../booking/pass-checks.ts';
import type { PassUse } from '../holdings/pass-uses.ts';
import { exchangeMachine, type ExchangeEvent } from '../../machines/exchange.ts';
import { assertNoOtherOperation } from './offers.ts';
import { whatRemains } from './refund.ts';
import { selectTickets, withStatus } from './tickets.ts';
import { isConfirmedOperation, isLiveOperation, isPendingOperation } from '../state/aftersales-state.ts';

/**
 * Exchange (spec §3, §4.1 rule 7): exchange offers for a new trip (the booking is unchanged), an exchange
 * operation that pre-books one (the original parts EXCHANGE_ONGOING), confirmed by the booking's
 * fulfillment call (the original EXCHANGED, the new parts FULFILLED). rules/exchange-guards.yaml says
 * when an exchange is refused and what it costs (exchangeFee); exchangePrice is the full price of the new trip.
 */
export const ExchangeOfferRequest = OfferCollectionRequest.extend({
  fulfillmentIds: z.array(z.string().min(1)).min(1),
  overruleCode: z.string().optional(),
});

export type ExchangeOfferRequest = z.infer<typeof ExchangeOfferRequest>;

export const ExchangeOperationRequest = z.strictObject({
  exchangeOffers: z
    .array(
      z.strictObject({
        offerId: z.string().min(1),
        passengerRefs: z.array(z.string()).min(1),
        optionalAncillarySelections: z.array(z.strictObject({ ancillaryId: z.string(), passengerRefs: z.array(z.string()).optional() })).optional(),
        placeSelections: z.array(PlaceSelection).optional(),
        externalRef: z.unknown().optional(),
      }),
    )
    .length(1, 'exactly one exchange offer per operation'),
});

export type ExchangeOperationRequest = z.infer<typeof ExchangeOperationRequest>;

export const ExchangeOperationPatch = z.strictObject({
  requestedFulfillmentType: z.unknown().optional(),
  preferredFulfillmentMedia: z.unknown().optional(),
  embed: z.unknown().optional(),
});

const stationsOf = (ctx: Context, ref: string) => {
  const s = ctx.rules.stations.byRef(ref);
  return { refs: s ? ([s.x_swe, s.uic].filter(Boolean) as string[]) : [ref], agglomeration: s?.agglomeration };
};
/** Spec §4.1 rule 7: the same station, or another in the same agglomeration. */
const samePlace = (ctx: Context, a: string, b: string) => {
  const x = stationsOf(ctx, a);
  const y = stationsOf(ctx, b);
  return x.refs.includes(b) || (x.agglomeration !== undefined && x.agglomeration === y.agglomeration);
};

/** `held`: what others hold on the new trip's trains, so that a sold-out product is not offered. */
export function createExchangeOffers(
  ctx: Context,
  booking: Booking,
  request: ExchangeOfferRequest,
  held: readonly Holding[] = [],
  passUses: readonly PassUse[] = [],
): StoredOffer[] {
  move(ctx, booking, { type: 'OFFER_EXCHANGE' }, phrase('operation-an-exchange'));
  assertNoOtherOperation(ctx, booking);
  const { tickets, partIds } = selectTickets(booking, request.fulfillmentIds, 'EXCHANGE');
  const remains = whatRemains(ctx, booking, tickets, request.fulfillmentIds);
  if (!remains.coversWholeTickets) {
    throw violation('86001', { reason: phrase('exchange-whole-tickets') }, '#/fulfillmentIds');
  }
  // Spec §4.1 rule 7: nothing is remembered; the passengers must be re-sent exactly as in the original offer request.
  const leaving = booking.passengers.filter((p) => tickets.some((t) => t.passengerIds.includes(p.id)));
  const sent = request.anonymousPassengerSpecifications;
  const same =
    sent.length === leaving.length &&
    leaving.every((p) => {
      const s = sent.find((x) => x.externalRef === p.externalRef);
      return (
        s &&
        (s.age ?? -1) === p.pricing.age &&
        JSON.stringify(s.cards.map((c) => [c.type, c.code, c.number ?? null])) ===
          JSON.stringify(p.pricing.cards.map((c) => [c.type, c.code, c.number ?? null]))
      );
    });
  if (!same) throw violation('86001', { reason: phrase('exchange-same-passengers') }, '#/anonymousPassengerSpecifications');

  const newTrip = request.tripSpecifications?.[0];
  const oldFirst = booking.trip.legs[0];
  const oldLast = booking.trip.legs[booking.trip.legs.length - 1];
  const newFirst = newTrip?.legs[0]?.timedLeg.start.stopPlaceRef.stopPlaceRef;
  const newLast = newTrip?.legs[newTrip.legs.length - 1]?.timedLeg.end.stopPlaceRef.stopPlaceRef;
  const originalCodes = booking.corporateCodes
    .map((c) => c.code)
    .sort()
    .join();
  const allowed = enforce(
    ctx,
    'exchangeGuard',
    {
      passPurchase: booking.pass !== undefined,
      resplus: booking.throughTicketTags.includes('RESPLUS'),
      personalPass: leaving.some((p) => p.cards.some((c) => c.type === 'TRAVEL_PASS' && ctx.rules.customers.passTypes[c.code]?.personal)),
      sameOriginAndDestination: !!(
        oldFirst &&
        oldLast &&
        newFirst &&
        newLast &&
        samePlace(ctx, oldFirst.origin, newFirst) &&
        samePlace(ctx, oldLast.destination, newLast)
      ),
      admissionExchangeable: tickets.every((t) => booking.admissions.find((a) => a.id === t.admissionId)?.exchangeable === 'YES'),
      afterSalesOverride: booking.afterSalesOverride === true,
      // Spec §4.1 rule 7: the corporate code is kept; another business number is refused (86013).
      businessNumberMatches:
        originalCodes === '' ||
        request.corporateCodes
          .map((c) => c.code)
          .sort()
          .join() === originalCodes,
      ungrantedDiscountedChildren: remains.ungrantedDiscountedChildren,
    },
    '#/tripSpecifications',
  );
  const { fulfillmentIds: _f, overruleCode: _o, ...offerRequest } = request;
  // Read as an offer request is (its limits decided first), the original booking's corporate codes in it.
  return createOffers(ctx, readOfferRequest(ctx, { ...offerRequest, corporateCodes: booking.corporateCodes }), held, passUses).map((offer) => ({
    ...offer,
    exchange: { bookingId: booking.id, fulfillmentIds: request.fulfillmentIds, partIds: [...partIds], fee: allowed?.exchangeFee ?? 0 },
  }));
}

/**
 * POST /bookings/{id}/exchange-operations (spec §3, §4.1 rule 7): the new trip's parts pre-booked, each new
 * reservation on a place of its train (`held`: what others hold there, spec §2.10), the original parts
 * EXCHANGE_ONGOING until the operation is confirmed, deleted or expires.
 */
export function createExchangeOperation(
  ctx: Context,
  booking: Booking,
  request: ExchangeOperationRequest,
  offers: ReadonlyMap<string, StoredOffer>,
  held: readonly Holding[] = [],
  passUses: readonly PassUse[] = [],
): Booking {
  move(ctx, booking, { type: 'OFFER_EXCHANGE' }, phrase('operation-an-exchange'));
  assertNoOtherOperation(ctx, booking);
  const selection = request.exchangeOffers[0]!;
  const offer = offers.get(selection.offerId);
  if (!offer?.exchange || offer.exchange.bookingId !== booking.id || offer.owner !== ctx.requestor.client) {
    throw violation('RESOURCE_NOT_FOUND', { resource: phrase('resource-exchange-offer'), id: selection.offerId }, '#/exchangeOffers/0/offerId');
  }
  if (ctx.now.getTime() > new Date(offer.preBookableUntil).getTime())
    throw violation('X_OFFER_EXPIRED', { id: offer.offerId, until: offer.preBookableUntil }, '#/exchangeOffers/0/offerId');
  if (
    offer.exchange.fulfillmentIds.some((id) => {
      const f = booking.fulfillments.find((x) => x.id === id);
      return !f || !can(fulfillmentMachine, f.status, { type: 'EXCHANGE' });
    })
  ) {
    throw violation(
      'X_BOOKING_STATE',
      { operation: phrase('operation-this-exchange'), state: phrase('state-changed-since-exchange-offer') },
      '#/exchangeOffers/0/offerId',
    );
  }
  const now = ctx.now.toISOString();
  const idOf = (ref: string) => booking.passengers.find((p) => p.externalRef === ref)!.id;
  const part = { status: 'PREBOOKED' as const, createdOn: now };
  // Spec §2.10: places are chosen as at booking, on the exchange offer's reservation offer parts, passengers named
  // by externalRef as in the exchange offer request (spec §4.1 rule 7).
  const selectionsAt = '#/exchangeOffers/0/placeSelections';
  const selections = mapPlaceSelections(
    selection.placeSelections ?? [],
    {
      owner: 'offer',
      reservations: offer.reservations.map((r) => ({ id: r.id, tripId: offer.trip.id, legId: r.legId, passengerId: idOf(r.passengerRef) })),
      idOf: (ref) => booking.passengers.find((p) => p.externalRef === ref)?.id,
      refOf: (id) => booking.passengers.find((p) => p.id === id)!.externalRef,
    },
    selectionsAt,
  );
  const pointers = new Map<string, string>();
  const reserve = ({ passengerRef, ...r }: StoredOffer['reservations'][number]) => {
    const id = ctx.ids.next('part');
    const index = selections.findIndex((x) => x.reservationId === r.id);
    pointers.set(id, index >= 0 ? `${selectionsAt}/${index}` : '#/exchangeOffers/0/offerId');
    return { ...r, ...part, id, passengerId: idOf(passengerRef), ...(index >= 0 ? { placeSelection: selections[index] } : {}) };
  };
  // Spec §4.1 rule 7: mandatory ancillaries are added again on the new trip; optional ones only when chosen anew.
  const operation: ExchangeOperation = {
    id: ctx.ids.next('offer'),
    state: initialState(exchangeMachine),
    createdOn: now,
    validUntil: plus(ctx.now, ctx.rules.limits.provisionalBookingLifetime).toISOString(),
    exchangeOfferId: offer.offerId,
    offer,
    originalPartIds: offer.exchange.partIds,
    fulfillmentIds: offer.exchange.fulfillmentIds,
    trip: offer.trip,
    exchangePrice: offer.minimalPrice,
    exchangeFee: offer.exchange.fee ?? 0,
    admissions: offer.admissions.map(({ passengerRefs, ...a }) => ({ ...a, ...part, id: ctx.ids.next('part'), passengerIds: passengerRefs.map(idOf) })),
    reservations: offer.reservations.map(reserve),
    ancillaries: chooseAncillaries(offer, selection.optionalAncillarySelections ?? []).map(({ part: { passengerRef, isDefault: _d, ...a }, autoAdded }) => ({
      ...a,
      ...part,
      id: ctx.ids.next('part'),
      passengerId: idOf(passengerRef),
      autoAdded,
    })),
  };
  // The new reservations take places as a new booking's would.
  const placed = allocate(ctx, {
    booking: { ...booking, trip: operation.trip, reservations: operation.reservations },
    held,
    targets: new Set(operation.reservations.map((r) => r.id)),
    mode: 'create',
    pointerOf: (id) => pointers.get(id)!,
  }).reservations;
  const ongoing = withStatus(booking, new Set(operation.originalPartIds), 'START_EXCHANGE');
  const next = { ...ongoing, exchangeOperations: [...(booking.exchangeOperations ?? []), { ...operation, reservations: placed }] };
  // Spec §2.7 rule 8: the new journey may not overlap another journey the same pass pays for.
  assertPassesFree(ctx, next, passUses, () => '#/exchangeOffers/0/offerId');
  assertRidesLeft(ctx, next, passUses, () => '#/exchangeOffers/0/offerId');
  return next;
}

function moveOperation(ctx: Context, op: ExchangeOperation, event: ExchangeEvent): ExchangeOperation {
  const next = step(exchangeMachine, op.state, event);
  if (!next) throw violation('X_BOOKING_STATE', { operation: phrase(`operation-exchange-${event.type.toLowerCase()}`, { id: op.id }), state: op.state });
  return { ...op, state: next, ...(isConfirmedOperation(next) ? { confirmedOn: ctx.now.toISOString() } : {}) };
}

export function findOperation(booking: Booking, id: string): ExchangeOperation {
  const op = booking.exchangeOperations?.find((o) => o.id === id);
  if (!op) throw violation('RESOURCE_NOT_FOUND', { resource: phrase('resource-exchange-operation'), id });
  return op;
}

const replace = (booking: Booking, op: ExchangeOperation) => (booking.exchangeOperations ?? []).map((o) => (o.id === op.id ? op : o));

export function patchExchangeOperation(ctx: Context, booking: Booking, id: string, body: unknown): Booking {
  parseRequest(ExchangeOperationPatch, body);
  const op = findOperation(booking, id);
  if (isPendingOperation(op.state) && !liveOperation(ctx, booking)) throw violation('X_BOOKING_EXPIRED', { id: op.id, until: op.validUntil });
  moveOperation(ctx, op, { type: 'PATCH' });
  return booking;
}

export function deleteExchangeOperation(ctx: Context, booking: Booking, id: string): Booking {
  const op = findOperation(booking, id);
  if (isConfirmedOperation(op.state)) throw violation('RESOURCE_NOT_FOUND', { resource: phrase('resource-exchange-operation'), id });
  moveOperation(ctx, op, { type: 'DELETE' });
  const restored = withStatus(booking, new Set(op.originalPartIds), 'CANCEL_EXCHANGE');
  return { ...restored, exchangeOperations: (booking.exchangeOperations ?? []).filter((o) => o.id !== id) };
}

/** The operation being pre-booked on this booking, if one is live. */
function liveOperation(ctx: Context, booking: Booking): ExchangeOperation | undefined {
  return booking.exchangeOperations?.find((o) => isLiveOperation(ctx.now, o));
}

/** Expired operations give their parts back (called before any aftersales decision). */
export function expireOperations(ctx: Context, booking: Booking): Booking {
  let next = booking;
  for (const op of booking.exchangeOperations ?? []) {
    if (!isPendingOperation(op.state) || ctx.now.getTime() < new Date(op.validUntil).getTime()) continue;
    next = withStatus(next, new Set(op.originalPartIds), 'CANCEL_EXCHANGE');
    next = { ...next, exchangeOperations: replace(next, moveOperation(ctx, op, { type: 'EXPIRE' })) };
  }
  return next;
}

/**
 * POST /bookings/{id}/fulfillment on a confirmed booking (spec §3): the same call confirms its pre-booked exchange,
 * whose new parts get their fulfillments and whose original parts become EXCHANGED; without one, nothing changes.
 */
export function confirmPendingExchange(ctx: Context, booking: Booking): Booking {
  const settled = expireOperations(ctx, booking);
  const op = liveOperation(ctx, settled);
  return op ? confirmExchange(ctx, settled, op) : settled;
}

/**
 * POST …/fulfillment(s) while an exchange is pre-booked (spec §3): the original parts and fulfillments
 * EXCHANGED, the new parts FULFILLED with fulfillments of their own, the operation FULFILLED and kept.
 */
function confirmExchange(ctx: Context, booking: Booking, op: ExchangeOperation): Booking {
  const confirmed = moveOperation(ctx, op, { type: 'CONFIRM' });
  const now = ctx.now.toISOString();
  const fulfilled = <T extends { id: string; status: BookingPartStatus }>(p: T) => ({ ...movePart(p, 'CONFIRM'), confirmedOn: now });
  const parts = { admissions: op.admissions.map(fulfilled), reservations: op.reservations.map(fulfilled), ancillaries: op.ancillaries.map(fulfilled) };
  const exchanged = withStatus(booking, new Set(op.originalPartIds), 'EXCHANGE', 'EXCHANGE');
  const withTrip = { ...exchanged, exchangeOperations: replace(exchanged, confirmed) };
  return {
    ...withTrip,
    admissions: [...withTrip.admissions, ...parts.admissions],
    reservations: [...withTrip.reservations, ...parts.reservations],
    ancillaries: [...withTrip.ancillaries, ...parts.ancillaries],
    fulfillments: [...withTrip.fulfillments, ...issueFulfillments(ctx, withTrip, parts)],
  };
}
