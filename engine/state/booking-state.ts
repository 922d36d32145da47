import { bookingMachine, type BookingEvent, type BookingState } from '../../machines/booking.ts';
import type { Context } from '../model/context.ts';
import type { Booking, BookingPartStatus } from '../model/records.ts';
import { violation, type Phrase } from '../rules/violation.ts';
import { can, step } from './machine.ts';

/**
 * Booking states that live until `confirmationTimeLimit` unless confirmed: those the booking machine lets EXPIRE
 * (PREBOOKED, ON_HOLD).
 */
export const PROVISIONAL_STATES: ReadonlySet<BookingState> = new Set(
  (Object.keys(bookingMachine.root.states) as BookingState[]).filter((state) => can(bookingMachine, state, { type: 'EXPIRE' })),
);
/** Parts that no longer travel: refunded (CANCELLED), released, exchanged for another; they hold no place or pass. */
export const ENDED_PART_STATUSES: ReadonlySet<BookingPartStatus> = new Set(['CANCELLED', 'RELEASED', 'EXCHANGED']);

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
