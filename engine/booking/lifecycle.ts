import type { Context } from '../model/context.ts';
import type { Booking, BookingPartStatus, Fulfillment } from '../model/records.ts';
import { phrase, violation, type ProblemPointer } from '../rules/violation.ts';
import { missingPassengerData } from './contact.ts';
import { encodeTicket } from './barcodes.ts';
import { isExpired, move, movePart } from '../state/booking-state.ts';
import { initialState } from '../state/machine.ts';
import { fulfillmentMachine } from '../../machines/fulfillment.ts';
import { tripOfPart } from '../model/trips.ts';

/**
 * POST /bookings/{id}/fulfillment (spec §3, §4.1 rule 1): confirms a complete provisional booking and
 * issues its fulfillments: one per booking part; the admission's is the ticket (control number and
 * signed Aztec payload), reservations' are included in it. A confirmed booking is engine/aftersales/exchange.ts's
 * (confirmPendingExchange): engine/index.ts sends it there.
 */
export function confirmBooking(ctx: Context, booking: Booking): Booking {
  const missing: ProblemPointer[] = [];
  booking.passengers.forEach((p, i) => {
    for (const field of missingPassengerData(p.detail))
      missing.push({ requestPointer: `#/passengers/${i}/detail/${field}`, detail: phrase('passenger-needs-field', { passenger: p.externalRef, field }) });
  });
  if (!booking.purchaser) missing.push({ requestPointer: '#/purchaser', detail: phrase('booking-needs-purchaser') });
  if (missing.length > 0 && !isExpired(booking, ctx.now)) throw violation('X_BOOKING_INCOMPLETE', {}, missing);

  const moved = move(ctx, booking, { type: 'CONFIRM' }, phrase('operation-confirmation'));
  const now = ctx.now.toISOString();
  const fulfilled = <T extends { id: string; status: BookingPartStatus }>(part: T) => ({ ...movePart(part, 'CONFIRM'), confirmedOn: now });
  if (booking.pass) {
    // Spec §4.2 rule 6: the pass number is the control number; a pass fulfillment never carries a barcode.
    const admission = booking.admissions[0]!;
    const fulfillment = {
      id: ctx.ids.next('fulfillment'),
      status: initialState(fulfillmentMachine),
      createdOn: now,
      bookingPartIds: [admission.id],
      passengerIds: admission.passengerIds,
      controlNumber: ctx.ids.next('pass'),
    };
    return { ...moved, confirmedOn: now, admissions: moved.admissions.map(fulfilled), fulfillments: [fulfillment], confirmedPrice: moved.provisionalPrice };
  }
  return {
    ...moved,
    confirmedOn: now,
    admissions: moved.admissions.map(fulfilled),
    reservations: moved.reservations.map(fulfilled),
    ancillaries: moved.ancillaries.map(fulfilled),
    fulfillments: issueFulfillments(ctx, booking, booking),
    confirmedPrice: moved.provisionalPrice,
  };
}

/**
 * One fulfillment per booking part. An admission's is the ticket: control number `<bookingId>-<n>` and the
 * signed Aztec payload; reservations and ancillaries have their own fulfillments, included in the ticket
 * (spec §4.1 rule 1).
 */
export function issueFulfillments(ctx: Context, booking: Booking, parts: Pick<Booking, 'admissions' | 'reservations' | 'ancillaries'>): Fulfillment[] {
  const now = ctx.now.toISOString();
  // An exchange's new admission travels on the exchange's trip, whose leg ids may repeat the old trip's.
  const legsOf = (part: { id: string; legIds: string[] }) => tripOfPart(booking, part.id).legs.filter((l) => part.legIds.includes(l.id));
  let ticketNo = booking.fulfillments.filter((f) => f.controlNumber).length;
  const fulfillments: Fulfillment[] = [];
  for (const admission of parts.admissions) {
    const holders = booking.passengers.filter((p) => admission.passengerIds.includes(p.id));
    const legs = legsOf(admission);
    const controlNumber = `${booking.id}-${++ticketNo}`;
    fulfillments.push({
      id: ctx.ids.next('fulfillment'),
      status: initialState(fulfillmentMachine),
      createdOn: now,
      bookingPartIds: [admission.id],
      passengerIds: admission.passengerIds,
      controlNumber,
      barcode: encodeTicket(
        {
          v: 1,
          controlNumber,
          bookingId: booking.id,
          passenger: holders.map((p) => `${p.detail?.firstName ?? ''} ${p.detail?.lastName ?? ''}`.trim()).join(', '),
          from: legs[0]?.origin ?? '',
          to: legs[legs.length - 1]?.destination ?? '',
          departure: legs[0]?.departure ?? '',
          product: admission.product.id,
          travelClass: ctx.rules.products.products[admission.product.code]?.travelClass ?? '',
        },
        ctx.ticketKey,
      ),
    });
  }
  for (const part of [...parts.reservations, ...parts.ancillaries]) {
    fulfillments.push({
      id: ctx.ids.next('fulfillment'),
      status: initialState(fulfillmentMachine),
      createdOn: now,
      bookingPartIds: [part.id],
      passengerIds: [part.passengerId],
    });
  }
  return fulfillments;
}
