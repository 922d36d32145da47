import type { DecisionName, RuleSet } from '../../engine/index.ts';
import { caseFindings, type CaseFinding } from '../../engine/rules/index.ts';
import { gridAndRandom, searchScenario, type SuggestOptions, type Suggestion } from './suggest.ts';
import { caseProbes } from './suggest-probes.ts';

/**
 * `check`'s gap and overlap findings in an edited table, each as a counterexample scenario: a request that asks the
 * decision the very case check names, pinning what the serving rules answer it. The edited table is not served
 * (check refuses it); the scenario is checked to fail on a reading of it (the overlap's either row deciding, the gap
 * no row), so it shows the analyst what the edit would change there, and it guards the case once the table is fixed.
 */
export interface Counterexample {
  finding: Pick<CaseFinding, 'kind' | 'decision' | 'rows' | 'facts' | 'at' | 'message'>;
  /** Which reading of the edited table the scenario tells apart from the serving rules. */
  reading?: string;
  suggestion?: Suggestion;
}

export async function counterexamples(serving: RuleSet, file: string, text: string, options: SuggestOptions): Promise<Counterexample[]> {
  const out: Counterexample[] = [];
  for (const f of caseFindings(file, text)) {
    const finding = { kind: f.kind, decision: f.decision, rows: f.rows, facts: f.facts, at: f.at, message: f.message };
    let found: Counterexample = { finding };
    if (Object.hasOwn(serving.decisions, f.decision))
      for (const reading of f.readings) {
        const suggestion = await searchScenario(serving, options, sought(serving, f, reading, options));
        if (suggestion) {
          found = { finding, reading: reading.says, suggestion };
          break;
        }
      }
    out.push(found);
  }
  return out;
}

/** The serving rules with the edited table, as one reading of it decides, in place of theirs: never served, only asked. */
export const withReading = (serving: RuleSet, f: CaseFinding, reading: CaseFinding['readings'][number]): RuleSet => ({
  ...serving,
  decisions: { ...serving.decisions, [f.decision]: reading.table },
});

function sought(serving: RuleSet, f: CaseFinding, reading: CaseFinding['readings'][number], options: SuggestOptions) {
  const decision: DecisionName = f.decision;
  const other = withReading(serving, f, reading);
  /** The case check names: the facts the rows test, as the finding has them (the others decide nothing here). */
  const wanted = (facts: Readonly<Record<string, unknown>>) => f.tested.every((k) => JSON.stringify(facts[k]) === JSON.stringify(f.facts[k]));
  const tested = Object.fromEntries(f.tested.map((k) => [k, f.facts[k]]));
  const words = Object.entries(tested)
    .map(([k, v]) => `${k} ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
  return {
    decision,
    other,
    wanted,
    phases: [({ trips, search }) => caseProbes(serving, [f.facts], trips, search), ...gridAndRandom(serving, options)],
    name: [decision, f.kind, ...(f.kind === 'overlap' ? f.rows : Object.entries(tested).flat().map(String))]
      .join('-')
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/-+/g, '-')
      .replace(/^-|-$/g, ''),
    title: f.kind === 'overlap' ? `${decision}: rows ${f.rows.join(' and ')} both match ${words}` : `${decision}: no row matches ${words}`,
    header: [
      'Written by `signalbox check --suggest`: a counterexample for what check found in an edited table.',
      `  ${f.at}: ${f.message}`,
      `The rules as they are answer this request as it expects; read with ${reading.says}, the edited table answers`,
      'otherwise. Keep it if this is the answer the spec wants once the table is fixed, or change its expectation to the',
      'answer the fixed table should give.',
    ],
  } satisfies Parameters<typeof searchScenario>[2];
}
