import { createEngine, type RuleSet } from '../../engine/index.ts';
import { DEMO_SECRETS } from '../harness/demo-secrets.ts';
import { scenarioFiles } from '../harness/files.ts';
import { runScenario } from '../harness/runner.ts';
import { inProcess } from '../harness/targets.ts';

/**
 * The scenario steps that fail on `rules`: the corpus run in-process as `signalbox test` runs it, with the scenario
 * texts a change would write in place of the files. A save from the studio is refused while this is not empty,
 * unless the analyst gives a reason.
 */
export async function failingSteps(rules: RuleSet, corpus: string[], texts: ReadonlyMap<string, string>): Promise<Array<{ scenario: string; step: string }>> {
  const target = inProcess(createEngine({ rules }));
  const failing: Array<{ scenario: string; step: string }> = [];
  for (const file of scenarioFiles(corpus)) {
    // Past a failing step, as the impact preview runs: both count the same steps.
    const result = await runScenario(file, target, { secrets: DEMO_SECRETS, texts, keepGoing: true });
    if (result.problems.length > 0) failing.push({ scenario: file, step: `${file}:1` });
    for (const s of result.steps) if (!s.passed && !s.skipped) failing.push({ scenario: file, step: s.at });
  }
  return failing;
}
