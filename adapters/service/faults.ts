import { trainKey, type Booking, type BookingResponse, type FulfillmentResponse, type Money, type TrainHoldings, type Leg } from '../../engine/index.ts';
import type { PlaceSelection } from '../../engine/model/osdm/index.ts';

/**
 * Faults on demand (a sandbox only; the request's X-Sandbox-Fault header, adapters/http/faults.ts) that happen
 * inside an operation, as the operator's real API would show them. The engine never hears of them: the service
 * changes what it gives the engine (a place held by somebody else), what it stores (a new price, a roll-back) or
 * what it shows (fulfillments not issued yet). `delay` and `unavailable` happen before any operation (HTTP).
 */
export interface InjectedFaults {
  /** Somebody else takes every exact place the request selects, just before allocation (spec §2.10 rule 3). */
  placeTaken?: true;
  /** The price moves by this many percent before the confirmation goes through. */
  priceChanged?: { percent: number };
  /** The confirmed booking's tickets are issued only this many seconds (sandbox clock) later (spec §4.1 rule 1). */
  fulfillmentPending?: { seconds: number };
  /** Just after confirmation, the operator rolls the booking back with overrule code TECHNICAL_FAILURE (spec §4.1 rule 6). */
  technicalFailure?: true;
}

/** Whose place-taken holdings they are: no booking of the store has this id. */
const SOMEBODY_ELSE = 'sandbox-fault:somebody-else';

/**
 * place-taken: the exact places (`places`) of the selections, each held on its reservation's leg by somebody else,
 * as index entries of the store (Store.holdingsOnTrain). Selections by properties or near a reference place name no
 * exact place: nothing is taken for them. `legOf` finds the leg of a reservation id of the offer or booking.
 */
export function placesTakenBySomebodyElse(selections: readonly PlaceSelection[], legOf: (reservationId: string) => Leg | undefined): TrainHoldings[] {
  const byTrain = new Map<string, TrainHoldings>();
  for (const s of selections) {
    const leg = legOf(s.reservationId);
    if (!leg) continue; // the engine refuses the selection (86001) on its own
    const train = trainKey(leg);
    const entry = byTrain.get(train) ?? { train, bookingId: SOMEBODY_ELSE, holdings: [] };
    for (const p of s.places ?? []) {
      entry.holdings.push({
        train,
        coachNumber: p.coachNumber,
        placeNumber: p.placeNumber,
        private: false,
        from: Date.parse(leg.departure),
        to: Date.parse(leg.arrival),
        bookingId: SOMEBODY_ELSE,
        reservationId: SOMEBODY_ELSE,
        passengerId: SOMEBODY_ELSE,
      });
    }
    byTrain.set(train, entry);
  }
  return [...byTrain.values()].filter((e) => e.holdings.length > 0);
}

type Vat = NonNullable<Money['vats']>[number];

/**
 * The VAT of a sum of prices: per rate (country, percentage, scope), the sum of the parts' VAT at that rate, as the
 * engine sums a booking's VAT (engine/offers/pricing.ts `sum`, which knows the one rate of rules/tariff.yaml). The
 * rates `total` names come first, in its order, and stay even where no part carries them.
 */
function vatsOf(total: readonly Vat[], prices: readonly Money[]): Vat[] {
  const rate = (v: Vat) => `${v.countryCode}|${v.percentage}|${v.scope}`;
  const byRate = new Map<string, Vat>(total.map((v) => [rate(v), { ...v, amount: 0 }]));
  for (const v of prices.flatMap((p) => p.vats ?? [])) {
    const seen = byRate.get(rate(v));
    byRate.set(rate(v), { ...v, amount: (seen?.amount ?? 0) + v.amount });
  }
  return [...byRate.values()];
}

/**
 * price-changed: the provisional booking at a price moved by `percent`: each admission and ancillary (reservations
 * cost nothing, spec §2.6 rule 2), their VAT with them, and the provisional price their sum, VAT per rate, so a
 * refund later pays back what the confirmation charged.
 */
export function withPriceChanged(booking: Booking, percent: number): Booking {
  const move = (n: number) => Math.round((n * (100 + percent)) / 100);
  const moved = (m: Money): Money => ({ ...m, amount: move(m.amount), ...(m.vats ? { vats: m.vats.map((v) => ({ ...v, amount: move(v.amount) })) } : {}) });
  const admissions = booking.admissions.map((a) => ({ ...a, price: moved(a.price) }));
  const ancillaries = booking.ancillaries.map((a) => ({ ...a, price: moved(a.price) }));
  const prices = [...admissions, ...booking.reservations, ...ancillaries].map((p) => p.price);
  const total = booking.provisionalPrice;
  const provisionalPrice: Money = {
    ...total,
    amount: prices.reduce((n, p) => n + p.amount, 0),
    ...(total.vats ? { vats: vatsOf(total.vats, prices) } : {}),
  };
  return { ...booking, admissions, ancillaries, provisionalPrice };
}

/**
 * How many bookings a server process remembers as pending at most: a pure memory guard, not an operator's limit
 * (the operator's API has none, and no answer a scenario or an integrator's test looks at depends on it). It only
 * bounds what a client flooding a shared sandbox with the fault can make the process hold; past it the oldest
 * pending booking shows its tickets early, as after a restart. So, like the engine's cache of durations
 * (engine/rules/time.ts), it is not in rules/limits.yaml: there is nothing for an analyst to choose.
 */
const PENDING_REMEMBERED = 10_000;

/**
 * fulfillment-pending: which bookings' tickets are not issued yet, and until when (sandbox clock). Kept by the
 * server process, not in the store: processes sharing a database do not see each other's pending fulfillments,
 * and a restart issues them all.
 */
export function pendingFulfillments() {
  const until = new Map<string, number>();
  return {
    hold(bookingId: string, till: Date) {
      until.delete(bookingId);
      until.set(bookingId, till.getTime());
      if (until.size > PENDING_REMEMBERED) until.delete(until.keys().next().value!);
    },
    isPending(bookingId: string, now: Date): boolean {
      const till = until.get(bookingId);
      if (till === undefined) return false;
      if (now.getTime() < till) return true;
      until.delete(bookingId);
      return false;
    },
  };
}

/** OSDM's status of a booking part and a fulfillment that is confirmed but not yet fulfilled (OSDM 3.4 state flow). */
const CONFIRMED = 'CONFIRMED';

/**
 * A rendered BookingResponse as GET /bookings/{id} shows it while the tickets are pending: the parts confirmed are
 * CONFIRMED, not FULFILLED, and so are their fulfillments, which have no control number yet (spec §4.1 rule 1:
 * fulfillment is asynchronous; poll).
 */
export function asPendingBooking(body: BookingResponse): BookingResponse {
  const part = <T extends { status: string }>(p: T): T => (p.status === 'FULFILLED' ? { ...p, status: CONFIRMED } : p);
  return {
    ...body,
    booking: {
      ...body.booking,
      bookedOffers: body.booking.bookedOffers.map((o) => ({
        ...o,
        admissions: o.admissions.map(part),
        reservations: o.reservations.map(part),
        ancillaries: o.ancillaries.map(part),
      })),
      fulfillments: body.booking.fulfillments.map(asPendingFulfillmentOf),
    },
  };
}

/** A rendered FulfillmentResponse while pending: CONFIRMED, no ticket yet (no control number, no barcode). */
export function asPendingFulfillment(body: FulfillmentResponse): FulfillmentResponse {
  const f = asPendingFulfillmentOf(body.fulfillment);
  return { ...body, fulfillment: { ...f, contentComplete: false, fulfillmentParts: [] } };
}

function asPendingFulfillmentOf<F extends { status: string; controlNumber?: string }>(f: F): F {
  if (f.status !== 'FULFILLED') return f;
  const { controlNumber: _, ...rest } = f;
  return { ...rest, status: CONFIRMED } as F;
}
