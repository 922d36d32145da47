import type { RuleProperties } from 'json-rules-engine';
import type { DecisionFile } from './schemas.ts';
import type { SourceFile } from './source.ts';

/**
 * A decision table compiled twice from one YAML file:
 * - to json-rules-engine rules (`jsonRules`), the reference semantics, used as the oracle in tests;
 * - to synchronous closures (`evaluate`), the hot path: same outcomes, a few hundred times cheaper.
 */

/** The operators of json-rules-engine that tables may use (`between` is sugar for two of them). */
export type JreOperator =
  | 'equal' | 'notEqual' | 'lessThan' | 'lessThanInclusive' | 'greaterThan' | 'greaterThanInclusive'
  | 'in' | 'notIn' | 'contains' | 'doesNotContain';

export interface Condition {
  readonly fact: string;
  readonly operator: JreOperator;
  readonly value: unknown;
  /** `file:line:col` of the test in the YAML. */
  readonly at: string;
}

export interface CompiledRow {
  readonly id: string;
  readonly index: number;
  readonly at: string;
  readonly otherwise: boolean;
  readonly conditions: readonly Condition[];
  readonly then: Readonly<Record<string, unknown>>;
  /** -1 when every condition holds, else the index of the first that fails. */
  readonly firstFailing: (facts: Readonly<Record<string, unknown>>) => number;
}

/** What a decision returns every time: the outcome and which row gave it, with the facts it saw. */
export interface DecisionTrace {
  readonly decision: string;
  readonly file: string;
  readonly hitPolicy: DecisionFile['hitPolicy'];
  readonly facts: Readonly<Record<string, unknown>>;
  readonly fired: ReadonlyArray<{ row: string; at: string }>;
}

export interface DecisionResult<O = Record<string, unknown>> {
  /** The `then` of the row that fired (first / unique), or undefined when none did. */
  readonly outcome: O | undefined;
  /** collect: the `then` of every row that fired, in row order. */
  readonly outcomes: readonly O[];
  readonly trace: DecisionTrace;
}

export interface ConditionExplanation {
  fact: string;
  operator: JreOperator;
  expected: unknown;
  actual: unknown;
  passed: boolean;
  at: string;
}
export interface RowExplanation {
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
  readonly hitPolicy: DecisionFile['hitPolicy'];
  readonly rows: readonly CompiledRow[];
  evaluate<O = Record<string, unknown>>(facts: Readonly<Record<string, unknown>>): DecisionResult<O>;
  explain(facts: Readonly<Record<string, unknown>>): Explanation;
  jsonRules(): RuleProperties[];
}

// The json-rules-engine operator semantics (src/engine-default-operators.js), reproduced exactly.
const isNumeric = (v: unknown) => Number.parseFloat(v as string).toString() !== 'NaN';
const operatorTests: Record<JreOperator, (actual: unknown, expected: unknown) => boolean> = {
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

export function operatorHolds(operator: JreOperator, actual: unknown, expected: unknown): boolean {
  return operatorTests[operator](actual, expected);
}

/** Turns the `when` of a row into json-rules-engine conditions; `between: [a, b]` becomes two. */
export function conditionsOf(table: DecisionFile, rowIndex: number, source: SourceFile): Condition[] {
  const row = table.rows[rowIndex]!;
  const out: Condition[] = [];
  for (const [fact, test] of Object.entries(row.when ?? {})) {
    const path = ['rows', rowIndex, 'when', fact];
    if (test === null || typeof test !== 'object') {
      out.push({ fact, operator: 'equal', value: test, at: source.at(path) });
      continue;
    }
    for (const [op, value] of Object.entries(test)) {
      const at = source.at([...path, op]);
      if (op === 'between') {
        const [lo, hi] = value as [unknown, unknown];
        out.push({ fact, operator: 'greaterThanInclusive', value: lo, at });
        out.push({ fact, operator: 'lessThanInclusive', value: hi, at });
      } else {
        out.push({ fact, operator: op as JreOperator, value, at });
      }
    }
  }
  return out;
}

export function compileDecision(table: DecisionFile, source: SourceFile): CompiledDecision {
  const rows: CompiledRow[] = table.rows.map((row, index) => {
    const conditions = conditionsOf(table, index, source);
    const tests = conditions.map(({ fact, operator, value }) => {
      const holds = operatorTests[operator];
      return (facts: Readonly<Record<string, unknown>>) => holds(facts[fact], value);
    });
    const n = tests.length;
    return {
      id: row.id,
      index,
      at: source.at(['rows', index]),
      otherwise: row.otherwise === true,
      conditions,
      then: row.then,
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
      outcomes.push(row.then as O);
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
          actual: facts[c.fact],
          passed: operatorTests[c.operator](facts[c.fact], c.value),
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
      conditions: { all: row.conditions.map(({ fact, operator, value }) => ({ fact, operator, value })) },
      event: { type: row.id, params: { ...row.then } },
    }));
  }

  return { name, title: table.title, file, hitPolicy, rows, evaluate, explain, jsonRules };
}
