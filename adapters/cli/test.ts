import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine, type Engine } from '../../engine/index.ts';
import { coverageMatrix } from '../scenarios/coverage.ts';
import { coverageSummary } from '../scenarios/coverage-summary.ts';
import { scenarioFiles } from '../scenarios/files.ts';
import { jsonReport } from '../scenarios/json-report.ts';
import { osdmConformance, readKnownViolations } from '../scenarios/osdm-conformance.ts';
import { osdmFindings, osdmReport } from '../scenarios/osdm-report.ts';
import { junit } from '../scenarios/junit.ts';
import { runFiles } from '../scenarios/pool.ts';
import { progressLine } from '../scenarios/progress.ts';
import { pretty } from '../scenarios/report.ts';
import { apiRoutes } from '../scenarios/routes-of-server.ts';
import { selectScenarios } from '../scenarios/select.ts';
import { inProcess, live } from '../scenarios/targets.ts';
import { DEMO_SECRETS } from './demo.ts';

export const TEST_USAGE = `usage: signalbox test [PATHS…] [options]

Runs scenario files (default: scenarios/; folders named fixtures/ and failing/ are skipped unless named).

  --grep TEXT             only scenarios whose name contains TEXT (any case)
  --tags a,b              only scenarios with any of these tags
  --jobs N                files run N at a time (default: the number of cores in-process, 1 against --target)
  --target URL            run against a live server (clock steps and traces need it started with --sandbox)
  --reset                 with --target: empty the server's store (POST /sandbox/reset) before each scenario,
                          so every scenario starts from nothing, as in-process (never on a server others use)
  --reporter NAME         pretty (default), junit or json
  --out FILE              write the report there (beside a junit or json file, the terminal gets a pretty one)
  --coverage              which decision rows, error codes, routes and booking transitions were exercised
  --coverage-out FILE     the coverage matrix as JSON (default reports/coverage.json)
  --rules DIR             the rules the in-process engine loads (default: rules/)
  --osdm FILE             check every Reseller API response against the OSDM OpenAPI document FILE
                          (e.g. ../shared/osdm/OSDM-online-api-v3.4.0.yml) and report its violations per step;
                          any violation beyond the deviations CONTRACT §4c allows fails the run
  --osdm-known FILE       with --osdm: violations listed in FILE (one signature a line) are counted, not failed
`;

/** `signalbox test`: select, run in parallel, report in file order; exit 1 on any failure or an empty selection. */
export async function test(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      target: { type: 'string' },
      reporter: { type: 'string', default: 'pretty' },
      out: { type: 'string' },
      rules: { type: 'string' },
      grep: { type: 'string' },
      tags: { type: 'string' },
      jobs: { type: 'string' },
      coverage: { type: 'boolean', default: false },
      'coverage-out': { type: 'string', default: 'reports/coverage.json' },
      help: { type: 'boolean', default: false },
      reset: { type: 'boolean', default: false },
      osdm: { type: 'string' },
      'osdm-known': { type: 'string' },
    },
  });
  if (values.help) { process.stdout.write(TEST_USAGE); return 0; }
  const reporter = values.reporter as 'pretty' | 'junit' | 'json';
  if (!['pretty', 'junit', 'json'].includes(reporter)) throw new Error(`unknown reporter ${values.reporter}; use pretty, junit or json`);
  const jobs = values.jobs === undefined ? (values.target ? 1 : availableParallelism()) : Number(values.jobs);
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`--jobs wants a whole number of at least 1, not ${values.jobs}`);
  if (values.target && jobs > 1) process.stderr.write(`note: the ${jobs} jobs share ${values.target}'s one sandbox clock; scenarios whose clocks differ can disturb each other\n`);

  const tags = values.tags?.split(',').map((t) => t.trim()).filter(Boolean);
  const files = selectScenarios(scenarioFiles(positionals.length > 0 ? positionals : ['scenarios']), { grep: values.grep, tags });
  if (files.length === 0) {
    process.stderr.write(`no scenario files selected${values.grep || tags ? ' (check --grep and --tags)' : ''}\n`);
    return 1;
  }

  if (values['osdm-known'] && !values.osdm) throw new Error('--osdm-known goes with --osdm');
  // Read now: a wrong path is the user's mistake, said before any scenario runs.
  const known = values['osdm-known'] ? readKnownViolations(values['osdm-known']) : undefined;
  if (values.osdm) osdmConformance(values.osdm);

  const rules = values.rules ? { rulesDir: values.rules } : {};
  let engine: Engine | undefined;
  const needEngine = () => (engine ??= createEngine(rules));
  if (values.reset && !values.target) throw new Error('--reset goes with --target (in-process scenarios always start from an empty store)');
  const target = values.target ? live(values.target, { reset: values.reset }) : inProcess(needEngine());
  const progress = progressLine(files.length);
  const results = await runFiles(files, target, {
    jobs,
    run: { secrets: DEMO_SECRETS, coverage: values.coverage, ...(values.osdm ? { osdm: values.osdm } : {}) },
    ...(values.target ? {} : { workers: rules }),
    onResult: (r) => progress.done(r),
  });
  progress.end();

  const coverage = values.coverage ? coverageMatrix(results, needEngine(), await apiRoutes(needEngine())) : undefined;
  const conformance = values.osdm ? osdmFindings(results, known) : undefined;
  const report = reporter === 'pretty' ? pretty(results) : reporter === 'junit' ? junit(results, undefined, conformance) : jsonReport(results, coverage);
  if (values.out) write(values.out, report);
  // Beside a JUnit or JSON file the terminal gets the pretty report; on stdout a report stays alone.
  const machineOnStdout = !values.out && reporter !== 'pretty';
  process.stdout.write(!values.out ? report : reporter !== 'pretty' ? pretty(results) : '');
  if (coverage) {
    write(values['coverage-out'], `${JSON.stringify(coverage, null, 2)}\n`);
    (machineOnStdout ? process.stderr : process.stdout).write(`\n${coverageSummary(coverage)}matrix: ${values['coverage-out']}\n`);
  }
  if (conformance) (machineOnStdout ? process.stderr : process.stdout).write(osdmReport(conformance));
  return results.every((r) => r.passed) && !conformance?.violations ? 0 : 1;
}

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}
