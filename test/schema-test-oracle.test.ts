import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { compileTest } from '../adapters/harness/schema-test.ts';
import { BookingResponse } from '../engine/model/osdm/booking-response.ts';
import { OfferCollectionResponse } from '../engine/model/osdm/offer-response.ts';
import { runs, seed } from './helpers/facts.ts';
import { passengers, testServer, trip } from './helpers/server.ts';

/**
 * adapters/harness/schema-test.ts compiles a response schema into a fast yes/no test, so the runner need not
 * run zod on every body. A "yes" where zod says "no" would let a broken response pass a scenario silently, so
 * the compiled test must agree with zod's own verdict: checked here on real answers of the server and on
 * those answers mutated at random (a field deleted, retyped or added, deep inside). Replay with FC_SEED.
 */
const server = await testServer();
afterAll(() => server.app.close());

const offered = await server.reseller('POST', '/v3/offers', { tripSpecifications: [trip()], anonymousPassengerSpecifications: passengers(35, 8) });
const booked = await server.reseller('POST', '/v3/booking', {
  externalRef: 'oracle-1',
  offers: [{ offerId: offered.body.offers[0].offerId, passengerRefs: ['p1', 'p2'] }],
  passengerSpecifications: [
    { externalRef: 'p1', type: 'PERSON', age: 35, detail: { firstName: 'Anna', lastName: 'Svensson' } },
    { externalRef: 'p2', type: 'PERSON', age: 8, detail: { firstName: 'Olle', lastName: 'Svensson' } },
  ],
  purchaser: { detail: { firstName: 'Anna', lastName: 'Svensson', email: 'anna@example.se', phoneNumber: '+46701234567' } },
});

type Json = unknown;
/** Every path to a value inside `v` (object keys and array indexes). */
function paths(v: Json, at: Array<string | number> = []): Array<Array<string | number>> {
  if (v === null || typeof v !== 'object') return [at];
  const children = Array.isArray(v) ? v.map((x, i) => [i, x] as const) : Object.entries(v);
  return [at, ...children.flatMap(([k, x]) => paths(x, [...at, k]))];
}
const REPLACEMENTS: Json[] = [undefined, null, 0, -1, 1.5, '', 'x', '2026-13-45', true, [], {}, ['x'], { surprise: 1 }];

function mutate(body: Json, pick: number, kind: number, replacement: number): Json {
  const copy = structuredClone(body) as Record<string | number, Json>;
  const all = paths(copy);
  const path = all[pick % all.length]!;
  if (path.length === 0) return REPLACEMENTS[replacement % REPLACEMENTS.length];
  const parent = path.slice(0, -1).reduce<Record<string | number, Json>>((o, k) => o[k] as Record<string | number, Json>, copy);
  const key = path[path.length - 1]!;
  if (kind === 0) {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
  } else if (kind === 1) parent[key] = REPLACEMENTS[replacement % REPLACEMENTS.length];
  else if (!Array.isArray(parent)) parent[`${String(key)}Extra`] = REPLACEMENTS[replacement % REPLACEMENTS.length];
  else parent.push(REPLACEMENTS[replacement % REPLACEMENTS.length]);
  return copy;
}

const cases: Array<[string, z.ZodType, Json]> = [
  ['OfferCollectionResponse', OfferCollectionResponse, offered.body],
  ['BookingResponse', BookingResponse, booked.body],
];

describe('the compiled schema test agrees with zod', () => {
  for (const [name, schema, body] of cases) {
    const s = seed();
    it(`${name}: real answers and random mutations of them (seed ${s})`, () => {
      const test = compileTest(schema);
      expect(test, `${name} compiles (else the runner falls back to zod and nothing here matters)`).toBeDefined();
      expect(test!(body)).toBe(true);
      fc.assert(
        fc.property(fc.nat(), fc.integer({ min: 0, max: 2 }), fc.nat(), (pick, kind, replacement) => {
          const mutated = mutate(body, pick, kind, replacement);
          expect(test!(mutated)).toBe(schema.safeParse(mutated).success);
        }),
        { seed: s, numRuns: runs(400) },
      );
    }, 120_000);
  }
});
