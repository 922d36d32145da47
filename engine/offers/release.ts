import type { Context } from '../context.ts';
import type { Trip } from '../model.ts';
import { plus } from '../time.ts';

/**
 * Spec §2.3: offers are empty when a train is cancelled (rules/timetable.yaml) or not yet released
 * (departing beyond the booking horizon of rules/limits.yaml), and a train that has left sells nothing.
 */
export function isReleased(ctx: Context, trip: Trip): boolean {
  const horizon = plus(ctx.now, ctx.rules.limits.bookingHorizon).getTime();
  return trip.legs.every((leg) => {
    const departure = new Date(leg.departure).getTime();
    if (departure <= ctx.now.getTime() || departure > horizon) return false;
    // The service date is the local date of departure, as the timetable shows it.
    const date = leg.departure.slice(0, 10);
    return !ctx.rules.timetable.cancellations.some((c) => c.vehicleNumber === leg.vehicleNumber && c.date === date);
  });
}
