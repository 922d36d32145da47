import type { RuleProperties } from 'json-rules-engine';
import { z } from 'zod';
import { hasExpressions, resolveThen } from './expressions.ts';
import {
  isInstantRef,
  jreOperators,
  jreTimeOperatorName,
  offsetOf,
  timeOperatorNames,
  timeTest,
  type JreOperator,
  type OperatorName,
  type TimeOperator,
} from './operators.ts';
import { DecisionFile } from './schemas.ts';
import type { SourceFile } from './source.ts';

/**
 * A decision table compiled twice from one YAML file:
 * - to json-rules-engine rules (`jsonRules`), the reference semantics, used as the oracle in tests;
 * - to synchronous closures (`evaluate`), the hot path: same outcomes, a few hundred times cheaper.
 */

export interface Condition {
  readonly fact: string;
  readonly operator: OperatorName;
  /** A literal, or for time operators `{ fact, plus?, minus? }` naming another fact. */
  readonly value: unknown;
  /** `file:line:col` of the test in the YAML. */
  readonly at: string;
  /** The test as the file writes it (`NONE`, `{ between: [16, 64] }`): `between` compiles to two conditions with one. */
  readonly written: unknown;
}

interface CompiledRow {
  readonly id: string;
  readonly index: number;
  readonly at: string;
  readonly otherwise: boolean;
  readonly conditions: readonly Condition[];
  readonly then: Readonly<Record<string, unknown>>;
  /** The `then` with its date expressions worked out for these facts. */
  readonly resolve: (facts: Readonly<Record<string, unknown>>) => Readonly<Record<string, unknown>>;
  /** -1 when every condition holds, else the index of the first that fails. */
  readonly firstFailing: (facts: Readonly<Record<string, unknown>>) => number;
}

/**
 * What a decision returns every time: which rows gave the outcome, with the facts it saw. The sandbox answers
 * traces as they are (GET /sandbox/traces), so the OpenAPI document names this schema.
 */
export const DecisionTrace = z.strictObject({
  decision: z.string(),
  file: z.string(),
  hitPolicy: DecisionFile.shape.hitPolicy,
  facts: z.record(z.string(), z.unknown()),
  fired: z.array(z.strictObject({ row: z.string(), at: z.string().describe('file:line:col') })).readonly(),
  release: z.string().optional().describe('The rule release that decided (docs/releases.md); absent when the rules the server started with did.'),
});
export type DecisionTrace = Readonly<z.infer<typeof DecisionTrace>>;

export interface DecisionResult<O = Record<string, unknown>> {
  /** The `then` of the row that fired (first / unique), or undefined when none did. */
  readonly outcome: O | undefined;
  /** collect: the `then` of every row that fired, in row order. */
  readonly outcomes: readonly O[];
  readonly trace: DecisionTrace;
}

interface ConditionExplanation {
  fact: string;
  operator: OperatorName;
  expected: unknown;
  /** The test as the file writes it; the two halves of a `between` share it, and their `at`. */
  written: unknown;
  actual: unknown;
  /** For a comparison with another fact: that fact's value. */
  against?: unknown;
  passed: boolean;
  at: string;
}
interface RowExplanation {
  row: string;
  at: string;
  fired: boolean;
  conditions: ConditionExplanation[];
  firstFailed?: ConditionExplanation;
}
/** The long form of a trace, for `signalbox explain`: every row, every condition, the actual fact values. */
export interface Explanation {
  decision: string;
  title: string;
  file: string;
  hitPolicy: DecisionFile['hitPolicy'];
  facts: Record<string, unknown>;
  outcome: unknown;
  rows: RowExplanation[];
}

export interface CompiledDecision {
  readonly name: string;
  readonly title: string;
  readonly file: string;
  /** The sections of the operator's document the table follows (`§2.9`), when it names them. */
  readonly spec?: string;
  readonly hitPolicy: DecisionFile['hitPolicy'];
  readonly rows: readonly CompiledRow[];
  evaluate<O = Record<string, unknown>>(facts: Readonly<Record<string, unknown>>): DecisionResult<O>;
  explain(facts: Readonly<Record<string, unknown>>): Explanation;
  jsonRules(): RuleProperties[];
  /** The custom operators json-rules-engine needs for this table's time conditions. */
  jsonOperators(): Array<{ name: string; test: (actual: unknown, expected: unknown) => boolean }>;
}

/** The test a condition makes, as a closure over the fact values. */
export function conditionTest(c: Condition): (facts: Readonly<Record<string, unknown>>) => boolean {
  if ((timeOperatorNames as readonly string[]).includes(c.operator)) {
    const op = c.operator as TimeOperator;
    if (isInstantRef(c.value)) {
      const test = timeTest(op, offsetOf(c.value));
      const ref = c.value.fact;
      return (facts) => test(facts[c.fact], facts[ref]);
    }
    const test = timeTest(op, 0);
    return (facts) => test(facts[c.fact], c.value);
  }
  const holds = jreOperators[c.operator as JreOperator];
  return (facts) => holds(facts[c.fact], c.value);
}

/** The same condition in json-rules-engine's terms; time operators become custom operators (see operators.ts). */
function jreCondition(c: Condition): { fact: string; operator: string; value: unknown } {
  if ((timeOperatorNames as readonly string[]).includes(c.operator)) {
    const op = c.operator as TimeOperator;
    return isInstantRef(c.value)
      ? { fact: c.fact, operator: jreTimeOperatorName(op, offsetOf(c.value)), value: { fact: c.value.fact } }
      : { fact: c.fact, operator: op, value: c.value };
  }
  return { fact: c.fact, operator: c.operator, value: c.value };
}

/** Turns the `when` of a row into json-rules-engine conditions; `between: [a, b]` becomes two. */
function conditionsOf(table: DecisionFile, rowIndex: number, source: SourceFile): Condition[] {
  const row = table.rows[rowIndex]!;
  const out: Condition[] = [];
  for (const [fact, test] of Object.entries(row.when ?? {})) {
    const path = ['rows', rowIndex, 'when', fact];
    if (test === null || typeof test !== 'object') {
      out.push({ fact, operator: 'equal', value: test, at: source.at(path), written: test });
      continue;
    }
    for (const [op, value] of Object.entries(test)) {
      const at = source.at([...path, op]);
      const written = { [op]: value };
      if (op === 'between') {
        const [lo, hi] = value as [unknown, unknown];
        out.push({ fact, operator: 'greaterThanInclusive', value: lo, at, written });
        out.push({ fact, operator: 'lessThanInclusive', value: hi, at, written });
      } else {
        out.push({ fact, operator: op as OperatorName, value, at, written });
      }
    }
  }
  return out;
}

export function compileDecision(table: DecisionFile, source: SourceFile): CompiledDecision {
  const rows: CompiledRow[] = table.rows.map((row, index) => {
    const conditions = conditionsOf(table, index, source);
    const tests = conditions.map(conditionTest);
    const n = tests.length;
    return {
      id: row.id,
      index,
      at: source.at(['rows', index]),
      otherwise: row.otherwise === true,
      conditions,
      then: row.then,
      resolve: hasExpressions(row.then) ? (facts) => resolveThen(row.then, facts) : () => row.then,
      firstFailing: (facts) => {
        for (let i = 0; i < n; i++) if (!tests[i]!(facts)) return i;
        return -1;
      },
    };
  });
  const name = table.decision;
  const file = source.file;
  const hitPolicy = table.hitPolicy;
  const firstOnly = hitPolicy === 'first';

  function evaluate<O>(facts: Readonly<Record<string, unknown>>): DecisionResult<O> {
    const fired: Array<{ row: string; at: string }> = [];
    const outcomes: O[] = [];
    for (const row of rows) {
      if (row.firstFailing(facts) !== -1) continue;
      fired.push({ row: row.id, at: row.at });
      outcomes.push(row.resolve(facts) as O);
      if (firstOnly) break;
    }
    return { outcome: outcomes[0], outcomes, trace: { decision: name, file, hitPolicy, facts, fired } };
  }

  function explain(facts: Readonly<Record<string, unknown>>): Explanation {
    const result = evaluate(facts);
    const firedIds = new Set(result.trace.fired.map((f) => f.row));
    return {
      decision: name,
      title: table.title,
      file,
      hitPolicy,
      facts: { ...facts },
      outcome: hitPolicy === 'collect' ? result.outcomes : (result.outcome ?? null),
      rows: rows.map((row) => {
        const conditions = row.conditions.map((c) => ({
          fact: c.fact,
          operator: c.operator,
          expected: c.value,
          written: c.written,
          actual: facts[c.fact],
          ...(isInstantRef(c.value) ? { against: facts[c.value.fact] } : {}),
          passed: conditionTest(c)(facts),
          at: c.at,
        }));
        const firstFailed = conditions.find((c) => !c.passed);
        return { row: row.id, at: row.at, fired: firedIds.has(row.id), conditions, ...(firstFailed ? { firstFailed } : {}) };
      }),
    };
  }

  function jsonRules(): RuleProperties[] {
    return rows.map((row) => ({
      name: row.id,
      // json-rules-engine runs higher priorities first; row order is kept by descending priority.
      priority: rows.length - row.index,
      conditions: { all: row.conditions.map(jreCondition) },
      event: { type: row.id, params: { ...row.then } },
    }));
  }

  function jsonOperators() {
    const seen = new Map<string, (actual: unknown, expected: unknown) => boolean>();
    for (const c of rows.flatMap((r) => r.conditions)) {
      if (!(timeOperatorNames as readonly string[]).includes(c.operator)) continue;
      const offset = isInstantRef(c.value) ? offsetOf(c.value) : 0;
      seen.set(jreTimeOperatorName(c.operator as TimeOperator, offset), timeTest(c.operator as TimeOperator, offset));
    }
    return [...seen].map(([name, test]) => ({ name, test }));
  }

  return { name, title: table.title, file, ...(table.spec ? { spec: table.spec } : {}), hitPolicy, rows, evaluate, explain, jsonRules, jsonOperators };
}
