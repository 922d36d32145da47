import type { DecisionTrace } from '../../engine/index.ts';
import { bookingMachine } from '../../machines/booking.ts';
import type { HttpExchange, HttpResult } from './targets.ts';

/**
 * What one scenario's requests exercised, as seen from outside: the requests sent, the decision rows
 * their traces name, the error and warning codes answered, and the booking states the responses show.
 * Recorded per scenario (also in a worker), merged into the coverage matrix afterwards.
 */
export interface Exercised {
  requests: Array<{ method: string; path: string; status: number }>;
  /** `decision#row` of every row that fired. */
  rows: string[];
  codes: string[];
  warnings: string[];
  /** Each booking's state in the order responses showed it (machines/booking.ts states). */
  bookingStates: Array<{ booking: string; state: string }>;
}

export const nothingExercised = (): Exercised => ({ requests: [], rows: [], codes: [], warnings: [], bookingStates: [] });

const addOnce = (list: string[], value: string) => {
  if (!list.includes(value)) list.push(value);
};

export function recordExchange(into: Exercised, x: HttpExchange, res: HttpResult, traces: readonly DecisionTrace[]): void {
  const path = x.path.split('?')[0]!;
  into.requests.push({ method: x.method.toUpperCase(), path, status: res.status });
  for (const t of traces) for (const f of t.fired) addOnce(into.rows, `${t.decision}#${f.row}`);
  const body = res.body as { code?: unknown; warnings?: { warnings?: Array<{ code?: unknown }> } } | undefined;
  if (res.status >= 400 && typeof body?.code === 'string') addOnce(into.codes, body.code);
  for (const w of body?.warnings?.warnings ?? []) if (typeof w.code === 'string') addOnce(into.warnings, w.code);
  const seen = bookingState(path, res);
  if (seen) into.bookingStates.push(seen);
}

const MACHINE_STATES = new Set(Object.keys(bookingMachine.root.states));

/**
 * The booking state a response shows: a rendered booking whose admissions all have one status that is a
 * state of the booking machine (PREBOOKED, FULFILLED, …), or an X_BOOKING_EXPIRED answer about the
 * booking in the path (an expired booking still renders as PREBOOKED).
 */
function bookingState(path: string, res: HttpResult): { booking: string; state: string } | undefined {
  const body = res.body as { code?: unknown; booking?: { id?: unknown; bookedOffers?: Array<{ admissions?: Array<{ status?: unknown }> }> } } | undefined;
  if (body?.code === 'X_BOOKING_EXPIRED') {
    const id = /\/bookings\/([^/]+)/.exec(path)?.[1];
    return id ? { booking: decodeURIComponent(id), state: 'EXPIRED' } : undefined;
  }
  const booking = body?.booking;
  if (res.status >= 300 || typeof booking?.id !== 'string') return undefined;
  const statuses = new Set((booking.bookedOffers ?? []).flatMap((o) => (o.admissions ?? []).map((a) => a.status)));
  const [only] = statuses;
  return statuses.size === 1 && MACHINE_STATES.has(String(only)) ? { booking: booking.id, state: String(only) } : undefined;
}
