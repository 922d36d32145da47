import { durationMs } from './time.ts';

/**
 * The operators a decision table may use. The first ten are json-rules-engine's own, reproduced exactly
 * (src/engine-default-operators.js); the four time operators compare instants and are registered with
 * json-rules-engine as custom operators, so the oracle and the compiled evaluator share one meaning.
 */
export const jreOperatorNames = [
  'equal',
  'notEqual',
  'lessThan',
  'lessThanInclusive',
  'greaterThan',
  'greaterThanInclusive',
  'in',
  'notIn',
  'contains',
  'doesNotContain',
] as const;
export const timeOperatorNames = ['before', 'after', 'notBefore', 'notAfter'] as const;
export type JreOperator = (typeof jreOperatorNames)[number];
export type TimeOperator = (typeof timeOperatorNames)[number];
export type OperatorName = JreOperator | TimeOperator;

const isNumeric = (v: unknown) => Number.parseFloat(v as string).toString() !== 'NaN';
export const jreOperators: Record<JreOperator, (actual: unknown, expected: unknown) => boolean> = {
  equal: (a, b) => a === b,
  notEqual: (a, b) => a !== b,
  in: (a, b) => Array.isArray(b) && b.indexOf(a) > -1,
  notIn: (a, b) => Array.isArray(b) && b.indexOf(a) === -1,
  contains: (a, b) => Array.isArray(a) && a.indexOf(b) > -1,
  doesNotContain: (a, b) => Array.isArray(a) && a.indexOf(b) === -1,
  lessThan: (a, b) => isNumeric(a) && (a as number) < (b as number),
  lessThanInclusive: (a, b) => isNumeric(a) && (a as number) <= (b as number),
  greaterThan: (a, b) => isNumeric(a) && (a as number) > (b as number),
  greaterThanInclusive: (a, b) => isNumeric(a) && (a as number) >= (b as number),
};

const compareInstants: Record<TimeOperator, (a: number, b: number) => boolean> = {
  before: (a, b) => a < b,
  after: (a, b) => a > b,
  notBefore: (a, b) => a >= b,
  notAfter: (a, b) => a <= b,
};

/** `when: { now: { before: { fact: departure, minus: PT24H } } }`: compare with another fact moved by a duration. */
interface InstantRef {
  fact: string;
  plus?: string;
  minus?: string;
}
export const isInstantRef = (v: unknown): v is InstantRef =>
  !!v && typeof v === 'object' && typeof (v as InstantRef).fact === 'string' && Object.keys(v).every((k) => ['fact', 'plus', 'minus'].includes(k));

export function offsetOf(ref: InstantRef): number {
  return (ref.plus ? durationMs(ref.plus) : 0) - (ref.minus ? durationMs(ref.minus) : 0);
}

const instant = (v: unknown) => (typeof v === 'string' ? Date.parse(v) : Number.NaN);

/** A time operator with its offset, as json-rules-engine sees it: `before@-86400000` against `{ fact: departure }`. */
export function jreTimeOperatorName(operator: TimeOperator, offsetMs: number): string {
  return offsetMs === 0 ? operator : `${operator}@${offsetMs}`;
}

export function timeTest(operator: TimeOperator, offsetMs: number): (actual: unknown, expected: unknown) => boolean {
  const cmp = compareInstants[operator];
  return (actual, expected) => {
    const a = instant(actual);
    const b = instant(expected);
    return !Number.isNaN(a) && !Number.isNaN(b) && cmp(a, b + offsetMs);
  };
}
