import type { Booking, SoldPass } from '../model/records.ts';
import { isValidFulfillment } from '../state/aftersales-state.ts';

/** The index keys a sold pass is found by. */
export const soldPassKey = {
  number: (number: string) => `number:${number}`,
  holder: (email: string) => `holder:${email.trim().toLowerCase()}`,
};

/** What a pass purchase says about its pass once confirmed; nothing for another booking, or once refunded. */
function soldPassOf(booking: Booking): SoldPass | undefined {
  const fulfillment = booking.fulfillments[0];
  if (!booking.pass?.lastDay || !fulfillment?.controlNumber || !isValidFulfillment(fulfillment.status)) return undefined;
  const { pass } = booking;
  return {
    bookingId: booking.id,
    cardNumber: fulfillment.controlNumber,
    cardType: pass.passType,
    // A pass sold before bookings kept its first day: its validFrom's written date, as it was read then.
    validFrom: pass.firstDay ?? pass.validFrom.slice(0, 10),
    validTo: pass.lastDay!,
    ...(pass.places ? { origin: pass.places[0], destination: pass.places[1] } : {}),
    ...(pass.rides !== undefined ? { ridesLeft: pass.rides } : {}),
    ...(pass.holder ? { holder: pass.holder } : {}),
  };
}

/** The sold pass's index entries, `[key, pass]`: by number and, for a personal pass, by holder. */
export function soldPassEntries(booking: Booking): Array<[string, SoldPass]> {
  const sold = soldPassOf(booking);
  if (!sold) return [];
  return [[soldPassKey.number(sold.cardNumber), sold], ...(sold.holder ? [[soldPassKey.holder(sold.holder), sold] as [string, SoldPass]] : [])];
}

/** Every key a booking's sold pass was ever found by, so a store can drop the entries of a refunded pass. */
export function soldPassKeysOf(booking: Booking): string[] {
  const number = booking.pass ? booking.fulfillments[0]?.controlNumber : undefined;
  if (!number) return [];
  return [soldPassKey.number(number), ...(booking.pass!.holder ? [soldPassKey.holder(booking.pass!.holder)] : [])];
}
