// A regression scenario run from code, in-process: a fresh server, memory store and virtual clock per scenario,
// as `npx signalbox test` does. The same call with live('http://127.0.0.1:8090') runs it against a served instance.
//
//   npx tsx examples/04-scenario-in-process.ts
//
// prints: /^✓ .+ \(scenarios\/booking\/sell-one-journey\.yaml\): \d+ steps passed$/m
// prints: /^  ✓ POST \/v3\/offers → 200$/m
import { DEMO_SECRETS } from '../adapters/harness/demo-secrets.ts';
import { runScenario } from '../adapters/harness/runner.ts';
import { inProcess } from '../adapters/harness/targets.ts';
import { createEngine } from '../engine/index.ts';

const file = 'scenarios/booking/sell-one-journey.yaml';
const result = await runScenario(file, inProcess(createEngine()), { secrets: DEMO_SECRETS });

console.log(`${result.passed ? '✓' : '✗'} ${result.name} (${file}): ${result.steps.filter((s) => s.passed).length} steps passed`);
for (const step of result.steps) {
  console.log(`  ${step.passed ? '✓' : '✗'} ${step.request?.method} ${step.request?.path} → ${step.response?.status}`);
  for (const mismatch of step.mismatches) console.log(`      ${mismatch.message}  (${mismatch.at})`);
}
process.exitCode = result.passed ? 0 : 1;
