import type { Context } from '../model/context.ts';
import type { Booking } from '../model/records.ts';
import { violation } from '../rules/violation.ts';
import { overlaps } from '../holdings/place-holdings.ts';
import { passUsesOf, ridesTaken, type PassUse } from '../holdings/pass-uses.ts';
import { ENDED_PART_STATUSES, isBeingExchanged } from '../state/booking-state.ts';
import { findPass } from '../offers/travel-passes.ts';
import { isPendingOperation } from '../state/aftersales-state.ts';

/**
 * Refuses a booking whose admissions use a pass another booking uses over an overlapping journey at `now`
 * (X_TRAVEL_PASS_IN_USE); `others`: the uses of the booking's passes, as the store has them.
 */
export function assertPassesFree(ctx: Context, booking: Booking, others: readonly PassUse[], pointerOf: (passengerId: string) => string): void {
  const now = ctx.now.getTime();
  const live = others.filter((u) => u.bookingId !== booking.id && (u.until === undefined || now < Date.parse(u.until)));
  for (const mine of passUsesOf(booking)) {
    if (!live.some((u) => u.pass === mine.pass && overlaps(u, mine))) continue;
    const admission = [...booking.admissions, ...(booking.exchangeOperations ?? []).flatMap((o) => o.admissions)].find((a) =>
      a.travelPasses?.includes(mine.pass),
    )!;
    throw violation('X_TRAVEL_PASS_IN_USE', { pass: mine.pass }, pointerOf(admission.passengerIds[0]!));
  }
}

/**
 * Refuses a booking whose admissions would take more rides of a multi-ride pass than it has left
 * (X_TRAVEL_PASS_USED_UP): those `others` hold or confirmed, and this booking's own. An admission being exchanged
 * gives its ride to the new journey, so it is not counted beside it.
 */
export function assertRidesLeft(ctx: Context, booking: Booking, others: readonly PassUse[], pointerOf: (passengerId: string) => string): void {
  const taken = ridesTaken(
    others.filter((u) => u.bookingId !== booking.id),
    ctx.now,
  );
  const live = [
    ...booking.admissions.filter((a) => !ENDED_PART_STATUSES.has(a.status) && !isBeingExchanged(a.status)),
    ...(booking.exchangeOperations ?? []).filter((o) => isPendingOperation(o.state)).flatMap((o) => o.admissions),
  ];
  for (const pass of new Set(live.flatMap((a) => a.travelPasses ?? []))) {
    const start = findPass(ctx, pass)?.pass.ridesLeft;
    const mine = live.filter((a) => a.travelPasses?.includes(pass));
    if (start === undefined || taken(pass) + mine.length <= start) continue;
    throw violation('X_TRAVEL_PASS_USED_UP', { pass }, pointerOf(mine[0]!.passengerIds[0]!));
  }
}
