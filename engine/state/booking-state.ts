import { bookingMachine, type BookingEvent, type BookingState } from '../../machines/booking.ts';
import { bookingPartMachine, type BookingPartEvent } from '../../machines/booking-part.ts';
import type { Context } from '../model/context.ts';
import type { Booking, BookingPartStatus } from '../model/records.ts';
import { violation, type Phrase } from '../rules/violation.ts';
import { can, hasTag, step } from './machine.ts';

/**
 * Booking states that live until `confirmationTimeLimit` unless confirmed: those the booking machine lets EXPIRE
 * (PREBOOKED, ON_HOLD).
 */
export const PROVISIONAL_STATES: ReadonlySet<BookingState> = new Set(
  (Object.keys(bookingMachine.root.states) as BookingState[]).filter((state) => can(bookingMachine, state, { type: 'EXPIRE' })),
);
/**
 * Parts that no longer travel: refunded (CANCELLED), released, exchanged for another; they hold no place or pass. The
 * part machine tags them `ended`.
 */
export const ENDED_PART_STATUSES: ReadonlySet<BookingPartStatus> = new Set(
  (Object.keys(bookingPartMachine.root.states) as BookingPartStatus[]).filter((status) => hasTag(bookingPartMachine, status, 'ended')),
);

/**
 * Moves a booking part by its machine (machines/booking-part.ts). A part's status follows a transition another
 * machine already allowed (the booking's, an offer's, a fulfillment's, an exchange operation's), so a refusal here is a bug.
 */
export function movePart<P extends { id: string; status: BookingPartStatus }>(part: P, event: BookingPartEvent['type']): P {
  const status = step(bookingPartMachine, part.status, { type: event });
  if (!status) throw new Error(`booking part ${part.id} cannot take ${event} in ${part.status}`);
  return { ...part, status };
}

/** Confirmed, and something of it still travels (FULFILLED; a cancelled booking is not): the booking machine's tag. */
export const isConfirmed = (state: BookingState): boolean => hasTag(bookingMachine, state, 'confirmed');

/** Stored as expired: the state the machine's EXPIRE leads to. */
export const isStoredExpired = (state: BookingState): boolean => hasTag(bookingMachine, state, 'expired');

/** A part that an exchange operation would replace, while the operation is pending (EXCHANGE_ONGOING). */
export const isBeingExchanged = (status: BookingPartStatus): boolean => can(bookingPartMachine, status, { type: 'EXCHANGE' });

/**
 * A provisional booking whose time limit has passed is expired (spec §3, §8), whether or not anyone looked: the
 * machine's EXPIRE is taken in thought, never stored, because reading a booking never writes it (docs/architecture.md).
 */
export function isExpired(booking: Booking, now: Date): boolean {
  return PROVISIONAL_STATES.has(booking.machine.value) && now.getTime() >= new Date(booking.confirmationTimeLimit).getTime();
}

/** Moves the booking machine, refusing with X_BOOKING_STATE what the machine does not allow. */
export function move(ctx: Context, booking: Booking, event: BookingEvent, operation: Phrase): Booking {
  if (isExpired(booking, ctx.now)) throw violation('X_BOOKING_EXPIRED', { id: booking.id, until: booking.confirmationTimeLimit });
  const next = step(bookingMachine, booking.machine.value, event);
  if (!next) throw violation('X_BOOKING_STATE', { operation, state: booking.machine.value });
  return { ...booking, machine: { value: next } };
}
