import { getStateNodes } from 'xstate/graph';
import { bookingMachine, bookingStateAt, CONFIRMED_STATES, iso, lifetimes, ref, type Model, type ModelBooking } from './model.ts';
import type { System } from './model-system.ts';

/**
 * What must hold of every booking after every command, whatever the command was (spec §3, §2.6):
 * its parts and fulfillments are in states its machine state allows, its money adds up, its tickets
 * never change once issued, its time limit is the one the model predicts.
 */

/**
 * The part and fulfillment states each booking machine state allows (spec §3). A state of
 * machines/booking.ts missing here fails the run, naming it: say here what its parts may be.
 */
const ALLOWED: Record<string, { parts: readonly string[]; fulfillments: readonly string[] }> = {
  PREBOOKED: { parts: ['PREBOOKED'], fulfillments: [] },
  // Put on hold (spec §4.1 rule 11): still provisional, its parts ON_HOLD.
  ON_HOLD: { parts: ['ON_HOLD'], fulfillments: [] },
  // Confirmed, then maybe partly refunded, released or exchanged (spec §3): an exchange pre-books new parts beside the originals.
  FULFILLED: {
    parts: ['FULFILLED', 'CANCELLED', 'RELEASED', 'EXCHANGE_ONGOING', 'EXCHANGED'],
    fulfillments: ['FULFILLED', 'REFUNDED', 'RELEASED', 'EXCHANGED'],
  },
  // Every admission refunded (or rolled back by cleanup): nothing left to travel on.
  CANCELLED: { parts: ['CANCELLED', 'EXCHANGED'], fulfillments: ['REFUNDED', 'EXCHANGED'] },
  // An expired provisional booking keeps what it had: parts PREBOOKED (ON_HOLD if it was on hold), no fulfillment.
  EXPIRED: { parts: ['PREBOOKED', 'ON_HOLD'], fulfillments: [] },
};

const machineStates = new Set(
  getStateNodes(bookingMachine.root)
    .filter((n) => n.type === 'atomic' || n.type === 'final')
    .map((n) => n.path.join('.')),
);

/** What a GET of the booking must answer, as a scenario expectation (written out with a counterexample). */
function bookingExpectation(m: Readonly<Model>, b: Readonly<ModelBooking>): { status: number; body: unknown } {
  const state = bookingStateAt(m, b);
  const confirmed = CONFIRMED_STATES.includes(state);
  return {
    status: 200,
    body: {
      booking: {
        id: ref(b.id),
        ...(confirmed ? {} : { confirmationTimeLimit: iso(b.timeLimit) }),
        confirmedPrice: { amount: confirmed ? ref(b.price) : 0 },
        provisionalPrice: { amount: ref(b.price) },
        // Once known, a confirmed booking's fulfillments are these, whatever happened since (spec §3, CONTRACT §4b).
        fulfillments: !confirmed ? [] : b.fulfillments.length === 0 ? { $length: { min: 1 } } : b.fulfillments.map((f) => ({ id: ref(f) })),
      },
    },
  };
}

type Money = { currency: string; amount: number; scale: number; vats?: Array<{ countryCode: string; percentage: number; amount: number }> };
type Part = { id: string; status: string; price: Money };

/** The invariants a scenario matcher cannot say (sums, every part covered once); each broken one is a message. */
export function bookingProblems(m: Readonly<Model>, b: Readonly<ModelBooking>, booking: any): string[] {
  const out: string[] = [];
  const state = bookingStateAt(m, b);
  if (!machineStates.has(state)) out.push(`the model holds ${b.id} in ${state}, which is no state of machines/booking.ts`);
  const allowed = ALLOWED[state];
  if (!allowed) return [...out, `no part states are known for the booking state ${state}: add it to ALLOWED in test/helpers/model-invariants.ts`];

  const offers = (booking?.bookedOffers ?? []) as Array<{ admissions?: Part[]; reservations?: Part[]; ancillaries?: Part[] }>;
  const parts = offers.flatMap((o) => [...(o.admissions ?? []), ...(o.reservations ?? []), ...(o.ancillaries ?? [])]);
  if (parts.length === 0) out.push('a booking has at least one part');
  // The new trip's parts are PREBOOKED while an exchange operation is (the model believes) pre-booked or not yet settled.
  const exchanging = m.operations.some((o) => o.booking === b.id && (o.state === 'PREBOOKED' || o.state === 'EXPIRED'));
  for (const p of parts)
    if (!allowed.parts.includes(p.status) && !(exchanging && state === 'FULFILLED' && p.status === 'PREBOOKED'))
      out.push(`part ${p.id} is ${p.status}; a ${state} booking's parts may be ${allowed.parts.join(' or ') || 'nothing'}`);

  // Money: the provisional price is the sum of the parts' prices, VAT included (spec §2.6); the confirmed one is 0 until confirmation, then the same.
  const provisional = booking?.provisionalPrice as Money | undefined;
  const confirmedPrice = booking?.confirmedPrice as Money | undefined;
  if (!provisional || !confirmedPrice) return [...out, 'a booking has provisionalPrice and confirmedPrice (spec §2.6 rule 2)'];
  // An exchange adds the new trip's parts beside the originals (pre-booked, then FULFILLED while the originals are
  // EXCHANGED); the booking keeps the price it was made for. The model exchanges every fulfillment, at most once.
  const priced = b.exchanged
    ? parts.filter((p) => p.status === 'EXCHANGED')
    : exchanging && state === 'FULFILLED'
      ? parts.filter((p) => p.status !== 'PREBOOKED')
      : parts;
  const sum = priced.reduce((n, p) => n + p.price.amount, 0);
  if (sum !== provisional.amount) out.push(`provisionalPrice ${provisional.amount} is not the sum of its parts' prices ${sum}`);
  for (const p of parts)
    if (p.price.currency !== provisional.currency) out.push(`part ${p.id} is priced in ${p.price.currency}, the booking in ${provisional.currency}`);
  const vatKey = (v: { countryCode: string; percentage: number }) => `${v.countryCode} ${v.percentage}%`;
  const vatOfParts = new Map<string, number>();
  for (const p of priced) for (const v of p.price.vats ?? []) vatOfParts.set(vatKey(v), (vatOfParts.get(vatKey(v)) ?? 0) + v.amount);
  const vatOfBooking = new Map((provisional.vats ?? []).map((v) => [vatKey(v), v.amount] as const));
  for (const k of new Set([...vatOfParts.keys(), ...vatOfBooking.keys()])) {
    if ((vatOfParts.get(k) ?? 0) !== (vatOfBooking.get(k) ?? 0))
      out.push(`VAT ${k}: the parts add up to ${vatOfParts.get(k) ?? 0}, provisionalPrice says ${vatOfBooking.get(k) ?? 0}`);
  }
  if (CONFIRMED_STATES.includes(state)) {
    if (JSON.stringify(confirmedPrice) !== JSON.stringify(provisional))
      out.push(`confirmedPrice ${JSON.stringify(confirmedPrice)} is not provisionalPrice ${JSON.stringify(provisional)} once confirmed`);
  } else if (confirmedPrice.amount !== 0 || (confirmedPrice.vats ?? []).some((v) => v.amount !== 0)) {
    out.push(`confirmedPrice is ${JSON.stringify(confirmedPrice)} before confirmation; it is 0 until then (spec §2.6 rule 2)`);
  }

  // Fulfillments: states the booking state allows; one per part, each part in exactly one (docs/api-behaviour.md "Fulfillments").
  const fulfillments = (booking?.fulfillments ?? []) as Array<{ id: string; status: string; bookingParts?: Array<{ id: string }> }>;
  for (const f of fulfillments)
    if (!allowed.fulfillments.includes(f.status))
      out.push(`fulfillment ${f.id} is ${f.status}; a ${state} booking's fulfillments may be ${allowed.fulfillments.join(' or ') || 'none at all'}`);
  if (allowed.fulfillments.length > 0) {
    const covered = fulfillments.flatMap((f) => (f.bookingParts ?? []).map((p) => p.id));
    // Parts an exchange operation pre-books have no fulfillment until it is confirmed.
    for (const p of parts.filter((x) => x.status !== 'PREBOOKED')) {
      const n = covered.filter((id) => id === p.id).length;
      if (n !== 1) out.push(`part ${p.id} is in ${n} fulfillments; each part is in exactly one`);
    }
    for (const id of covered) if (!parts.some((p) => p.id === id)) out.push(`a fulfillment names part ${id}, which the booking does not have`);
  }
  out.push(...moneyProblems(m, b, booking, parts));
  return out;
}

/**
 * The money of aftersales (spec §4.1 rules 6, 11, 12): a part never pays back more than it cost, and only once (a
 * CANCELLED part stays CANCELLED with the same refundAmount); the booking's refundAmount is the sum of its
 * parts'; on-hold never moves the time limit past departure − 24 hours (rules/on-hold.yaml).
 */
function moneyProblems(_m: Readonly<Model>, b: Readonly<ModelBooking>, booking: any, parts: ReadonlyArray<Part & { refundAmount?: Money }>): string[] {
  const out: string[] = [];
  let sum = 0;
  for (const p of parts) {
    const refund = p.refundAmount?.amount;
    if (refund !== undefined) {
      sum += refund;
      if (refund < 0 || refund > p.price.amount)
        out.push(`part ${p.id} pays back ${refund} of its price ${p.price.amount}: never more than the price, never less than 0`);
    }
    const before = b.refunded.get(p.id);
    if (before !== undefined && (p.status !== 'CANCELLED' || refund !== before))
      out.push(`part ${p.id} was CANCELLED with refundAmount ${before}; now it is ${p.status} with ${refund}: a part is refunded once`);
    if (p.status === 'CANCELLED' && refund === undefined) out.push(`part ${p.id} is CANCELLED without a refundAmount`);
    if (p.status === 'CANCELLED' && before === undefined && refund !== undefined && out.length === 0) b.refunded.set(p.id, refund);
  }
  const total = (booking?.refundAmount as Money | undefined)?.amount ?? 0;
  if (total !== sum) out.push(`refundAmount ${total} is not the sum of its parts' refundAmounts ${sum}`);
  const limit = typeof booking?.confirmationTimeLimit === 'string' ? new Date(booking.confirmationTimeLimit).getTime() : undefined;
  const initial = b.createdAt + lifetimes().provisionalBooking;
  if (limit !== undefined && b.departure !== undefined && limit > initial && limit > b.departure - 24 * 3_600_000) {
    out.push(`confirmationTimeLimit ${iso(limit)} was moved past departure − 24 h (${iso(b.departure - 24 * 3_600_000)}): on-hold never does that`);
  }
  return out;
}

/**
 * Spec §3 rule 1: a refund offer is how a price is read. What it quotes (`quote`, its refundableAmount) is never
 * more than was paid for the parts of the fulfillments it lists, each part counted once; once confirmed, those
 * parts' refundAmounts add up to the quote exactly. `booking`: the booking as GET answers it.
 */
export function refundQuoteProblems(booking: any, fulfillmentIds: readonly string[], quote: number, confirmed: boolean): string[] {
  const offers = (booking?.bookedOffers ?? []) as Array<{ admissions?: Part[]; reservations?: Part[]; ancillaries?: Part[] }>;
  const parts = offers.flatMap((o) => [...(o.admissions ?? []), ...(o.reservations ?? []), ...(o.ancillaries ?? [])]) as Array<Part & { refundAmount?: Money }>;
  const listed = ((booking?.fulfillments ?? []) as Array<{ id: string; bookingParts?: Array<{ id: string }> }>).filter((f) => fulfillmentIds.includes(f.id));
  const ids = new Set(listed.flatMap((f) => (f.bookingParts ?? []).map((p) => p.id)));
  const covered = parts.filter((p) => ids.has(p.id));
  const paid = covered.reduce((n, p) => n + p.price.amount, 0);
  const out: string[] = [];
  if (quote > paid) out.push(`the refund offer quotes ${quote}, more than the ${paid} paid for its parts (${[...ids].join(', ')})`);
  if (confirmed) {
    const refunded = covered.reduce((n, p) => n + (p.refundAmount?.amount ?? 0), 0);
    if (refunded !== quote) out.push(`the refund offer quoted ${quote}, confirming it refunded ${refunded}: the quote is what confirming refunds`);
  }
  return out;
}

/** Reads booking `b` and checks a refund offer's quote against it (refundQuoteProblems). */
export async function checkRefundQuote(s: System, b: Readonly<ModelBooking>, fulfillments: readonly string[], quote: number, confirmed: boolean) {
  const res = await s.send(
    { name: `read ${b.id} for the refund quote`, method: 'get', path: `/v3/bookings/${ref(b.id)}`, expect: { status: 200 } },
    { observational: true },
  );
  const broken = refundQuoteProblems(
    res.body?.booking,
    fulfillments.map((f) => String(s.vars[f])),
    quote,
    confirmed,
  );
  if (broken.length > 0) throw s.violation(`refund offer on ${b.id}:\n  ${broken.join('\n  ')}`, res);
}

/** GETs booking `b`, matching the model's expectation and its invariants. */
export async function readBooking(m: Readonly<Model>, s: System, b: Readonly<ModelBooking>, options: { observational?: boolean; name?: string } = {}) {
  const res = await s.send(
    { name: options.name ?? `read ${b.id}`, method: 'get', path: `/v3/bookings/${ref(b.id)}`, expect: bookingExpectation(m, b) },
    options,
  );
  const broken = bookingProblems(m, b, res.body?.booking);
  if (broken.length > 0)
    throw s.violation(`GET /v3/bookings/${String(s.vars[b.id])} (${b.id}, ${bookingStateAt(m, b)} in the model):\n  ${broken.join('\n  ')}`, res);
  return res;
}

/** The sweep after every command: each booking the model knows, read and checked. */
export async function checkEveryBooking(m: Readonly<Model>, s: System): Promise<void> {
  for (const b of m.bookings) await readBooking(m, s, b, { observational: true, name: `check ${b.id}` });
}
