import type { Context } from '../model/context.ts';
import type { Booking, BookedPassenger } from '../model/records.ts';
import { admissionPrices } from '../offers/admission-prices.ts';
import { passengerTypeText, typePassenger } from '../offers/passengers.ts';
import { sum } from '../offers/pricing.ts';
import { parseRequest } from '../rules/validate.ts';
import { phrase, violation } from '../rules/violation.ts';
import { checkPurchaser, readDetail } from './contact.ts';
import { loyaltyHolder, namesFromCards, personalPassHolder, sameName } from './identity.ts';
import { move } from '../state/booking-state.ts';
import { BookingPatch, PassengerPatch, PurchaserPatch } from '../model/osdm/booking-patch-requests.ts';
import { checkPatchedGenders, mapPlaceSelections } from './places.ts';
import type { PlaceSelection } from '../model/osdm/shapes.ts';
import type { CardReference } from '../model/osdm/offer-request.ts';
import { tripOfPart } from '../model/trips.ts';
import { allocate } from '../seats/allocate.ts';
import type { Holding } from '../holdings/place-holdings.ts';

/**
 * PATCH passenger (spec §2.7 rules 3–7, CONTRACT §4b): complete details replace the old ones; the age may
 * change (the booking is repriced); cards may be added or changed, never removed; names bound to a loyalty
 * card or a personal pass cannot change. Only while the booking is provisional (spec §2.7 rule 5).
 */
export function patchPassenger(ctx: Context, booking: Booking, passengerId: string, body: unknown): Booking {
  const moved = move(ctx, booking, { type: 'PATCH_PASSENGER' }, phrase('operation-changing-a-passenger'));
  const index = booking.passengers.findIndex((p) => p.id === passengerId);
  if (index < 0) throw violation('RESOURCE_NOT_FOUND', { resource: phrase('resource-passenger'), id: passengerId });
  const patch = parseRequest(PassengerPatch, body);
  const before = booking.passengers[index]!;
  const missing = (['firstName', 'lastName'] as const).filter((f) => !patch.detail[f]);
  if (missing.length > 0) {
    throw violation(
      '86001',
      { reason: phrase('patch-complete-details') },
      missing.map((f) => ({ requestPointer: `#/detail/${f}`, detail: phrase('required') })),
    );
  }

  const cards = patch.cards ?? before.cards;
  // Spec §2.7 rule 4: cards can be added or changed, not removed. Rule 7: a personal pass is neither removed (86018)
  // nor exchanged for another (86019): the very pass, its number included, stays.
  const personal = (c: CardReference) => c.type === 'TRAVEL_PASS' && ctx.rules.customers.passTypes[c.code]?.personal === true;
  for (const old of before.cards) {
    if (personal(old)) {
      if (cards.some((c) => c.type === old.type && c.code === old.code && c.number === old.number)) continue;
      const exchanged = cards.some((c) => personal(c) && !before.cards.some((b) => b.code === c.code && b.number === c.number));
      throw violation(exchanged ? '86019' : '86018', { code: old.code }, '#/cards');
    }
    if (cards.some((c) => c.type === old.type && c.code === old.code)) continue;
    throw violation('X_CARD_REMOVAL', { code: old.code }, '#/cards');
  }
  const detail = readDetail(ctx.rules, patch.detail, '#/detail')!;
  // Spec §2.7 rules 6–7: a name bound to a card that the passenger already had cannot change.
  if (!sameName(detail, before.detail)) {
    if (personalPassHolder(ctx, before.cards)) throw violation('86017', {}, '#/detail');
    if (loyaltyHolder(ctx, before.cards)) throw violation('86015', {}, '#/detail');
  }
  const named = namesFromCards(ctx, detail, cards, '#/detail');
  const pricing = { age: patch.age ?? before.pricing.age, cards: cards };
  const passenger: BookedPassenger = {
    ...before,
    ...(patch.age !== undefined ? { age: patch.age } : {}),
    ...(named ? { detail: named } : {}),
    cards,
    ...(patch.prmNeeds ? { prmNeeds: patch.prmNeeds } : {}),
    pricing,
  };
  const passengers = booking.passengers.map((p, i) => (i === index ? passenger : p));
  if (patch.age !== undefined) {
    const typed = typePassenger(
      ctx,
      { externalRef: passenger.externalRef, type: 'PERSON', age: pricing.age, cards: pricing.cards },
      index,
      booking.trip.legs[0]!.departure,
    );
    passengers[index] = { ...passenger, type: typed.responseType, pricedAs: { type: typed.responseType, description: passengerTypeText(ctx.rules, typed) } };
  }
  const repriced = patch.age !== undefined && patch.age !== before.pricing.age;
  return repriced ? reprice(ctx, { ...moved, passengers }) : { ...moved, passengers };
}

/** Spec §2.7 rule 4: prices follow the passengers' ages again, family discount included. */
function reprice(ctx: Context, booking: Booking): Booking {
  const departure = booking.trip.legs[0]!.departure;
  const typed = booking.passengers.map((p, i) =>
    typePassenger(ctx, { externalRef: p.externalRef, type: 'PERSON', age: p.pricing.age, cards: p.pricing.cards }, i, departure),
  );
  const prices = admissionPrices(ctx, booking.trip, booking.product.code, booking.product.flexibility, typed, booking.currency);
  const priced = (passengerIds: string[]) => passengerIds.map((id) => prices.get(booking.passengers.find((p) => p.id === id)!.externalRef)!);
  const admissions = booking.admissions.map(({ travelPasses: _, ...a }) => {
    const each = priced(a.passengerIds);
    const passes = each.flatMap((x) => (x.travelPass ? [x.travelPass] : []));
    return {
      ...a,
      price: sum(
        ctx.rules,
        each.map((x) => x.price),
        booking.currency,
        booking.trip.international,
      ),
      ...(passes.length > 0 ? { travelPasses: passes } : {}),
    };
  });
  const provisionalPrice = sum(
    ctx.rules,
    [...admissions, ...booking.reservations, ...booking.ancillaries].map((p) => p.price),
    booking.currency,
    booking.trip.international,
  );
  return { ...booking, admissions, provisionalPrice };
}

/** PATCH purchaser (spec §2.6, §2.7 rule 5): complete details; allowed after confirmation too. */
export function patchPurchaser(ctx: Context, booking: Booking, body: unknown): Booking {
  const moved = move(ctx, booking, { type: 'PATCH_PURCHASER' }, phrase('operation-changing-the-purchaser'));
  const patch = parseRequest(PurchaserPatch, body);
  const detail = readDetail(ctx.rules, patch.detail, '#/detail')!;
  checkPurchaser(detail, '#/detail');
  return { ...moved, purchaser: { ...(patch.externalRef ? { externalRef: patch.externalRef } : {}), detail } };
}

/**
 * PATCH booking (spec §4.1 rule 2, §2.10 rule 1, CONTRACT §4b): place selections while provisional;
 * payment methods appended, never edited or removed (an entry with a known transactionId, or equal to a
 * known one, is not applied); vouchers are not supported yet (501); fulfillment type and media of a travel
 * pass are the service's (spec §4.2 rule 5).
 */
export function patchBooking(ctx: Context, booking: Booking, patch: BookingPatch, held: readonly Holding[] = []): Booking {
  let next = booking;
  if (booking.pass && (patch.requestedFulfillmentType || patch.preferredFulfillmentMedia)) {
    throw violation(
      '86001',
      { reason: phrase('pass-fulfillment-fixed') },
      patch.requestedFulfillmentType ? '#/requestedFulfillmentType' : '#/preferredFulfillmentMedia',
    );
  }
  if (patch.usedPaymentMethods?.length) {
    const voucher = patch.usedPaymentMethods.findIndex((m) => m.type === 'VOUCHER');
    if (voucher >= 0) throw violation('X_NOT_SUPPORTED', { feature: phrase('feature-voucher-payment') }, `#/usedPaymentMethods/${voucher}/type`);
    next = move(ctx, next, { type: 'ADD_PAYMENT' }, phrase('operation-adding-a-payment-method'));
    const known = next.paymentMethods;
    const added = patch.usedPaymentMethods
      .map(({ type, transactionId }) => ({ type, ...(transactionId ? { transactionId } : {}) }))
      .filter((m) => !known.some((k) => (m.transactionId !== undefined ? k.transactionId === m.transactionId : JSON.stringify(k) === JSON.stringify(m))));
    next = { ...next, paymentMethods: [...known, ...added] };
  }
  if (patch.placeSelections) {
    next = move(ctx, next, { type: 'PATCH_PLACES' }, phrase('operation-changing-places'));
    next = { ...next, reservations: applyPlaceSelections(ctx, next, patch.placeSelections, held) };
  }
  return next;
}

/**
 * Spec §2.10 rules 1, 3: keeps each place selection on the reservation it names and places it again; a place
 * that is not available is 86035 and nothing changes (the current place is kept). A reservation the booking does
 * not have is 86001, a passenger it cannot map 86029 (spec §7): never ignored.
 */
function applyPlaceSelections(ctx: Context, booking: Booking, selections: PlaceSelection[], held: readonly Holding[]): Booking['reservations'] {
  const parsed = mapPlaceSelections(
    selections,
    {
      owner: 'booking',
      reservations: booking.reservations.map((r) => ({ id: r.id, tripId: tripOfPart(booking, r.id).id, legId: r.legId, passengerId: r.passengerId })),
      // Spec §2.7 rule 2: after booking, passengers are named by their id.
      idOf: (id) => (booking.passengers.some((p) => p.id === id) ? id : undefined),
      refOf: (id) => id,
    },
    '#/placeSelections',
  );
  checkPatchedGenders(ctx, booking, parsed, '#/placeSelections');
  const indexOf = (id: string) => parsed.findIndex((s) => s.reservationId === id);
  const reservations = booking.reservations.map((r) => {
    const selection = parsed[indexOf(r.id)];
    return selection ? { ...r, placeSelection: selection } : r;
  });
  const targets = new Set(parsed.map((s) => s.reservationId));
  return allocate(ctx, { booking: { ...booking, reservations }, held, targets, mode: 'patch', pointerOf: (id) => `#/placeSelections/${indexOf(id)}` })
    .reservations;
}
