import type { Warning } from '../model/records.ts';
import type { Context } from '../model/context.ts';
import type { Trip } from '../model/records.ts';
import { plus } from '../rules/time.ts';

/**
 * Spec §2.3: offers are empty when a train is cancelled (rules/timetable.yaml) or not yet released
 * (departing beyond the booking horizon of rules/limits.yaml), and a train that has left sells nothing.
 * The empty list stays (spec §2.3); the reason is the warning returned here (CONTRACT §4b shape), texts in
 * rules/errors.yaml `warnings:`.
 */
export function whyNotReleased(ctx: Context, trip: Trip): Warning | undefined {
  const horizon = plus(ctx.now, ctx.rules.limits.bookingHorizon);
  for (const leg of trip.legs) {
    const departure = new Date(leg.departure).getTime();
    const train = { vehicleNumber: leg.vehicleNumber, departure: leg.departure };
    if (departure <= ctx.now.getTime()) return { code: 'X_TRAIN_DEPARTED', params: train };
    if (departure > horizon.getTime()) return { code: 'X_TRAIN_NOT_RELEASED', params: { ...train, releasedUntil: horizon.toISOString() } };
    // A cancellation names the train by its operating day (rules/timetable.yaml).
    const date = ctx.rules.calendar.dayOf(leg.departure);
    const cancelled = ctx.rules.timetable.cancellations.find((c) => c.vehicleNumber === leg.vehicleNumber && c.date === date);
    if (cancelled) return { code: 'X_TRAIN_CANCELLED', params: { ...train, date } };
  }
  return undefined;
}
