import type { Fixtures } from './schema.ts';

/**
 * Expands a step's body and path before it is sent:
 *   `${name}` inserts a saved value (a whole-string `${name}` keeps the value's type);
 *   `{ $trip: name }`, `{ $purchaser: name }` insert a fixture;
 *   `{ $passengers: group | [ages] }` anonymous passengers for an offer request;
 *   `{ $passengerSpecifications: group | [ages] }` passengers with details for a booking;
 *   `{ $passengerRefs: group | [ages] }` their externalRefs.
 */
export class TemplateError extends Error {}

type Group = Array<Record<string, unknown>>;

function group(fixtures: Fixtures, ref: unknown): Group {
  if (Array.isArray(ref)) {
    return ref.map((age, i) => ({
      externalRef: `p${i + 1}`,
      type: 'PERSON',
      age,
      detail: { firstName: `Passenger${i + 1}`, lastName: 'Testsson' },
    }));
  }
  const g = fixtures.passengers[String(ref)];
  if (!g) throw new TemplateError(`no passenger group "${String(ref)}" in the fixtures`);
  return g.map((p) => ({ type: 'PERSON', ...p }));
}

const anonymous = (p: Record<string, unknown>) => {
  const { detail: _detail, ...rest } = p;
  return rest;
};

export function expand(value: unknown, vars: Readonly<Record<string, unknown>>, fixtures: Fixtures): unknown {
  if (typeof value === 'string') {
    const whole = /^\$\{([\w.-]+)\}$/.exec(value);
    if (whole) return lookup(vars, whole[1]!);
    return value.replace(/\$\{([\w.-]+)\}/g, (_m, name: string) => String(lookup(vars, name)));
  }
  if (Array.isArray(value)) return value.map((v) => expand(v, vars, fixtures));
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 1 && entries[0]![0].startsWith('$')) {
      const [key, raw] = entries[0]!;
      const arg = expand(raw, vars, fixtures);
      switch (key) {
        case '$trip': {
          const trip = fixtures.trips[String(arg)];
          if (!trip) throw new TemplateError(`no trip "${String(arg)}" in the fixtures`);
          return expand(structuredClone(trip), vars, fixtures);
        }
        case '$purchaser': {
          const purchaser = fixtures.purchasers[String(arg)];
          if (!purchaser) throw new TemplateError(`no purchaser "${String(arg)}" in the fixtures`);
          return expand(structuredClone(purchaser), vars, fixtures);
        }
        case '$passengers': return group(fixtures, arg).map(anonymous);
        case '$passengerSpecifications': return group(fixtures, arg).map(({ age: _age, ...p }) => p);
        case '$passengerRefs': return group(fixtures, arg).map((p) => p['externalRef']);
      }
    }
    return Object.fromEntries(entries.map(([k, v]) => [k, expand(v, vars, fixtures)]));
  }
  return value;
}

function lookup(vars: Readonly<Record<string, unknown>>, name: string): unknown {
  if (!(name in vars)) throw new TemplateError(`\${${name}} was not saved by an earlier step`);
  return vars[name];
}

/** Reads `offers[0].offerId` or `booking.fulfillments[0].id` out of a response body. */
export function pick(body: unknown, path: string): unknown {
  let current: unknown = body;
  for (const part of path.replace(/\[(\d+)\]/g, '.$1').split('.').filter(Boolean)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}
