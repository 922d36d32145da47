import { engine } from '../../helpers/server.ts';
import { bookingRefusal, foundExpired, type Model, type ModelBooking } from '../../helpers/model.ts';

/** Shared by the aftersales commands (the leading `_` keeps this file out of the command list). */

/** A refusal with `code`, at the status rules/errors.yaml gives it. */
export function problem(code: string): { status: number; body: { code: string } } {
  const entry = engine().rules.errors[code];
  if (!entry) throw new Error(`harness: no ${code} in rules/errors.yaml`);
  return { status: entry.status, body: { code } };
}

/**
 * What the booking machine says to `event` (engine/state/booking-state.ts `move`): the refusal, and a
 * provisional booking found past its time limit takes EXPIRE.
 */
export function machineRefusal(m: Model, b: ModelBooking, event: string) {
  const refusal = bookingRefusal(m, b, event);
  return (
    refusal && {
      ...refusal,
      found: () => {
        if (refusal.body.code === 'X_BOOKING_EXPIRED') foundExpired(m, b);
      },
    }
  );
}

export const bookingPath = (b: Readonly<ModelBooking>, rest = '') => `/v3/bookings/\${${b.id}}${rest}`;
