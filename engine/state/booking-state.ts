import { bookingMachine, type BookingEvent } from '../../machines/booking.ts';
import type { Context } from '../model/context.ts';
import type { Booking } from '../model/records.ts';
import { violation, type Phrase } from '../rules/violation.ts';
import { step } from './machine.ts';

/** Booking states that live until `confirmationTimeLimit` unless confirmed (machines/booking.ts). */
export const PROVISIONAL_STATES: ReadonlySet<string> = new Set(['PREBOOKED', 'ON_HOLD']);
/** Parts that no longer travel: refunded (CANCELLED), released, exchanged for another; they hold no place or pass. */
export const ENDED_PART_STATUSES: ReadonlySet<string> = new Set(['CANCELLED', 'RELEASED', 'EXCHANGED']);

/** A provisional booking whose time limit has passed is expired (spec §3, §8), whether or not anyone looked. */
export function isExpired(booking: Booking, now: Date): boolean {
  const provisional = PROVISIONAL_STATES.has(booking.machine.value);
  return booking.machine.value === 'EXPIRED' || (provisional && now.getTime() >= new Date(booking.confirmationTimeLimit).getTime());
}

/** Moves the booking machine, refusing with X_BOOKING_STATE what the machine does not allow. */
export function move(ctx: Context, booking: Booking, event: BookingEvent, operation: Phrase): Booking {
  if (isExpired(booking, ctx.now)) throw violation('X_BOOKING_EXPIRED', { id: booking.id, until: booking.confirmationTimeLimit });
  const next = step(bookingMachine, booking.machine.value, event);
  if (!next) throw violation('X_BOOKING_STATE', { operation, state: booking.machine.value });
  return { ...booking, machine: { value: next } };
}
