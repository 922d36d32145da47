import type { Exchange } from './offset-target.ts';
import { asInstants } from './offsets.ts';

/**
 * What an answer means, compared between two runs of the same requests: every field (statuses, Problem codes,
 * prices, passenger types, products, places, ids, which count up the same way in both runs), with instants written
 * as UTC wherever they are, in texts too. A ticket's barcode is compared by the ticket it carries: its signature
 * signs the departure as it was written, so it differs with the notation while the ticket does not.
 */
function meaning(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(meaning);
  if (value === null || typeof value !== 'object') return asInstants(value);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'securityFeatures' && Array.isArray(v) ? v.map(ticketOf) : meaning(v)]));
}

/** A security feature with its barcode read: `base64(base64url(payload).signature)` (engine/booking/barcodes.ts). */
function ticketOf(feature: unknown): unknown {
  const data = (feature as { data?: unknown } | null)?.data;
  if (typeof data !== 'string') return meaning(feature);
  const [payload] = Buffer.from(data, 'base64').toString().split('.');
  try {
    return meaning({ ...(feature as object), data: JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) });
  } catch {
    return meaning(feature);
  }
}

/** Leaves of a JSON value by path: `offers[0].offerSummary.minimalPrice.amount` → 1000. */
function leaves(value: unknown, path = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (Array.isArray(value)) {
    if (value.length === 0) out.set(path, []);
    value.forEach((v, i) => leaves(v, `${path}[${i}]`, out));
  } else if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) out.set(path, {});
    for (const [k, v] of entries) leaves(v, path ? `${path}.${k}` : k, out);
  } else out.set(path, value);
  return out;
}

/** The paths where two sets of leaves differ: `path: first ≠ second`. */
function differing(left: Map<string, unknown>, right: Map<string, unknown>): string[] {
  const out: string[] = [];
  for (const path of new Set([...left.keys(), ...right.keys()])) {
    const x = JSON.stringify(left.get(path));
    const y = JSON.stringify(right.get(path));
    if (x !== y) out.push(`${path || 'body'}: ${x ?? 'absent'} ≠ ${y ?? 'absent'}`);
  }
  return out;
}

/** Where two answers differ in what they mean, leaf by leaf: `path: baseline ≠ other`. */
export const answerDifferences = (a: unknown, b: unknown): string[] => differing(leaves(meaning(a)), leaves(meaning(b)));

const MAX_LINES = 8;

/** Request by request, where another run's exchanges differ from the baseline's; empty when they mean the same. */
export function exchangeDifferences(baseline: readonly Exchange[], other: readonly Exchange[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < Math.max(baseline.length, other.length); i++) {
    const x = baseline[i];
    const y = other[i];
    if (!x || !y) {
      const missed = baseline.length - other.length;
      out.push(
        x
          ? `and ${missed} more request${missed === 1 ? '' : 's'} from ${x.method.toUpperCase()} ${x.path} on: not sent, the run stopped (see the failed step)`
          : `request ${i + 1} ${y!.method.toUpperCase()} ${y!.path}: sent in this run only`,
      );
      break;
    }
    const at = `request ${i + 1} ${y.method.toUpperCase()} ${y.path}`;
    if (x.status !== y.status) {
      out.push(`${at}: status ${x.status} ≠ ${y.status} ${JSON.stringify(y.answer).slice(0, 300)}`);
      continue;
    }
    const d = answerDifferences(x.answer, y.answer);
    if (d.length > 0) out.push(`${at}:\n  ${d.slice(0, MAX_LINES).join('\n  ')}${d.length > MAX_LINES ? `\n  … and ${d.length - MAX_LINES} more` : ''}`);
  }
  return out;
}

/** The fields of an answer a traveller or a reseller acts on, whatever else the answer echoes of the request. */
const DECIDING = new Set([
  'code',
  'amount',
  'currency',
  'scale',
  'percentage',
  'offerId',
  'productId',
  'status',
  'coachNumber',
  'placeNumbers',
  'refundAmount',
]);

/**
 * The decisions of an answer, by path: status, Problem and warning codes, prices with their VAT, offer and product
 * ids, passenger types, coaches and places. Not what the answer only echoes back (a trip's name, an `externalRef`).
 */
function decisionsOf(status: number, answer: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>([['HTTP status', status]]);
  for (const [path, value] of leaves(meaning(answer))) {
    const key = /([A-Za-z]+)(?:\[\d+\])*$/.exec(path)?.[1] ?? '';
    if (DECIDING.has(key) || /appliedPassengerTypes\[\d+\]\.type$/.test(path) || /products\[\d+\]\.id$/.test(path)) out.set(path, value);
  }
  return out;
}

/** Where the decisions of two answers differ: `path: first ≠ second`. */
export const decisionDifferences = (a: { status: number; body: unknown }, b: { status: number; body: unknown }): string[] =>
  differing(decisionsOf(a.status, a.body), decisionsOf(b.status, b.body));
