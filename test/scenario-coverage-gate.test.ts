import { describe, expect, it } from 'vitest';
import { DEMO_SECRETS } from '../adapters/harness/demo-secrets.ts';
import { coverageMatrix } from '../adapters/harness/coverage.ts';
import { coverageGaps, readUnreachable } from '../adapters/harness/coverage-gate.ts';
import { scenarioFiles } from '../adapters/harness/files.ts';
import { runScenario } from '../adapters/harness/runner.ts';
import { inProcess } from '../adapters/harness/targets.ts';
import { engine } from './helpers/server.ts';

/**
 * Every decision row and every catalogue error code is shown by some scenario, or listed with the reason in
 * scenarios/fixtures/unreachable.yaml. A new row or code without a scenario fails here, and so does a
 * listed one that a scenario now reaches (the list must not go stale).
 */
const LIST = 'scenarios/fixtures/unreachable.yaml';

describe('scenario coverage of the rules', () => {
  it('exercises every decision row and error code, except those listed as unreachable', async () => {
    const e = engine();
    const target = inProcess(e);
    const results = [];
    for (const file of scenarioFiles(['scenarios'])) results.push(await runScenario(file, target, { secrets: DEMO_SECRETS, coverage: true }));
    const gaps = coverageGaps(coverageMatrix(results, e), readUnreachable('scenarios/fixtures'));
    expect(gaps.rows, `rows no scenario exercises: write a scenario, or list them in ${LIST} with the reason`).toEqual([]);
    expect(gaps.codes, `codes no scenario exercises: write a scenario, or list them in ${LIST} with the reason`).toEqual([]);
    expect(gaps.listedButExercised, `listed in ${LIST}, but exercised: take them off the list`).toEqual([]);
    expect(gaps.listedButUnknown, `listed in ${LIST}, but no such row or code`).toEqual([]);
  }, 120_000);
});
