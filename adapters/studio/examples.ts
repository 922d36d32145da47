import { createEngine, type DecisionName, type RuleSet, type RuleSource } from '../../engine/index.ts';
import { parseSource } from '../../engine/rules/index.ts';
import { compiledWith, withoutExamples } from '../analysis/edited-rules.ts';
import { simulateCases } from '../analysis/simulate.ts';
import type { EditCheck } from '../http/openapi/studio-schemas.ts';

type ExampleResult = EditCheck['examples'][number];
interface Example {
  given: Record<string, unknown>;
  expect: Record<string, unknown> | 'no-row';
}

/**
 * What the edited rules decide for each of the table's examples, and whether that is what the example expects (as
 * `check` compares them: the keys the example names). A failing example stops `check`, so its rules are compiled again
 * without the table's examples to see what they would decide instead: the page offers that as the new expectation.
 */
export function exampleResults(sources: readonly RuleSource[], file: string, text: string, decision: DecisionName, checked?: RuleSet): ExampleResult[] {
  const examples = (parseSource(file, text).data as { examples?: Example[] } | null)?.examples ?? [];
  if (examples.length === 0) return [];
  const rules = checked ?? compiledWith(sources, file, withoutExamples(text)).rules;
  if (!rules) return [];
  const decided = simulateCases(
    createEngine({ rules }),
    decision,
    examples.map((e) => e.given),
  );
  return examples.map((e, i) => {
    const { row, outcome, problem } = decided[i]!;
    if (problem) return { passed: false, row: null, outcome: null };
    const got = (outcome ?? undefined) as Record<string, unknown> | undefined;
    const passed =
      e.expect === 'no-row' ? row === null : got !== undefined && Object.entries(e.expect).every(([k, v]) => JSON.stringify(got[k]) === JSON.stringify(v));
    return { passed, row, outcome: outcome ?? null };
  });
}
