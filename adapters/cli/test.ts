import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine, type Engine } from '../../engine/index.ts';
import { parse as parseYaml } from 'yaml';
import { painter } from './colour.ts';
import { colourReport } from './report-colour.ts';
import { coverageMatrix, type CoverageMatrix } from '../harness/coverage.ts';
import { coverageSummary } from '../harness/coverage-summary.ts';
import { scenarioFiles } from '../harness/files.ts';
import { htmlReport } from '../harness/html-report.ts';
import { jsonReport } from '../harness/json-report.ts';
import { osdmConformance, readKnownViolations } from '../harness/osdm-conformance.ts';
import { osdmFindings, osdmReport, type OsdmFindings } from '../harness/osdm-report.ts';
import { junit } from '../harness/junit.ts';
import { runFiles } from '../harness/pool.ts';
import { progressLine } from '../harness/progress.ts';
import { pretty } from '../harness/report.ts';
import type { ScenarioResult } from '../harness/results.ts';
import { selectScenarios } from '../harness/select.ts';
import { inProcess, live } from '../harness/targets.ts';
import { DEMO_SECRETS } from '../harness/demo-secrets.ts';
import { journalling } from '../harness/journal-recorder.ts';
import { journalLine, type JournalRecord } from '../http/journal-file.ts';
import { watchScenarios } from './watch-scenarios.ts';

const TEST_USAGE = `usage: signalbox test [PATHS…] [options]

Runs scenario files (default: scenarios/; folders named fixtures/ and failing/ are skipped unless named).

  --grep TEXT             only scenarios whose name contains TEXT (any case)
  --tags a,b              only scenarios with any of these tags
  --skip-tags a,b         leave out scenarios with any of these tags (--skip-tags needs-reset on a shared server)
  --jobs N                files run N at a time (default: the number of cores in-process, 1 against --target);
                          in-process a thread also starts the next file while its scenarios wait for a delay
  --target URL            run against a live server (clock steps and traces need it started with --sandbox)
  --reset                 with --target: empty the server's store (POST /sandbox/reset) before each scenario,
                          so every scenario starts from nothing, as in-process (never on a server others use)
  --var NAME=VALUE        a value every scenario starts with, as \${NAME} (repeatable; secret.CLIENT=… is a client's secret)
  --vars FILE             such values from a YAML or JSON file of NAME: VALUE (--var wins)
  --bail                  stop starting scenarios after the first failure
  --watch                 run again whenever a file under PATHS changes (scenarios, fixtures; Ctrl-C stops)
  --reporter NAME         pretty (default), junit, json or html (each step's request, response, diff and traces)
  --out FILE              write the report there (beside a junit, json or html file, the terminal gets a pretty one)
  --html FILE             also write the HTML report there, whatever --reporter is (JUnit for CI, HTML to read)
  --coverage              which decision rows, error codes, operations and booking transitions were exercised
  --coverage-out FILE     the coverage matrix as JSON (default reports/coverage.json)
  --rules DIR             the rules the in-process engine loads (default: rules/)
  --osdm FILE             check every Reseller API response against the OSDM OpenAPI document FILE
                          (e.g. ../shared/osdm/OSDM-online-api-v3.4.0.yml) and report its violations per step;
                          any violation beyond the deviations CONTRACT §4c allows fails the run
  --osdm-known FILE       with --osdm: violations listed in FILE (one signature a line) are counted, not failed
  --journal FILE          write every request sent, with its instant, client and answer, to FILE as a journal
                          (JSON Lines, docs/replay.md) for signalbox replay; the files then run one at a time
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
      'skip-tags': { type: 'string' },
      var: { type: 'string', multiple: true, default: [] },
      vars: { type: 'string' },
      bail: { type: 'boolean', default: false },
      watch: { type: 'boolean', default: false },
      html: { type: 'string' },
      journal: { type: 'string' },
    },
  });
  if (values.help) {
    process.stdout.write(TEST_USAGE);
    return 0;
  }
  const reporter = values.reporter as Reporter;
  if (!(reporter in REPORTERS)) throw new Error(`unknown reporter ${values.reporter}; use pretty, junit, json or html`);
  // A journal is one sequence of requests: the files run one after another, on this thread.
  const jobs = values.journal ? 1 : values.jobs === undefined ? (values.target ? 1 : availableParallelism()) : Number(values.jobs);
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`--jobs wants a whole number of at least 1, not ${values.jobs}`);
  if (values.target && jobs > 1)
    process.stderr.write(`note: the ${jobs} jobs share ${values.target}'s one sandbox clock; scenarios whose clocks differ can disturb each other\n`);

  const list = (v: string | undefined) =>
    v
      ?.split(',')
      .map((t) => t.trim())
      .filter(Boolean);
  const tags = list(values.tags);
  const skipTags = list(values['skip-tags']);
  const paths = positionals.length > 0 ? positionals : ['scenarios'];
  const select = () => selectScenarios(scenarioFiles(paths), { grep: values.grep, tags, skipTags });
  const vars = { ...readVarsFile(values.vars), ...parseVars(values.var) };

  if (values['osdm-known'] && !values.osdm) throw new Error('--osdm-known goes with --osdm');
  // Read now: a wrong path is the user's mistake, said before any scenario runs.
  const known = values['osdm-known'] ? readKnownViolations(values['osdm-known']) : undefined;
  if (values.osdm) osdmConformance(values.osdm);

  const rules = values.rules ? { rulesDir: values.rules } : {};
  let engine: Engine | undefined;
  const needEngine = () => (engine ??= createEngine(rules));
  if (values.reset && !values.target) throw new Error('--reset goes with --target (in-process scenarios always start from an empty store)');
  const secrets = {
    ...DEMO_SECRETS,
    ...Object.fromEntries(Object.entries(vars).flatMap(([k, v]) => (k.startsWith('secret.') ? [[k.slice(7), String(v)]] : []))),
  };
  const server = values.target ? live(values.target, { reset: values.reset, secrets }) : inProcess(needEngine());
  const journal: JournalRecord[] = [];
  const target = values.journal ? journalling(server, (record) => journal.push(record)) : server;

  const runOnce = async (): Promise<number> => {
    const files = select();
    if (files.length === 0) {
      process.stderr.write(
        `no scenario files selected${values.grep || tags || skipTags ? ` (check --grep${skipTags ? ', --tags and --skip-tags' : ' and --tags'})` : ''}\n`,
      );
      return 1;
    }
    const progress = progressLine(files.length);
    const results = await runFiles(files, target, {
      jobs,
      bail: values.bail,
      run: { secrets: DEMO_SECRETS, coverage: values.coverage, vars, ...(values.osdm ? { osdm: values.osdm } : {}) },
      ...(values.target || values.journal ? {} : { workers: rules }),
      onResult: (r) => progress.done(r),
    });
    progress.end();
    const notRun = files.length - results.length;

    const coverage = values.coverage ? coverageMatrix(results, needEngine()) : undefined;
    const conformance = values.osdm ? osdmFindings(results, known) : undefined;
    const report = REPORTERS[reporter](results, coverage, conformance);
    if (values.out) write(values.out, report);
    if (values.html) write(values.html, htmlReport(results));
    if (values.journal) write(values.journal, journal.splice(0).map(journalLine).join(''));
    // Beside a JUnit, JSON or HTML file the terminal gets the pretty report; on stdout a report stays alone.
    const machineOnStdout = !values.out && reporter !== 'pretty';
    const terminal = (text: string) => colourReport(text, painter(process.stdout));
    process.stdout.write(!values.out ? (reporter === 'pretty' ? terminal(report) : report) : reporter !== 'pretty' ? terminal(pretty(results)) : '');
    if (notRun > 0) process.stderr.write(`stopped at the first failure (--bail): ${notRun} scenario${notRun === 1 ? '' : 's'} not run\n`);
    if (coverage) {
      write(values['coverage-out'], `${JSON.stringify(coverage, null, 2)}\n`);
      (machineOnStdout ? process.stderr : process.stdout).write(`\n${coverageSummary(coverage)}matrix: ${values['coverage-out']}\n`);
    }
    if (conformance) (machineOnStdout ? process.stderr : process.stdout).write(osdmReport(conformance));
    return results.every((r) => r.passed) && !conformance?.violations ? 0 : 1;
  };

  const code = await runOnce();
  if (!values.watch) return code;
  await watchScenarios(paths, runOnce, (line) => process.stderr.write(`${line}\n`));
  return code;
}

type Reporter = 'pretty' | 'junit' | 'json' | 'html';
const REPORTERS: Record<Reporter, (results: ScenarioResult[], coverage?: CoverageMatrix, conformance?: OsdmFindings) => string> = {
  pretty: (results) => pretty(results),
  junit: (results, _coverage, conformance) => junit(results, undefined, conformance),
  json: (results, coverage) => jsonReport(results, coverage),
  html: (results) => htmlReport(results),
};

/** `--var NAME=VALUE`, repeated. */
function parseVars(pairs: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    pairs.map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 1) throw new Error(`--var wants NAME=VALUE, not ${pair}`);
      return [pair.slice(0, eq), pair.slice(eq + 1)];
    }),
  );
}

/** `--vars FILE`: a YAML (or JSON) map of names to scalar values. */
function readVarsFile(file: string | undefined): Record<string, string> {
  if (!file) return {};
  const data: unknown = parseYaml(readFileSync(file, 'utf8'));
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new Error(`${file}: --vars wants a map of NAME: VALUE`);
  return Object.fromEntries(
    Object.entries(data).map(([k, v]) => {
      if (v === null || typeof v === 'object') throw new Error(`${file}: ${k}: a variable's value is a string or number, not ${JSON.stringify(v)}`);
      return [k, String(v)];
    }),
  );
}

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}
