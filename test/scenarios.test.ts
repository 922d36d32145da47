import { describe, expect, it } from 'vitest';
import { DEMO_SECRETS } from '../adapters/harness/demo-secrets.ts';
import { scenarioFiles } from '../adapters/harness/files.ts';
import { pretty } from '../adapters/harness/report.ts';
import { runScenario } from '../adapters/harness/runner.ts';
import { inProcess } from '../adapters/harness/targets.ts';
import { engine } from './helpers/server.ts';

/** Every scenario under scenarios/, in-process; a failure shows the runner's own report. */
describe('scenarios', () => {
  const target = inProcess(engine());
  it.each(scenarioFiles(['scenarios']))('%s', async (file) => {
    const result = await runScenario(file, target, { secrets: DEMO_SECRETS });
    expect(result.passed, pretty([result])).toBe(true);
  });
});
