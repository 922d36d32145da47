import type { Fixtures } from './schema.ts';
import { StepError } from './step-error.ts';

/**
 * Expands a step's body and path before it is sent:
 *   `${name}` inserts a saved value (a whole-string `${name}` keeps the value's type);
 *   `{ $trip: name }`, `{ $purchaser: name }` insert a fixture;
 *   `{ $passengers: group | [ages] }` anonymous passengers for an offer request;
 *   `{ $passengerSpecifications: group | [ages] }` passengers with details for a booking;
 *   `{ $passengerRefs: group | [ages] }` their externalRefs.
 * A failure names the key path of the value that could not expand, so the report can give its `file:line:col`.
 */
class TemplateError extends StepError {}

type Group = Array<Record<string, unknown>>;
type Keys = readonly PropertyKey[];

/** A passenger of a list of ages: `p1`, `p2`, … by place, with a made-up name for bookings. */
const ofAge = (age: unknown, i: number) => ({
  externalRef: `p${i + 1}`,
  type: 'PERSON',
  age,
  detail: { firstName: `Passenger${i + 1}`, lastName: 'Testsson' },
});

function group(fixtures: Fixtures, ref: unknown, keys: Keys): Group {
  if (Array.isArray(ref)) return ref.map(ofAge);
  const g = fixtures.passengers[String(ref)];
  if (!g) throw new TemplateError(`no passenger group "${String(ref)}" in the fixtures${known(fixtures.passengers)}`, keys);
  return g.map((p, i) => (typeof p === 'number' ? ofAge(p, i) : { type: 'PERSON', ...p }));
}

/** The names a fixture kind offers, so a typo's report shows the right spelling. */
const known = (named: Readonly<Record<string, unknown>>) => {
  const names = Object.keys(named);
  return names.length === 0 ? ' (the scenario uses no fixture file that defines any)' : ` (known: ${names.join(', ')})`;
};

const anonymous = (p: Record<string, unknown>) => {
  const { detail: _detail, ...rest } = p;
  return rest;
};

/** Where a value sits under the step, spelled out only for an error's `file:line:col`. */
class Trail {
  private readonly up: Trail | Keys;
  private readonly key: PropertyKey;
  constructor(up: Trail | Keys, key: PropertyKey) {
    this.up = up;
    this.key = key;
  }
  get keys(): Keys {
    return [...(this.up instanceof Trail ? this.up.keys : this.up), this.key];
  }
}
const keysOf = (at: Trail | Keys): Keys => (at instanceof Trail ? at.keys : at);

const FIXTURE_KEYS = new Set(['$trip', '$purchaser', '$passengers', '$passengerSpecifications', '$passengerRefs']);
const SAVED = /\$\{[\w.-]+\}/;
/**
 * Values with nothing to expand, by identity: a scenario's parsed steps are kept (load.ts), so each of their parts is
 * looked at once, and thereafter handed out as it is rather than copied at every step.
 */
const literal = new WeakMap<object, boolean>();

function isLiteral(value: unknown): boolean {
  if (typeof value === 'string') return !SAVED.test(value);
  if (value === null || typeof value !== 'object') return true;
  let known = literal.get(value);
  if (known === undefined) {
    const keys = Object.keys(value);
    known = !(keys.length === 1 && FIXTURE_KEYS.has(keys[0]!)) && keys.every((k) => isLiteral((value as Record<string, unknown>)[k]));
    literal.set(value, known);
  }
  return known;
}

/** A value with its templates expanded; one with none is returned as it is (so never change what this returns). */
export function expand(value: unknown, vars: Readonly<Record<string, unknown>>, fixtures: Fixtures, keys: Keys = []): unknown {
  return isLiteral(value) ? value : expandAt(value, vars, fixtures, keys);
}

function expandAt(value: unknown, vars: Readonly<Record<string, unknown>>, fixtures: Fixtures, at: Trail | Keys): unknown {
  if (isLiteral(value)) return value;
  if (typeof value === 'string') {
    const whole = /^\$\{([\w.-]+)\}$/.exec(value);
    if (whole) return lookup(vars, whole[1]!, at);
    return value.replace(/\$\{([\w.-]+)\}/g, (_m, name: string) => String(lookup(vars, name, at)));
  }
  if (Array.isArray(value)) return value.map((v, i) => expandAt(v, vars, fixtures, new Trail(at, i)));
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 1 && entries[0]![0].startsWith('$')) {
    const [key, raw] = entries[0]!;
    const here = new Trail(at, key);
    const arg = expandAt(raw, vars, fixtures, here);
    switch (key) {
      case '$trip': {
        const trip = fixtures.trips[String(arg)];
        if (!trip) throw new TemplateError(`no trip "${String(arg)}" in the fixtures${known(fixtures.trips)}`, here.keys);
        return expandAt(trip, vars, fixtures, here);
      }
      case '$purchaser': {
        const purchaser = fixtures.purchasers[String(arg)];
        if (!purchaser) throw new TemplateError(`no purchaser "${String(arg)}" in the fixtures${known(fixtures.purchasers)}`, here.keys);
        return expandAt(purchaser, vars, fixtures, here);
      }
      case '$passengers':
        return group(fixtures, arg, here.keys).map(anonymous);
      case '$passengerSpecifications':
        return group(fixtures, arg, here.keys).map(({ age: _age, ...p }) => p);
      case '$passengerRefs':
        return group(fixtures, arg, here.keys).map((p) => p['externalRef']);
    }
  }
  return Object.fromEntries(entries.map(([k, v]) => [k, expandAt(v, vars, fixtures, new Trail(at, k))]));
}

function lookup(vars: Readonly<Record<string, unknown>>, name: string, at: Trail | Keys): unknown {
  if (!(name in vars)) {
    const saved = Object.keys(vars);
    throw new TemplateError(
      `\${${name}} was not saved by an earlier step (${saved.length === 0 ? 'nothing was saved yet' : `saved so far: ${saved.join(', ')}`})`,
      keysOf(at),
    );
  }
  return vars[name];
}

/** Reads `offers[0].offerId` or `booking.fulfillments[0].id` out of a response body. */
export function pick(body: unknown, path: string): unknown {
  let current: unknown = body;
  for (const part of path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}
