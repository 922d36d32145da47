import type { Booking, Fulfillment, Money } from '../model/records.ts';

/**
 * A ticket is what one admission covers: its passengers' admission, reservations and ancillaries, each with
 * its own fulfillment (spec §4.1 rules 1, 6). A refund or release must list every fulfillment of a ticket.
 */
export interface Part {
  id: string;
  kind: 'admission' | 'reservation' | 'ancillary';
  passengerIds: string[];
  price: Money;
  status: string;
  legIds: string[];
}

function partsOf(booking: Booking): Part[] {
  return [
    ...booking.admissions.map((a) => ({ id: a.id, kind: 'admission' as const, passengerIds: a.passengerIds, price: a.price, status: a.status, legIds: a.legIds })),
    ...booking.reservations.map((r) => ({ id: r.id, kind: 'reservation' as const, passengerIds: [r.passengerId], price: r.price, status: r.status, legIds: [r.legId] })),
    ...booking.ancillaries.map((x) => ({ id: x.id, kind: 'ancillary' as const, passengerIds: [x.passengerId], price: x.price, status: x.status, legIds: [x.legId] })),
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
    return { admissionId: a.id, passengerIds: a.passengerIds, parts: own, fulfillments: booking.fulfillments.filter((f) => f.bookingPartIds.some((id) => ids.has(id))) };
  });
}

/** Sets a status on parts and fulfillments (spec §3: CANCELLED/REFUNDED, RELEASED, EXCHANGE_ONGOING…). */
export function withStatus(booking: Booking, partIds: ReadonlySet<string>, partStatus: Booking['admissions'][number]['status'], fulfillmentStatus?: Fulfillment['status'], extra: (id: string) => Record<string, unknown> = () => ({})): Booking {
  const set = <T extends { id: string }>(p: T): T => (partIds.has(p.id) ? { ...p, status: partStatus, ...extra(p.id) } : p);
  return {
    ...booking,
    admissions: booking.admissions.map(set),
    reservations: booking.reservations.map(set),
    ancillaries: booking.ancillaries.map(set),
    fulfillments: fulfillmentStatus
      ? booking.fulfillments.map((f) => (f.bookingPartIds.some((id) => partIds.has(id)) ? { ...f, status: fulfillmentStatus } : f))
      : booking.fulfillments,
  };
}
