import { isInstantRef, offsetOf } from './operators.ts';

/**
 * Date arithmetic in a row's `then` (DESIGN "Rules": on-hold and cleanup arithmetic live in YAML):
 *   { fact: createdOn, plus: PT24H }      an instant fact moved by a duration
 *   { earliest: [ …, … ] }                the earliest of several instants
 *   { latest: [ …, … ] }                  the latest of several instants
 * Anything else is a literal. Results are ISO 8601 instants in UTC.
 */
type Expression = { fact: string; plus?: string; minus?: string } | { earliest: unknown[] } | { latest: unknown[] };

function isExpression(v: unknown): v is Expression {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  return isInstantRef(v) || (keys.length === 1 && (keys[0] === 'earliest' || keys[0] === 'latest') && Array.isArray((v as Record<string, unknown>)[keys[0]]));
}

function instantOf(expr: unknown, facts: Readonly<Record<string, unknown>>): number {
  if (typeof expr === 'string') return Date.parse(expr);
  if (isInstantRef(expr)) return Date.parse(String(facts[expr.fact])) + offsetOf(expr);
  const e = expr as { earliest?: unknown[]; latest?: unknown[] };
  const values = (e.earliest ?? e.latest ?? []).map((x) => instantOf(x, facts));
  return e.earliest ? Math.min(...values) : Math.max(...values);
}

function evaluateExpression(expr: Expression, facts: Readonly<Record<string, unknown>>): string {
  const t = instantOf(expr, facts);
  return Number.isNaN(t) ? 'Invalid Date' : new Date(t).toISOString();
}

/** The facts an expression reads, for load-time checks. */
export function factsOf(expr: unknown): string[] {
  if (isInstantRef(expr)) return [expr.fact];
  if (isExpression(expr)) return (Object.values(expr)[0] as unknown[]).flatMap((x: unknown) => factsOf(x));
  return [];
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Resolves the expressions of a `then`, at any depth (e.g. inside `params`). */
export function resolveThen(then: Readonly<Record<string, unknown>>, facts: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(then)) {
    out[k] = isExpression(v) ? evaluateExpression(v, facts) : isPlainObject(v) ? resolveThen(v, facts) : v;
  }
  return out;
}

export const hasExpressions = (then: Readonly<Record<string, unknown>>): boolean =>
  Object.values(then).some((v) => isExpression(v) || (isPlainObject(v) && hasExpressions(v)));

/** Every expression of a `then`, with its key path, for load-time checks. */
export function expressionsIn(then: Readonly<Record<string, unknown>>, path: string[] = []): Array<{ path: string[]; expr: Expression }> {
  return Object.entries(then).flatMap(([k, v]) =>
    isExpression(v) ? [{ path: [...path, k], expr: v }] : isPlainObject(v) ? expressionsIn(v, [...path, k]) : [],
  );
}

/** The `then` with every expression replaced by `value`, to validate its shape without facts. */
export function withExpressionsAs(then: Readonly<Record<string, unknown>>, value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(then)) out[k] = isExpression(v) ? value : isPlainObject(v) ? withExpressionsAs(v, value) : v;
  return out;
}
