/**
 * The suggested-scenario writer is honest: over mutants of offers and refund decisions drawn at random (killed or
 * not, so long as check takes them and their table's examples pass), whenever `suggestScenario` hands out a
 * scenario, that scenario, run in-process as the runner runs any, passes on the real rules and fails on the mutant.
 * It is written to nowhere: the runner reads its text (RunOptions.texts) as if it were a file in a folder of its
 * own, so that its `uses:` are resolved as they would be there.
 *
 * Replay: FC_SEED=<seed> npx vitest run test/property/suggested-scenarios.test.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { compileMutant, mutantsOf, type Mutant } from '../../adapters/analysis/mutants.ts';
import { suggestScenario } from '../../adapters/analysis/suggest.ts';
import { DEMO_SECRETS } from '../../adapters/harness/demo-secrets.ts';
import { runScenario } from '../../adapters/harness/runner.ts';
import { inProcess } from '../../adapters/harness/targets.ts';
import { createEngine, defaultRulesDir, readRuleSources, type DecisionName, type RuleSet } from '../../engine/index.ts';
import { runs, seed, timeLimit } from '../helpers/facts.ts';

const DECISIONS: DecisionName[] = ['fareFactor', 'passengerType', 'familyDiscountRole', 'reservationPrice', 'productAvailability', 'refundFee'];

describe('suggested scenarios', () => {
  const rulesDir = defaultRulesDir();
  const sources = readRuleSources(rulesDir);
  const rules = createEngine({ rulesDir }).rules;
  const valid = DECISIONS.flatMap((d) => mutantsOf(rules, sources, d)).flatMap((m): Array<{ mutant: Mutant; rules: RuleSet }> => {
    const compiled = compileMutant(sources, m);
    return compiled.rules && compiled.failedExamples.length === 0 ? [{ mutant: m, rules: compiled.rules }] : [];
  });
  const dir = mkdtempSync(join(tmpdir(), 'suggested-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const original = inProcess(createEngine({ rules }));
  const settings = { seed: seed(), numRuns: runs(40) };

  it(
    `pass on the real rules and fail on the mutant they were written for (seed ${settings.seed})`,
    { timeout: timeLimit(settings.numRuns, 1_000) },
    async () => {
      console.info(`suggested scenarios: seed ${settings.seed}, ${settings.numRuns} runs over ${valid.length} valid mutants of ${DECISIONS.join(', ')}`);
      let written = 0;
      await fc.assert(
        // The search's own seed is drawn too: more runs than mutants try other random requests, not the same again.
        fc.asyncProperty(fc.constantFrom(...valid), fc.integer({ min: 0, max: 2 ** 31 - 1 }), async ({ mutant, rules: mutated }, search) => {
          const suggestion = await suggestScenario(rules, mutated, mutant, { fixtures: 'scenarios/fixtures', dir, randomRuns: 30, seed: search });
          if (!suggestion) return;
          written++;
          expect(suggestion.text).toContain(mutant.change);
          const file = join(dir, `${suggestion.name}.yaml`);
          const texts = new Map([[file, suggestion.text]]);
          const onOriginal = await runScenario(file, original, { secrets: DEMO_SECRETS, texts });
          expect(onOriginal.problems, `${mutant.id}: the scenario loads`).toEqual([]);
          expect(onOriginal.passed, `${mutant.id} (${mutant.change}): passes on the real rules`).toBe(true);
          const onMutant = await runScenario(file, inProcess(createEngine({ rules: mutated })), { secrets: DEMO_SECRETS, texts });
          expect(onMutant.passed, `${mutant.id} (${mutant.change}): fails on the mutant`).toBe(false);
        }),
        settings,
      );
      console.info(`suggested scenarios: ${written} of ${settings.numRuns} runs got one`);
      // Not vacuous: most mutants of these tables change a price or a passenger type some request shows.
      expect(written).toBeGreaterThan(0);
    },
  );
});
