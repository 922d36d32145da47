import { DATE_TIME } from '../harness/match.ts';

/**
 * What a step should expect so that it passes on one answer and fails on another: the first answer's values exactly
 * where the two differ, `$any` for the items of a list that agree, nothing for the keys that agree. Ids the server
 * counts out (`offer-12`, `part-40`) and instants are not compared: they say nothing about the rules. Where a list
 * has another length, the first answer's list is pinned item by item in brief (its products, prices, passenger
 * types), which pins its length too.
 */
export interface Answer {
  status: number;
  body: unknown;
}

const SAME = Symbol('same');
type Pinned = unknown;

/** Values the server makes up as it goes: counted ids (`offer-3`, `offer-3:p1:leg:MEALS`) and instants. */
const isVolatile = (v: unknown) => typeof v === 'string' && (/^[a-z]+-\d+(:|$)/.test(v) || DATE_TIME.test(v));
/** A value with its counted ids left out: `offer-3:p1:leg:MEALS` and `offer-9:p1:leg:MEALS` say the same. */
const uncounted = (v: unknown) => (typeof v === 'string' && !DATE_TIME.test(v) ? v.replace(/^[a-z]+-\d+(?=:|$)/, '#') : v);
/** Derived from an amount already compared (the VAT of a price). */
const DERIVED = new Set(['vats']);
/** What names an item of a list for a reader: an offer by its product, a part by its passengers. */
const LABELS = ['products', 'passengerRefs'];
/** What an item of a list is pinned by when the list's length differs. */
const BRIEF = new Set([
  'products',
  'id',
  'offerSummary',
  'minimalPrice',
  'amount',
  'admissionOfferParts',
  'price',
  'appliedPassengerTypes',
  'passengerRef',
  'type',
]);

/**
 * A value as a step expects it: a string that starts with a counted id matched by a pattern that leaves the id out
 * (another server counts otherwise, a live one makes UUIDs).
 */
function literal(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  if (/^[a-z]+-\d+:/.test(v)) return { $regex: `^[^:]+${v.replace(/^[a-z]+-\d+/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$` };
  return v.startsWith('$') ? `$${v}` : v;
}
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** An item pinned in brief: by its products when it names them (an offer), else by its prices and passenger types. */
function brief(v: unknown): Pinned {
  if (Array.isArray(v)) return v.map(brief);
  if (isObject(v)) {
    const products = 'products' in v ? brief(v['products']) : undefined;
    if (products !== undefined && informative(products)) return { products };
    const kept = Object.entries(v)
      .filter(([k, x]) => BRIEF.has(k) && !isVolatile(x))
      .map(([k, x]) => [k, brief(x)] as const)
      .filter(([, x]) => informative(x));
    return kept.length ? Object.fromEntries(kept) : '$object';
  }
  return isVolatile(v) ? '$any' : literal(v);
}

/** Whether a brief says more than that something is there. */
const informative = (b: Pinned) => !/^"\$object"$|^\["\$object"(,"\$object")*\]$/.test(JSON.stringify(b));

/** The pinned difference, or SAME. */
function diff(a: unknown, b: unknown): Pinned {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return brief(a);
    const items = a.map((x, i) => diff(x, b[i]));
    return items.every((x) => x === SAME) ? SAME : items.map((x) => (x === SAME ? '$any' : x));
  }
  if (isObject(a) && isObject(b)) {
    const out: Record<string, Pinned> = {};
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (DERIVED.has(k)) continue;
      if (!(k in a)) out[k] = '$absent';
      else {
        const d = diff(a[k], b[k]);
        if (d !== SAME) out[k] = d;
      }
    }
    if (Object.keys(out).length === 0) return SAME;
    for (const k of LABELS) {
      const label = k in a && !(k in out) ? brief(a[k]) : undefined;
      if (label !== undefined && informative(label)) out[k] = label;
    }
    return out;
  }
  const instant = (v: unknown) => typeof v === 'string' && DATE_TIME.test(v);
  if (JSON.stringify(uncounted(a)) === JSON.stringify(uncounted(b)) || (instant(a) && instant(b))) return SAME;
  return a === undefined ? '$absent' : Array.isArray(a) || isObject(a) ? brief(a) : literal(a);
}

const codeOf = (body: unknown) => (isObject(body) && typeof body['code'] === 'string' ? body['code'] : undefined);

/** The expectation that tells `original` from `other`, or undefined when they do not differ but in ids and instants. */
export function pinnedExpectation(original: Answer, other: Answer): { status: number; body?: Pinned } | undefined {
  const code = codeOf(original.body);
  if (original.status !== other.status || code !== codeOf(other.body)) return { status: original.status, ...(code ? { body: { code } } : {}) };
  const d = diff(original.body, other.body);
  return d === SAME ? undefined : { status: original.status, body: d };
}
