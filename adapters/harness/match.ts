import { DATE_TIME_WITH_OFFSET } from '../../engine/rules/index.ts';

/**
 * Compares a response with what a step expects. Objects match as a subset unless `exact`; arrays match
 * element by element with the same length. Typed wildcards:
 *   "$any" "$absent" "$string" "$number" "$boolean" "$array" "$object" "$uuid" "$date-time" "$money"
 *   { $length: n | {min, max} }  { $gte, $gt, $lte, $lt }  { $regex: "…" }  { $contains: [..] }  { $anyOrder: [..] }
 * A literal string starting with `$` is written with `$$`.
 */
export interface Mismatch {
  /** Where in the response, as a reader writes it: `body.booking.bookedOffers[0].status`, `status`, `header x`. */
  path: string;
  /** Where in the step's `expect` the expectation was written, for its `file:line` (absent: no single place). */
  keys?: readonly PropertyKey[];
  expected: unknown;
  actual: unknown;
  message: string;
  /** `schema`: the response broke the API's schema (api-schema.ts); `path` names the operation, `message` where and how. */
  kind?: 'schema';
}

/** The `$uuid` and `$date-time` wildcards; the exports' matchers (export-matcher.ts, export-hurl.ts) use the same. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const DATE_TIME = DATE_TIME_WITH_OFFSET;

const wildcards: Record<string, (v: unknown) => boolean> = {
  $any: (v) => v !== undefined,
  $string: (v) => typeof v === 'string',
  $number: (v) => typeof v === 'number',
  $boolean: (v) => typeof v === 'boolean',
  $array: (v) => Array.isArray(v),
  $object: (v) => v !== null && typeof v === 'object' && !Array.isArray(v),
  $uuid: (v) => typeof v === 'string' && UUID.test(v),
  '$date-time': (v) => typeof v === 'string' && DATE_TIME.test(v),
  $money: (v) => {
    const m = v as { currency?: unknown; amount?: unknown; scale?: unknown } | null;
    return !!m && typeof m === 'object' && typeof m.currency === 'string' && Number.isInteger(m.amount) && Number.isInteger(m.scale);
  },
};

const isMatcherObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0 && Object.keys(v).every((k) => k.startsWith('$') && !k.startsWith('$$'));

/**
 * Where a value sits, told only when something there fails: `path` as a reader writes it (`body.offers[0].offerId`)
 * and `keys` in the scenario file. Most values match, so neither is spelled out on the way down.
 */
class Place {
  private readonly up: Place | undefined;
  private readonly key: PropertyKey;
  private readonly basePath: string;
  private readonly baseKeys: readonly PropertyKey[];
  constructor(up: Place | undefined, key: PropertyKey, basePath = '', baseKeys: readonly PropertyKey[] = []) {
    this.up = up;
    this.key = key;
    this.basePath = basePath;
    this.baseKeys = baseKeys;
  }
  static root(path: string, keys: readonly PropertyKey[]): Place {
    return new Place(undefined, '', path, keys);
  }
  get path(): string {
    if (!this.up) return this.basePath;
    const above = this.up.path;
    if (typeof this.key === 'number') return `${above}[${this.key}]`;
    return above ? `${above}.${String(this.key)}` : String(this.key);
  }
  get keys(): readonly PropertyKey[] {
    return this.up ? [...this.up.keys, this.key] : this.baseKeys;
  }
}

/** `keys` is where `expected` sits in the scenario file, relative to the step; mismatches carry it on. */
export function match(expected: unknown, actual: unknown, exact = false, path = 'body', keys: readonly PropertyKey[] = []): Mismatch[] {
  const out: Mismatch[] = [];
  walk(expected, actual, exact, Place.root(path, keys), out);
  return out;
}

const matches = (expected: unknown, actual: unknown, exact: boolean) => match(expected, actual, exact).length === 0;

const failAt = (out: Mismatch[], at: Place, expected: unknown, actual: unknown, message: string) =>
  out.push({ path: at.path, keys: at.keys, expected, actual, message });

function walk(expected: unknown, actual: unknown, exact: boolean, at: Place, out: Mismatch[]): void {
  if (typeof expected === 'string' && expected.startsWith('$') && !expected.startsWith('$$')) {
    if (expected === '$absent') {
      if (actual !== undefined) failAt(out, at, expected, actual, 'expected no value');
      return;
    }
    const test = wildcards[expected];
    if (!test) failAt(out, at, expected, actual, `unknown wildcard ${expected}`);
    else if (!test(actual)) failAt(out, at, expected, actual, `expected ${expected.slice(1)}`);
    return;
  }
  if (isMatcherObject(expected)) {
    matchOperators(expected, actual, exact, at, out);
    return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) failAt(out, at, expected, actual, 'expected an array');
    else if (actual.length !== expected.length) failAt(out, at, expected, actual, `expected ${expected.length} items, got ${actual.length}`);
    else for (let i = 0; i < expected.length; i++) walk(expected[i], actual[i], exact, new Place(at, i), out);
    return;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      failAt(out, at, expected, actual, 'expected an object');
      return;
    }
    const fields = actual as Record<string, unknown>;
    for (const k of Object.keys(expected)) walk((expected as Record<string, unknown>)[k], fields[k], exact, new Place(at, k), out);
    if (exact) {
      for (const k of Object.keys(actual))
        if (!(k in expected))
          out.push({
            path: new Place(at, k).path,
            keys: at.keys,
            expected: undefined,
            actual: fields[k],
            message: 'unexpected field (exact match)',
          });
    }
    return;
  }
  const literal = typeof expected === 'string' && expected.startsWith('$$') ? expected.slice(1) : expected;
  if (!Object.is(literal, actual)) failAt(out, at, expected, actual, actual === undefined ? 'missing' : 'different value');
}

function matchOperators(ops: Record<string, unknown>, actual: unknown, exact: boolean, at: Place, out: Mismatch[]): void {
  const fail = (message: string) => failAt(out, at, ops, actual, message);
  for (const [op, arg] of Object.entries(ops)) {
    switch (op) {
      case '$length': {
        const n = Array.isArray(actual) || typeof actual === 'string' ? actual.length : undefined;
        if (n === undefined) {
          fail('expected something with a length');
          break;
        }
        if (typeof arg === 'number' ? n !== arg : (arg as { min?: number; max?: number }).min! > n || n > ((arg as { max?: number }).max ?? Infinity))
          fail(`length ${n} is not ${JSON.stringify(arg)}`);
        break;
      }
      case '$gte':
        if (!(typeof actual === 'number' && actual >= (arg as number))) fail(`expected ≥ ${String(arg)}`);
        break;
      case '$gt':
        if (!(typeof actual === 'number' && actual > (arg as number))) fail(`expected > ${String(arg)}`);
        break;
      case '$lte':
        if (!(typeof actual === 'number' && actual <= (arg as number))) fail(`expected ≤ ${String(arg)}`);
        break;
      case '$lt':
        if (!(typeof actual === 'number' && actual < (arg as number))) fail(`expected < ${String(arg)}`);
        break;
      case '$regex':
        if (!(typeof actual === 'string' && new RegExp(arg as string).test(actual))) fail(`expected to match /${String(arg)}/`);
        break;
      case '$contains': {
        if (!Array.isArray(actual)) {
          fail('expected an array');
          break;
        }
        for (const e of arg as unknown[]) if (!actual.some((a) => matches(e, a, exact))) fail(`no item matches ${JSON.stringify(e)}`);
        break;
      }
      case '$anyOrder': {
        const wanted = arg as unknown[];
        if (!Array.isArray(actual) || actual.length !== wanted.length) {
          fail(`expected ${wanted.length} items in any order`);
          break;
        }
        const free: unknown[] = [...(actual as unknown[])];
        for (const e of wanted) {
          const i = free.findIndex((a) => matches(e, a, exact));
          if (i < 0) fail(`no item matches ${JSON.stringify(e)}`);
          else free.splice(i, 1);
        }
        break;
      }
      default:
        fail(`unknown matcher ${op}`);
    }
  }
}
