import { z } from 'zod';
import { DATE_TIME_WITH_OFFSET } from './time.ts';
import type { CompiledDecision, Condition } from './decision.ts';
import { expressionsIn, factsOf } from './expressions.ts';
import { INSTANT } from './facts.ts';
import { isInstantRef, timeOperatorNames } from './operators.ts';
import { IsoDuration, type DecisionFile } from './schemas.ts';
import type { SourceFile } from './source.ts';

/**
 * Static checks of one decision table against its facts, each problem as `file:line:col: message`:
 * unknown facts, operator/type mismatches, `otherwise` not last, overlaps and gaps in `unique` tables,
 * unreachable rows in `first` tables, and the table's own examples.
 */
export type FactKind =
  { kind: 'number'; min: number; max: number } | { kind: 'enum'; values: readonly string[] } | { kind: 'boolean' } | { kind: 'string' } | { kind: 'instant' };

export function kindOf(declared: z.ZodType): FactKind {
  // A fact with a declared default (facts.ts) is its inner type.
  const schema = declared instanceof z.ZodDefault ? (declared.def.innerType as z.ZodType) : declared;
  if (schema.description === INSTANT) return { kind: 'instant' };
  if (schema instanceof z.ZodNumber) {
    const min = Number.isFinite(schema.minValue) ? (schema.minValue as number) : -1e9;
    const max = Number.isFinite(schema.maxValue) ? (schema.maxValue as number) : 1e9;
    return { kind: 'number', min, max };
  }
  if (schema instanceof z.ZodEnum) return { kind: 'enum', values: schema.options as string[] };
  if (schema instanceof z.ZodBoolean) return { kind: 'boolean' };
  return { kind: 'string' };
}

export function describe(kind: FactKind): string {
  return kind.kind === 'enum' ? `one of ${kind.values.join(', ')}` : kind.kind === 'instant' ? 'an instant (ISO 8601 date-time with offset)' : `a ${kind.kind}`;
}

function checkValue(fact: string, kind: FactKind, c: Condition, kinds: Record<string, FactKind>): string | undefined {
  if ((timeOperatorNames as readonly string[]).includes(c.operator)) {
    if (kind.kind !== 'instant') return `${c.operator} compares instants, but ${fact} is ${describe(kind)}`;
    if (typeof c.value === 'string')
      return Number.isNaN(Date.parse(c.value)) || !DATE_TIME_WITH_OFFSET.test(c.value)
        ? `${JSON.stringify(c.value)} is not an ISO 8601 date-time with offset`
        : undefined;
    if (!isInstantRef(c.value)) return `${c.operator} needs an instant or { fact, plus?, minus? }`;
    const ref = kinds[c.value.fact];
    if (!ref) return `unknown fact "${c.value.fact}"`;
    if (ref.kind !== 'instant') return `${c.operator} compares instants, but ${c.value.fact} is ${describe(ref)}`;
    for (const d of [c.value.plus, c.value.minus])
      if (d !== undefined && !IsoDuration.safeParse(d).success) return `${JSON.stringify(d)} is not an ISO 8601 duration (PT24H, P1D)`;
    return undefined;
  }
  if (kind.kind === 'instant') return `${fact} is an instant: compare it with before, after, notBefore or notAfter`;
  const list = c.operator === 'in' || c.operator === 'notIn';
  if (c.operator === 'contains' || c.operator === 'doesNotContain') return `${c.operator} needs a list-valued fact; ${fact} is ${describe(kind)}`;
  const values = list ? c.value : [c.value];
  if (!Array.isArray(values)) return `${c.operator} needs a list of values, got ${JSON.stringify(c.value)}`;
  const numeric = ['lessThan', 'lessThanInclusive', 'greaterThan', 'greaterThanInclusive'].includes(c.operator);
  if (numeric && kind.kind !== 'number') return `${c.operator} compares numbers, but ${fact} is ${describe(kind)}`;
  for (const v of values) {
    if (kind.kind === 'number' && typeof v !== 'number') return `${fact} is a number; ${JSON.stringify(v)} is not`;
    if (kind.kind === 'boolean' && typeof v !== 'boolean') return `${fact} is true or false; ${JSON.stringify(v)} is not`;
    if (kind.kind === 'enum' && !kind.values.includes(v as string)) return `${fact} is ${describe(kind)}; ${JSON.stringify(v)} is not`;
    if (kind.kind === 'string' && typeof v !== 'string') return `${fact} is a string; ${JSON.stringify(v)} is not`;
  }
  return undefined;
}

/** Candidate values per fact: every boundary a row names, and its neighbours; enums and booleans in full. */
function candidates(kind: FactKind, conditions: Condition[]): unknown[] {
  if (kind.kind === 'instant') return ['2026-01-01T00:00:00Z'];
  if (kind.kind === 'enum') return [...kind.values];
  if (kind.kind === 'boolean') return [true, false];
  if (kind.kind === 'string') return [...new Set(conditions.flatMap((c) => (Array.isArray(c.value) ? (c.value as unknown[]) : [c.value]))), '\u0000other'];
  const points = new Set<number>([kind.min]);
  for (const c of conditions)
    for (const v of Array.isArray(c.value) ? c.value : [c.value]) {
      if (typeof v === 'number') for (const p of [v - 1, v, v + 1]) if (p >= kind.min && p <= kind.max) points.add(p);
    }
  if (kind.max < 1e9) points.add(kind.max);
  return [...points].sort((a, b) => a - b);
}

function* product(keys: string[], values: unknown[][], at = 0, acc: Record<string, unknown> = {}): Generator<Record<string, unknown>> {
  if (at === keys.length) {
    yield { ...acc };
    return;
  }
  for (const v of values[at]!) {
    acc[keys[at]!] = v;
    yield* product(keys, values, at + 1, acc);
  }
}

const MAX_COMBINATIONS = 200_000;

export const overlapMessage = (a: string, b: string, facts: Record<string, unknown>) =>
  `rows "${a}" and "${b}" overlap (both match ${JSON.stringify(facts)}); a unique table needs exactly one row per case`;
export const gapMessage = (facts: Record<string, unknown>) => `no row matches ${JSON.stringify(facts)}; add a row or an \`otherwise\` row`;

/** What the exhaustive look over a table's boundary values finds: rows indexed as the table lists them. */
export interface CasesLookedOver {
  /** The first case no row matches (not for `collect` tables, where no row is an answer). */
  gap?: Record<string, unknown>;
  /** Rows of a `unique` table that match one case together, with the first such case. */
  overlaps: Array<{ rows: [number, number]; facts: Record<string, unknown> }>;
  /** Rows of a `first` table that earlier rows always beat. */
  unreached: number[];
  /** The facts the rows test: the others do not change what the table decides. */
  tested: string[];
}

/**
 * Every combination of the boundary values each fact's conditions name, asked of the rows; undefined when the
 * combinations are too many, or when the rows compare instants, which boundary values cannot cover (those tables
 * rely on their examples and the oracle property instead).
 */
export function lookOverCases(table: DecisionFile, compiled: CompiledDecision, kinds: Record<string, FactKind>): CasesLookedOver | undefined {
  const keys = Object.keys(kinds);
  const all = compiled.rows.flatMap((r) => r.conditions);
  const values = keys.map((k) =>
    candidates(
      kinds[k]!,
      all.filter((c) => c.fact === k),
    ),
  );
  const size = values.reduce((n, v) => n * v.length, 1);
  if (size > MAX_COMBINATIONS || all.some((c) => kinds[c.fact]?.kind === 'instant')) return undefined;
  const reached = new Set<number>();
  let gap: Record<string, unknown> | undefined;
  const overlaps = new Map<string, Record<string, unknown>>();
  for (const facts of product(keys, values)) {
    const matching = compiled.rows.filter((r) => r.firstFailing(facts) === -1).map((r) => r.index);
    if (matching.length === 0 && !gap) gap = facts;
    if (table.hitPolicy === 'first' && matching.length > 0) reached.add(matching[0]!);
    if (table.hitPolicy !== 'first') matching.forEach((m) => reached.add(m));
    if (table.hitPolicy === 'unique' && matching.length > 1) {
      const key = matching.join(',');
      if (!overlaps.has(key)) overlaps.set(key, facts);
    }
  }
  return {
    ...(gap && table.hitPolicy !== 'collect' ? { gap } : {}),
    overlaps: [...overlaps].map(([key, facts]) => ({ rows: key.split(',').map(Number).slice(0, 2) as [number, number], facts })),
    unreached: table.hitPolicy === 'first' ? table.rows.map((_, i) => i).filter((i) => !reached.has(i)) : [],
    tested: [...new Set(all.map((c) => c.fact))],
  };
}

/** `partial`: some rows or examples were left out (their schema problems are reported apart), so the table as a whole is not judged. */
export function checkDecision(table: DecisionFile, compiled: CompiledDecision, source: SourceFile, facts: z.ZodObject | undefined, partial = false): string[] {
  const problems: string[] = [];
  const p = (path: PropertyKey[], message: string) => problems.push(`${source.at(path)}: ${message}`);
  if (!facts) {
    p(['decision'], `no decision called "${table.decision}" is known; the fact catalogue declares its facts (engine/rules/facts.ts)`);
    return problems;
  }
  const kinds = Object.fromEntries(Object.entries(facts.shape).map(([k, s]) => [k, kindOf(s as z.ZodType)]));

  const ids = new Map<string, number>();
  table.rows.forEach((row, i) => {
    if (ids.has(row.id)) p(['rows', i, 'id'], `duplicate row id "${row.id}" (first at row ${ids.get(row.id)! + 1})`);
    ids.set(row.id, i);
    if (row.otherwise && row.when) p(['rows', i, 'otherwise'], 'a row is either `otherwise` or has `when`, not both');
    if (!row.otherwise && !row.when) p(['rows', i], 'a row needs `when` (or `otherwise: true` as the last row)');
    if (row.otherwise && i !== table.rows.length - 1) p(['rows', i, 'otherwise'], 'the `otherwise` row must be the last row');
    for (const [fact, test] of Object.entries(row.when ?? {})) {
      if (!kinds[fact]) p(['rows', i, 'when', fact], `unknown fact "${fact}"; ${table.decision} knows ${Object.keys(kinds).join(', ')}`);
      if (test !== null && typeof test === 'object' && 'between' in test) {
        const b = (test as { between: unknown }).between;
        if (!Array.isArray(b) || b.length !== 2 || b.some((x) => typeof x !== 'number'))
          p(['rows', i, 'when', fact, 'between'], 'between needs [low, high], two numbers');
      }
    }
  });
  for (const row of compiled.rows)
    for (const c of row.conditions) {
      const kind = kinds[c.fact];
      if (!kind) continue;
      const wrong = checkValue(c.fact, kind, c, kinds);
      if (wrong) problems.push(`${c.at}: ${wrong}`);
    }
  table.rows.forEach((row, i) => {
    for (const { path, expr } of expressionsIn(row.then)) {
      for (const f of factsOf(expr)) {
        if (!kinds[f]) p(['rows', i, 'then', ...path], `unknown fact "${f}" in a date expression`);
        else if (kinds[f].kind !== 'instant') p(['rows', i, 'then', ...path], `${f} is ${describe(kinds[f])}; date expressions need instants`);
      }
    }
  });
  // A row with a wrong fact or value would make every finding below an echo of it: the look over the cases and
  // the examples' verdicts wait for sound rows, while examples whose facts are wrong are still named now.
  const rowsSound = problems.length === 0 && !partial;

  if (rowsSound) {
    const look = lookOverCases(table, compiled, kinds);
    for (const o of look?.overlaps ?? []) {
      p(['rows', o.rows[1]], overlapMessage(table.rows[o.rows[0]]!.id, table.rows[o.rows[1]]!.id, o.facts));
    }
    if (look?.gap) p(['rows'], gapMessage(look.gap));
    for (const i of look?.unreached ?? []) p(['rows', i], `row "${table.rows[i]!.id}" can never fire: earlier rows take every case it matches`);
  }

  table.examples.forEach((ex, i) => {
    const parsed = facts.safeParse(ex.given);
    if (!parsed.success) {
      p(
        ['examples', i, 'given'],
        `example facts do not fit ${table.decision}: ${parsed.error.issues.map((x) => `${x.path.join('.') || '(root)'} ${x.message}`).join('; ')}`,
      );
      return;
    }
    if (!rowsSound) return;
    const result = compiled.evaluate(parsed.data);
    if (ex.expect === 'no-row') {
      if (result.outcome !== undefined) p(['examples', i, 'expect'], `example expects no row, but row "${result.trace.fired[0]!.row}" fired`);
      return;
    }
    const got = (table.hitPolicy === 'collect' ? Object.assign({}, ...result.outcomes) : result.outcome) as Record<string, unknown> | undefined;
    const wrong = Object.entries(ex.expect).filter(([k, v]) => JSON.stringify(got?.[k]) !== JSON.stringify(v));
    if (!got || wrong.length > 0) {
      const fired = result.trace.fired.map((f) => f.row).join(', ') || 'none';
      p(
        ['examples', i, 'expect'],
        `example fails: expected ${wrong.map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join(', ') || JSON.stringify(ex.expect)}, got ${got ? wrong.map(([k]) => `${k} = ${JSON.stringify(got[k])}`).join(', ') : 'no row'} (row fired: ${fired})`,
      );
    }
  });
  return problems;
}
