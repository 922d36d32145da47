import { parse as parseCsv } from 'csv-parse/sync';
import { boundaryCasesOf, createEngine, FactsError, type DecisionName, type Engine, type RuleSet } from '../../engine/index.ts';

/** One case of a simulation: the facts given, and the row that decided with its outcome (or why it could not run). */
export interface SimulatedCase {
  facts: Record<string, unknown>;
  row: string | null;
  at: string | null;
  outcome: unknown;
  problem?: string;
}

/** Runs one decision over many fact rows, through the engine's `explain` (facts checked, defaults applied). */
export function simulateCases(engine: Engine, decision: string, cases: ReadonlyArray<Record<string, unknown>>): SimulatedCase[] {
  return cases.map((facts) => {
    try {
      const x = engine.explain(decision, facts);
      const fired = x.rows.filter((r) => r.fired);
      return { facts: x.facts, row: fired.map((r) => r.row).join(', ') || null, at: fired[0]?.at ?? null, outcome: x.outcome };
    } catch (e) {
      if (!(e instanceof FactsError)) throw e;
      return { facts, row: null, at: null, outcome: null, problem: e.problems.join('; ') };
    }
  });
}

/** The boundary cases of the decision (both rule sets' bounds) on which the two rule sets decide differently. */
export function differingCases(original: RuleSet, other: RuleSet, decision: DecisionName): Array<Record<string, unknown>> {
  const cases = boundaryCasesOf(other, decision, original);
  const a = simulateCases(createEngine({ rules: original }), decision, cases);
  const b = simulateCases(createEngine({ rules: other }), decision, cases);
  return cases.filter((_, i) => JSON.stringify(a[i]!.outcome) !== JSON.stringify(b[i]!.outcome));
}

/** Fact rows from CSV text: a header row of fact names; numbers and true/false read as such, empty cells left out. */
export function casesFromCsv(text: string): Array<Record<string, unknown>> {
  const rows = parseCsv<Record<string, unknown>>(text, {
    columns: true,
    skip_empty_lines: true,
    trim: true,
    cast: (value) => (value === 'true' ? true : value === 'false' ? false : value === '' ? undefined : /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value),
  });
  return rows.map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)));
}
