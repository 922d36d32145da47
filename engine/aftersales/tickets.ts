import type { Booking, BookingPartStatus, Fulfillment, Money } from '../model/records.ts';
import { phrase, violation } from '../rules/violation.ts';
import { can, step } from '../state/machine.ts';
import { movePart } from '../state/booking-state.ts';
import type { BookingPartEvent } from '../../machines/booking-part.ts';
import { fulfillmentMachine, type FulfillmentEvent } from '../../machines/fulfillment.ts';

/**
 * A ticket is what one admission covers: its passengers' admission, reservations and ancillaries, each with
 * its own fulfillment (spec §4.1 rules 1, 6). A refund or release must list every fulfillment of a ticket.
 */
interface Part {
  id: string;
  kind: 'admission' | 'reservation' | 'ancillary';
  passengerIds: string[];
  price: Money;
  status: BookingPartStatus;
  legIds: string[];
}

function partsOf(booking: Booking): Part[] {
  return [
    ...booking.admissions.map((a) => ({
      id: a.id,
      kind: 'admission' as const,
      passengerIds: a.passengerIds,
      price: a.price,
      status: a.status,
      legIds: a.legIds,
    })),
    ...booking.reservations.map((r) => ({
      id: r.id,
      kind: 'reservation' as const,
      passengerIds: [r.passengerId],
      price: r.price,
      status: r.status,
      legIds: [r.legId],
    })),
    ...booking.ancillaries.map((x) => ({
      id: x.id,
      kind: 'ancillary' as const,
      passengerIds: [x.passengerId],
      price: x.price,
      status: x.status,
      legIds: [x.legId],
    })),
  ];
}

export interface Ticket {
  admissionId: string;
  passengerIds: string[];
  parts: Part[];
  fulfillments: Fulfillment[];
}

/**
 * The exchange operation that made a part, or undefined for the booking's own parts. After an exchange a passenger
 * has parts of two journeys; a ticket holds those of its own journey only, so each part is priced once in a refund
 * (spec §3 rule 1, §4.1 rule 7).
 */
function journeyOf(booking: Booking): (partId: string) => string | undefined {
  const made = new Map<string, string>();
  for (const op of booking.exchangeOperations ?? []) for (const p of [...op.admissions, ...op.reservations, ...op.ancillaries]) made.set(p.id, op.id);
  return (partId) => made.get(partId);
}

export function ticketsOf(booking: Booking): Ticket[] {
  const parts = partsOf(booking);
  const journey = journeyOf(booking);
  return booking.admissions.map((a) => {
    const own = parts.filter((p) => journey(p.id) === journey(a.id) && p.passengerIds.some((id) => a.passengerIds.includes(id)));
    const ids = new Set(own.map((p) => p.id));
    return {
      admissionId: a.id,
      passengerIds: a.passengerIds,
      parts: own,
      fulfillments: booking.fulfillments.filter((f) => f.bookingPartIds.some((id) => ids.has(id))),
    };
  });
}

/**
 * Moves parts by the part machine (spec §3: CANCELLED, RELEASED, EXCHANGE_ONGOING…) and, with `fulfillmentEvent`, their
 * fulfillments by the fulfillment machine (REFUNDED, RELEASED, EXCHANGED). The operation listed only fulfillments the
 * machine lets take the event (`selectTickets`, `assertStillLive`), so a refusal here is a bug.
 */
export function withStatus(
  booking: Booking,
  partIds: ReadonlySet<string>,
  partEvent: BookingPartEvent['type'],
  fulfillmentEvent?: FulfillmentEvent['type'],
  extra: (id: string) => Record<string, unknown> = () => ({}),
): Booking {
  const set = <T extends { id: string; status: BookingPartStatus }>(p: T): T => (partIds.has(p.id) ? { ...movePart(p, partEvent), ...extra(p.id) } : p);
  const moved = (f: Fulfillment): Fulfillment => {
    const status = step(fulfillmentMachine, f.status, { type: fulfillmentEvent! });
    if (!status) throw new Error(`fulfillment ${f.id} cannot take ${fulfillmentEvent} in ${f.status}`);
    return { ...f, status };
  };
  return {
    ...booking,
    admissions: booking.admissions.map(set),
    reservations: booking.reservations.map(set),
    ancillaries: booking.ancillaries.map(set),
    fulfillments: fulfillmentEvent ? booking.fulfillments.map((f) => (f.bookingPartIds.some((id) => partIds.has(id)) ? moved(f) : f)) : booking.fulfillments,
  };
}

/** An offer made earlier is confirmed only while its fulfillments may still take `event` (never refund twice). */
export function assertStillLive(booking: Booking, fulfillmentIds: string[], event: FulfillmentEvent['type']): void {
  const changed = booking.fulfillments.find((f) => fulfillmentIds.includes(f.id) && !can(fulfillmentMachine, f.status, { type: event }));
  if (changed)
    throw violation('X_BOOKING_STATE', {
      operation: phrase('operation-confirming-this-offer'),
      state: phrase('state-of-fulfillment', { state: changed.status, id: changed.id }),
    });
}

/** The tickets a request touches, checking each fulfillment exists and that the fulfillment machine lets it take `event`. */
export function selectTickets(booking: Booking, fulfillmentIds: string[], event: FulfillmentEvent['type']) {
  fulfillmentIds.forEach((id, i) => {
    const f = booking.fulfillments.find((x) => x.id === id);
    if (!f) throw violation('RESOURCE_NOT_FOUND', { resource: phrase('resource-fulfillment'), id }, `#/fulfillmentIds/${i}`);
    if (!can(fulfillmentMachine, f.status, { type: event }))
      throw violation('X_BOOKING_STATE', { operation: phrase('operation-this-for-fulfillment', { id }), state: f.status }, `#/fulfillmentIds/${i}`);
  });
  const listed = new Set(fulfillmentIds);
  const tickets = ticketsOf(booking).filter((t) => t.fulfillments.some((f) => listed.has(f.id)));
  const partIds = new Set(
    tickets.flatMap((t) => t.parts.filter((p) => booking.fulfillments.some((f) => listed.has(f.id) && f.bookingPartIds.includes(p.id))).map((p) => p.id)),
  );
  const released = booking.fulfillments.some((f) => listed.has(f.id) && f.status === 'RELEASED');
  return { tickets, partIds, released };
}
