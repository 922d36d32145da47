import type { Context } from '../model/context.ts';
import { initialState } from '../state/machine.ts';
import type { BookedPassenger, Booking, StoredOffer, Warning } from '../model/records.ts';
import { sum } from '../offers/pricing.ts';
import { passengerTypeText } from '../offers/passengers.ts';
import { earliest, plus } from '../rules/time.ts';
import { parseRequest } from '../rules/validate.ts';
import { phrase, violation } from '../rules/violation.ts';
import { bookingMachine } from '../../machines/booking.ts';
import { checkPurchaser, missingPassengerData, readDetail } from './contact.ts';
import { chooseAncillaries } from './ancillaries.ts';
import { namesFromCards } from './identity.ts';
import { checkPassPurchase, holderDetail, soldPass } from './pass-purchase.ts';
import { readPlaceSelections } from './places.ts';
import { BookingRequest } from '../model/osdm/booking-request.ts';
import { allocate } from '../seats/allocate.ts';
import type { Holding } from '../holdings/place-holdings.ts';
import { assertPassesFree, assertRidesLeft } from './pass-checks.ts';
import type { PassUse } from '../holdings/pass-uses.ts';

/** Validates a booking request; the adapter then loads the offers it names (`offerIds`). */
export function readBookingRequest(body: unknown): BookingRequest {
  return parseRequest(BookingRequest, body);
}

/**
 * POST /booking (spec §2.6, §3 first row): a provisional booking from exactly one offer, living for
 * the provisional lifetime of rules/limits.yaml. `offers` holds the stored offers the request names
 * that belong to the caller.
 */
export function createBooking(
  ctx: Context,
  request: BookingRequest,
  offers: ReadonlyMap<string, StoredOffer>,
  held: readonly Holding[] = [],
  passUses: readonly PassUse[] = [],
): { booking: Booking; warnings: Warning[] } {
  const { rules, ids } = ctx;
  // CONTRACT §4b: two pass offers are refused with the specific 86006 rather than 86041.
  if (request.offers.filter((o) => offers.get(o.offerId)?.pass).length > 1) throw violation('86006', {}, '#/offers');
  if (request.offers.length !== 1) throw violation('86041', { count: request.offers.length }, '#/offers');
  const selection = request.offers[0]!;
  const offer = offers.get(selection.offerId);
  if (!offer || offer.owner !== ctx.requestor.client) {
    throw violation('RESOURCE_NOT_FOUND', { resource: phrase('resource-offer'), id: selection.offerId }, '#/offers/0/offerId');
  }
  const passHolder = offer.pass ? checkPassPurchase(ctx, request, offer, offers) : undefined;
  if (ctx.now.getTime() > new Date(offer.preBookableUntil).getTime()) {
    throw violation('X_OFFER_EXPIRED', { id: offer.offerId, until: offer.preBookableUntil }, '#/offers/0/offerId');
  }
  const offerRefs = offer.passengers.map((p) => p.externalRef);
  const sameSet = (refs: string[]) => refs.length === offerRefs.length && offerRefs.every((r) => refs.includes(r));
  if (!sameSet(selection.passengerRefs)) {
    throw violation('86001', { reason: phrase('booking-every-passenger', { refs: offerRefs.join(', ') }) }, '#/offers/0/passengerRefs');
  }
  if (!sameSet(request.passengerSpecifications.map((p) => p.externalRef))) {
    throw violation('86001', { reason: phrase('booking-offer-passengers', { refs: offerRefs.join(', ') }) }, '#/passengerSpecifications');
  }

  const warnings: Warning[] = [];
  const now = ctx.now.toISOString();
  const passengers: BookedPassenger[] = request.passengerSpecifications.map((spec, i) => {
    const offered = offer.passengers.find((p) => p.externalRef === spec.externalRef)!;
    if (spec.age !== undefined && spec.age !== offered.age) {
      throw violation('86001', { reason: phrase('booking-age-differs', { age: offered.age }) }, `#/passengerSpecifications/${i}/age`);
    }
    const cards = spec.cards.length > 0 ? spec.cards : offered.cards;
    const given = readDetail(ctx.rules, spec.detail, `#/passengerSpecifications/${i}/detail`);
    const detail = passHolder ? holderDetail(passHolder, given) : namesFromCards(ctx, given, cards, `#/passengerSpecifications/${i}/detail`);
    const missing = missingPassengerData(detail);
    if (missing.length > 0)
      warnings.push({ code: 'X_PASSENGER_DATA_INCOMPLETE', params: { missing: missing.map((m) => `${spec.externalRef}.${m}`).join(', ') } });
    return {
      id: ids.next('passenger'),
      externalRef: spec.externalRef,
      ...(spec.age !== undefined ? { age: spec.age } : {}),
      // Spec §2.6: without an age the type becomes PERSON.
      type: spec.age !== undefined ? offered.responseType : 'PERSON',
      ...(detail ? { detail } : {}),
      cards,
      // What the admission was priced for; a patch of the age reprices from here (spec §2.7 rule 4).
      pricing: { age: offered.age, cards: offered.cards },
      pricedAs: { type: offered.responseType, description: passengerTypeText(ctx.rules, offered) },
      ...(spec.prmNeeds ? { prmNeeds: spec.prmNeeds } : {}),
    };
  });
  const passengerId = (ref: string) => passengers.find((p) => p.externalRef === ref)!.id;

  let purchaser: Booking['purchaser'];
  if (request.purchaser) {
    const detail = readDetail(ctx.rules, request.purchaser.detail, '#/purchaser/detail')!;
    checkPurchaser(detail, '#/purchaser/detail');
    purchaser = { ...(request.purchaser.externalRef ? { externalRef: request.purchaser.externalRef } : {}), detail };
  } else {
    warnings.push({ code: 'X_PURCHASER_MISSING' });
  }

  const admissions = offer.admissions.map(({ passengerRefs, ...a }) => ({
    ...a,
    id: ids.next('part'),
    passengerIds: passengerRefs.map(passengerId),
    status: 'PREBOOKED' as const,
    createdOn: now,
  }));
  const rawSelections = [...(request.placeSelections ?? []), ...(selection.placeSelections ?? [])];
  const selectionsAt = selection.placeSelections ? '#/offers/0/placeSelections' : '#/placeSelections';
  const places = readPlaceSelections(ctx, offer, rawSelections, selectionsAt, (ref) => passengers.find((p) => p.externalRef === ref)?.id);
  const pointers = new Map<string, string>();
  const reservations = offer.reservations.map(({ passengerRef, ...r }) => {
    const id = ids.next('part');
    const index = places.has(r.id) ? rawSelections.findIndex((s) => s.reservationId === r.id) : -1;
    pointers.set(id, index >= 0 ? `${selectionsAt}/${index}` : selectionsAt);
    return {
      ...r,
      id,
      passengerId: passengerId(passengerRef),
      status: 'PREBOOKED' as const,
      createdOn: now,
      ...(places.has(r.id) ? { placeSelection: places.get(r.id) } : {}),
    };
  });
  const ancillaries = chooseAncillaries(offer, selection.optionalAncillarySelections ?? []).map(
    ({ part: { passengerRef, isDefault: _default, ...a }, autoAdded }) => ({
      ...a,
      id: ids.next('part'),
      passengerId: passengerId(passengerRef),
      status: 'PREBOOKED' as const,
      createdOn: now,
      autoAdded,
    }),
  );
  const price = sum(
    rules,
    [...admissions, ...reservations, ...ancillaries].map((p) => p.price),
    offer.currency,
    offer.trip.international,
  );
  const booking: Booking = {
    id: ids.next('booking'),
    owner: ctx.requestor.client,
    salesApplication: ctx.salesApplication.code,
    createdOn: now,
    externalRef: request.externalRef,
    machine: { value: initialState(bookingMachine) },
    // A provisional booking cannot be confirmed after its train has left.
    confirmationTimeLimit: offer.trip.legs[0]
      ? earliest(plus(ctx.now, rules.limits.provisionalBookingLifetime), offer.trip.legs[0].departure)
      : plus(ctx.now, rules.limits.provisionalBookingLifetime).toISOString(),
    currency: offer.currency,
    offerId: offer.offerId,
    trip: offer.trip,
    product: offer.product,
    throughTicketTags: selection.throughTicketTags ?? [],
    ...(purchaser ? { purchaser } : {}),
    passengers,
    admissions,
    reservations,
    ancillaries,
    offerMode: offer.offerMode,
    fulfillments: [],
    paymentMethods: [],
    ...(offer.pass ? { pass: soldPass(ctx, offer.pass, passHolder) } : {}),
    corporateCodes: offer.corporateCodes,
    promotionCodes: [...offer.promotionCodes, ...(request.promotionCodes ?? []).map(({ code, issuer }) => ({ code, ...(issuer ? { issuer } : {}) }))],
    provisionalPrice: price,
    // Spec §2.6 rule 2: always present, 0 until confirmed.
    confirmedPrice: { ...price, amount: 0, ...(price.vats ? { vats: price.vats.map((v) => ({ ...v, amount: 0 })) } : {}) },
  };
  // Spec §2.10: every reservation holds a place of its train from the start.
  // Spec §2.7 rule 8: a travel pass pays for one journey at a time.
  const pointerOf = (passengerId: string) => `#/passengerSpecifications/${booking.passengers.findIndex((p) => p.id === passengerId)}`;
  assertPassesFree(ctx, booking, passUses, pointerOf);
  assertRidesLeft(ctx, booking, passUses, pointerOf);
  const allocated = allocate(ctx, { booking, held, targets: new Set(reservations.map((r) => r.id)), mode: 'create', pointerOf: (id) => pointers.get(id)! });
  warnings.push(...allocated.warnings);
  return { booking: { ...booking, reservations: allocated.reservations }, warnings };
}
