import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonCopy } from '../adapters/store/json-copy.ts';
import { runs, seed } from './helpers/facts.ts';

/** What the SQLite and PostgreSQL stores give back: the value written as JSON and parsed again. */
const throughJson = (value: object): unknown => JSON.parse(JSON.stringify(value));

describe('jsonCopy (the memory store copies values in and out as JSON would)', () => {
  it('gives what JSON gives for values JSON changes: undefined, functions, NaN, -0, dates, maps, no prototype, toJSON', () => {
    const noPrototype = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1 });
    const value = {
      kept: 'x',
      gone: undefined,
      fn: () => 1,
      list: [undefined, () => 1, NaN, Infinity, -0, 1.5],
      at: new Date('2026-11-20T10:00:00Z'),
      map: new Map([['a', 1]]),
      noPrototype,
      own: { toJSON: () => 'replaced' },
      nested: [{ deep: [{ gone: undefined, zero: -0 }] }],
    };
    const copy = jsonCopy(value);
    expect(copy).toStrictEqual(throughJson(value));
    expect(Object.getPrototypeOf((copy as unknown as { noPrototype: object }).noPrototype)).toBe(Object.prototype);
  });

  it('keeps an own `__proto__` key as a key, as JSON.parse does, without setting the prototype', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const copy = jsonCopy(value);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
  });

  it('shares nothing with what it copied', () => {
    const value = { a: { b: [1, { c: 2 }] } };
    const copy = jsonCopy(value);
    (copy.a.b[1] as { c: number }).c = 3;
    expect(value.a.b[1]).toEqual({ c: 2 });
  });

  it('throws on a BigInt, as JSON does', () => {
    expect(() => jsonCopy({ n: 1n })).toThrow(TypeError);
  });

  const s = seed();
  it(`gives what JSON.parse(JSON.stringify(value)) gives, for any value JSON can write (seed ${s})`, () => {
    const value = fc.anything({
      withNullPrototype: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withSparseArray: true,
      withBoxedValues: true,
      withObjectString: true,
    });
    fc.assert(
      fc.property(value, (v) => {
        // Inside an object, as a store holds values (`undefined` alone is no JSON text at all).
        expect(jsonCopy({ v })).toStrictEqual(throughJson({ v }));
      }),
      { seed: s, numRuns: runs(300) },
    );
  });
});
