import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MATCHER_SOURCE } from '../adapters/harness/export-matcher.ts';
import { match } from '../adapters/harness/match.ts';
import { runs, seed } from './helpers/facts.ts';

/**
 * The matcher that exported Postman and Bruno collections carry in their test scripts gives the verdicts of
 * match.ts, the runner's own: the same places fail, for the same reasons, on generated expectations and responses.
 */
type Exported = (expected: unknown, actual: unknown, exact: boolean, path: string, lookup: (name: string) => unknown) => string[];
// The source runs as Postman and Bruno run it: as text.
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- running the exported text is the test
const signalboxMatch = new Function(`${MATCHER_SOURCE}\nreturn signalboxMatch;`)() as Exported;
const none = () => undefined;
/** `body.a[0]: different value`, the part of a line both matchers say alike. */
const verdicts = (lines: string[]) => lines.map((l) => l.slice(0, l.indexOf(' (expected ')));

const UUID = '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e';
const MONEY = { currency: 'SEK', amount: 100, scale: 2 };
const scalar = fc.oneof(
  fc.constantFrom('a', 'b', '$$a', '$a', '', UUID, '2026-11-20T10:00:00+01:00', '2026-11-20'),
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(0.5, true, false, null),
);
const key = fc.constantFrom('a', 'b', 'c');
const { value: response } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.constant(MONEY),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(key, tie('value'), { maxKeys: 3 }),
  ),
}));
/** The matcher objects, `$contains` and `$anyOrder` over items of `item`. */
function operatorsOf(item: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const n = fc.integer({ min: -3, max: 3 });
  return fc.oneof(
    fc.record({ $length: fc.oneof(fc.nat(3), fc.record({ min: fc.nat(2), max: fc.nat(4) }, { requiredKeys: [] })) }),
    fc.record({ $gt: n, $lte: n }, { requiredKeys: [] }),
    fc.record({ $gte: n, $lt: n }, { requiredKeys: [] }),
    fc.record({ $regex: fc.constantFrom('^a', 'b$', '^\\d{4}-', '^$') }),
    fc.record({ $contains: fc.array(item, { maxLength: 2 }) }),
    fc.record({ $anyOrder: fc.array(item, { maxLength: 3 }) }),
  );
}
const { expectation } = fc.letrec<{ expectation: unknown; operators: unknown }>((tie) => ({
  expectation: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.constantFrom('$any', '$absent', '$string', '$number', '$boolean', '$array', '$object', '$uuid', '$date-time', '$money', '$nonsense'),
    tie('operators'),
    fc.array(tie('expectation'), { maxLength: 3 }),
    fc.dictionary(key, tie('expectation'), { maxKeys: 3 }),
  ),
  operators: operatorsOf(tie('expectation')),
}));

describe('the matcher of exported collections', () => {
  it(`fails where match.ts fails, for the same reason (seed ${seed()})`, () => {
    fc.assert(
      fc.property(expectation, response, fc.boolean(), (expected, actual, exact) => {
        const ours = verdicts(signalboxMatch(expected, actual, exact, 'body', none));
        const runners = match(expected, actual, exact).map((m) => `${m.path}: ${m.message}`);
        expect(ours).toEqual(runners);
      }),
      { seed: seed(), numRuns: runs(2000) },
    );
  });

  it(`judges each wildcard and operator on a single value as match.ts does (seed ${seed()})`, () => {
    const leaf = fc.oneof(scalar, fc.constant(MONEY), fc.array(scalar, { maxLength: 3 }));
    const wanted = fc.oneof(
      scalar,
      fc.constantFrom('$any', '$absent', '$string', '$number', '$boolean', '$array', '$object', '$uuid', '$date-time', '$money'),
      operatorsOf(scalar),
    );
    fc.assert(
      fc.property(wanted, leaf, (expected, actual) => {
        expect(verdicts(signalboxMatch(expected, actual, false, 'body', none))).toEqual(match(expected, actual).map((m) => `${m.path}: ${m.message}`));
      }),
      { seed: seed(), numRuns: runs(2000) },
    );
  });

  it('reads a ${name} from the variables when it runs: a whole ${name} is the value itself, in a string its text', () => {
    const vars: Record<string, unknown> = { bookingId: 'B1', price: 1200 };
    const lookup = (name: string) => vars[name];
    const expected = { booking: { id: '${bookingId}', confirmedPrice: { amount: '${price}' } }, ticket: '${bookingId}-1' };
    expect(signalboxMatch(expected, { booking: { id: 'B1', confirmedPrice: { amount: 1200 } }, ticket: 'B1-1' }, false, 'body', lookup)).toEqual([]);
    expect(signalboxMatch(expected, { booking: { id: 'B2', confirmedPrice: { amount: '1200' } }, ticket: 'B2-1' }, false, 'body', lookup)).toEqual([
      'body.booking.id: different value (expected "B1", got "B2")',
      'body.booking.confirmedPrice.amount: different value (expected 1200, got "1200")',
      'body.ticket: different value (expected "B1-1", got "B2-1")',
    ]);
    expect(signalboxMatch({ id: '${never}' }, { id: 'B1' }, false, 'body', lookup)).toEqual(['body: ${never} was not saved by an earlier request']);
  });
});
