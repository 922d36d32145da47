import type { z } from 'zod';
import { gapMessage, kindOf, lookOverCases, overlapMessage } from './check.ts';
import { compileDecision, type CompiledDecision } from './decision.ts';
import { factCatalogue, type DecisionName } from './facts.ts';
import { DecisionFile } from './schemas.ts';
import { parseSource, RuleFileError } from './source.ts';

/**
 * The cases `check` finds no row or two rows for, in one decision table's file, each with the ways the table as
 * written could be read for it: a gap read as no row firing; an overlap read with either of its two rows deciding
 * (the engine takes the first). Each reading is the table compiled without check, for tools that show what the
 * edit would answer there (`signalbox check --suggest`, the studio); none of it is ever served.
 */
export interface CaseFinding {
  kind: 'gap' | 'overlap';
  decision: DecisionName;
  /** The ids of the two rows that overlap; none for a gap. */
  rows: string[];
  /** The case, as check reports it. */
  facts: Record<string, unknown>;
  /** The facts the table's rows test: a request reaches the case when the decision is asked these as `facts` has them. */
  tested: string[];
  /** Where check reports it (`file:line:col`), and what it says. */
  at: string;
  message: string;
  readings: Array<{ says: string; table: CompiledDecision }>;
}

export function caseFindings(file: string, text: string): CaseFinding[] {
  let source;
  try {
    source = parseSource(file, text);
  } catch (e) {
    if (e instanceof RuleFileError) return [];
    throw e;
  }
  const parsed = DecisionFile.safeParse(source.data);
  if (!parsed.success || !Object.hasOwn(factCatalogue, parsed.data.decision)) return [];
  const table = parsed.data;
  const decision = table.decision as DecisionName;
  const kinds = Object.fromEntries(Object.entries(factCatalogue[decision].shape).map(([k, s]) => [k, kindOf(s as z.ZodType)]));
  const compiled = compileDecision(table, source);
  const look = lookOverCases(table, compiled, kinds);
  if (!look) return [];
  const out: CaseFinding[] = look.overlaps.map(({ rows: [a, b], facts }) => {
    const [first, second] = [table.rows[a]!, table.rows[b]!];
    const secondFirst = { ...table, rows: table.rows.map((r, i) => (i === a ? second : i === b ? first : r)) };
    return {
      kind: 'overlap',
      decision,
      rows: [first.id, second.id],
      facts,
      tested: look.tested,
      at: source.at(['rows', b]),
      message: overlapMessage(first.id, second.id, facts),
      readings: [
        { says: `row "${first.id}" deciding`, table: compiled },
        { says: `row "${second.id}" deciding`, table: compileDecision(secondFirst, source) },
      ],
    };
  });
  if (look.gap)
    out.push({
      kind: 'gap',
      decision,
      rows: [],
      facts: look.gap,
      tested: look.tested,
      at: source.at(['rows']),
      message: gapMessage(look.gap),
      readings: [{ says: 'no row deciding', table: compiled }],
    });
  return out;
}
