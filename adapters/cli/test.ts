import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createEngine } from '../../engine/index.ts';
import { scenarioFiles } from '../scenarios/files.ts';
import { jsonReport, junit, pretty } from '../scenarios/report.ts';
import { runScenario, type ScenarioResult } from '../scenarios/runner.ts';
import { inProcess, live } from '../scenarios/targets.ts';
import { DEMO_SECRETS } from './demo.ts';

/** `signalbox test [PATHS…] [--target URL] [--reporter pretty|junit|json] [--out FILE]`; exit 1 on any failure. */
export async function test(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      target: { type: 'string' },
      reporter: { type: 'string', default: 'pretty' },
      out: { type: 'string' },
      rules: { type: 'string' },
    },
  });
  const files = scenarioFiles(positionals.length > 0 ? positionals : ['scenarios']);
  const target = values.target ? live(values.target) : inProcess(createEngine(values.rules ? { rulesDir: values.rules } : {}));
  const results: ScenarioResult[] = [];
  for (const file of files) {
    results.push(await runScenario(file, target, { secrets: DEMO_SECRETS }));
    if (process.stderr.isTTY) process.stderr.write(`\r${results.length}/${files.length} scenarios`);
  }
  if (process.stderr.isTTY) process.stderr.write('\r');
  const render = { pretty, junit, json: jsonReport }[values.reporter as 'pretty'];
  if (!render) throw new Error(`unknown reporter ${values.reporter}; use pretty, junit or json`);
  const report = render(results);
  if (values.out) writeFileSync(values.out, report);
  else process.stdout.write(report);
  if (values.out && values.reporter !== 'pretty') process.stdout.write(pretty(results));
  return results.every((r) => r.passed) ? 0 : 1;
}
