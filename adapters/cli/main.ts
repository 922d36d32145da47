import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { defaultRulesDir } from '../../engine/index.ts';
import { serve } from './serve.ts';
import { check, explain } from './rules.ts';
import { examples } from './examples.ts';
import { schemas } from './schemas.ts';
import { test } from './test.ts';
import { seatmap } from './seatmap.ts';
import { simulate } from './simulate.ts';
import { rulesDiff } from './rules-diff.ts';
import { replay } from './replay.ts';
import { exportCommand } from './export.ts';
import { graph } from './graph.ts';
import { mutateCommand } from './mutate.ts';
import { tableCommand } from './table-csv.ts';
import { releaseCommand } from './release.ts';

/** `signalbox <command>` (CONTRACT §9). Each command lives in its own file. */
const USAGE = `usage: signalbox <command> [options]      signalbox --version

  serve    [--port N] [--host H] [--store memory|sqlite:PATH|postgres://…] [--workers N] [--sandbox] [--rules DIR] [--watch] [--edit] [--journal-personal-data]
           (--workers: processes sharing the port, default one per core on SQLite and PostgreSQL, 1 on memory or a sandbox;
            --edit: /studio may save rules; --journal-personal-data: analysts read the sandbox's request journal unmasked)
  test     [PATHS…] [--target URL] [--reporter pretty|junit|json] [--out FILE] [--grep T] [--tags a,b] [--jobs N] [--coverage]  (signalbox test --help)
  check    [--rules DIR] [--suggest [--serving REV|DIR]]   every problem of every rule file; --suggest: gaps and overlaps as counterexample scenarios
  explain  <decision> --facts FILE|JSON|YAML [--json] [--rules DIR]   which row decides, and why (facts from a .yaml/.json file or inline)
  simulate <decision> --cases FILE.csv|FILE.yaml [--boundaries] [--json] [--language LANG] [--rules DIR]   a table of outcomes, one per case
  mutate   [DECISION|MACHINE…] [--json] [--min-score N] [--suggest] [--rules DIR] [--scenarios DIR]   how well the scenarios guard the rules: wrong versions of the
           tables and machines, which survive, and (--suggest) a scenario under scenarios/suggested/ that kills each
  graph    [--mermaid|--json] [--rules DIR]   which decision feeds which, and the prices, refunds and errors each decides
  table    export DECISION | import DECISION FILE.csv [--rules DIR]   a decision table as CSV, and back into its file (after check)
  diff     --rules OLD [--against NEW] [--json] [--scenarios DIR] [--fixtures DIR]   what an edit of rules/ changes (OLD, NEW: folder or git revision)
  replay   --journal FILE --rules A [--against B] [--json] [--examples N]   a journal's requests on two rule sets, at their instants: which
           answers change status, Problem code or price (A, B: folder or git revision; B defaults to rules/; docs/replay.md)
  release  create NAME --effective-from INSTANT [--rules DIR] [--store URL] [--reason TEXT] | list [--store URL] [--json]   rule releases (docs/releases.md)
           export NAME --out DIR [--store URL]   a release's rule files, for --rules DIR of test (--coverage), diff, replay, mutate
           coverage [PATHS…] [--store URL] [--at INSTANT] [--json]   the coverage gate on every release in force or scheduled
           propose NAME --effective-from INSTANT --reason TEXT | drafts | show NAME | approve NAME | reject NAME | withdraw NAME [--server URL]
           (four eyes through a server's studio API, as an analyst: --client ID, secret in $SIGNALBOX_CLIENT_SECRET)
  schemas  [--check]     editor JSON Schemas for rules/ and scenarios/ (npm run schemas)
  examples [--out FILE]  the examples of GET /openapi.json, taken from the scenarios' traffic
  seatmap  [FILE] [--coach N] [--out FILE] [--rules DIR]   one coach of a place map (GET …/place-map body) as SVG
  export   --format postman|bruno|hurl|http [--out FILE|DIR] [PATHS…]  the scenarios' requests with their checks (signalbox export --help)
`;

const [command, ...rest] = process.argv.slice(2);
const commands: Record<string, (args: string[]) => Promise<number>> = {
  serve,
  test,
  check,
  explain,
  simulate,
  diff: rulesDiff,
  replay,
  schemas,
  examples,
  seatmap,
  export: exportCommand,
  graph,
  mutate: mutateCommand,
  table: tableCommand,
  release: releaseCommand,
};

async function main(): Promise<number> {
  if (command === '--version' || command === '-v' || command === 'version') {
    // The package's own package.json sits next to its rules/ folder, from the sources and from dist/ alike.
    const { version } = JSON.parse(readFileSync(join(dirname(defaultRulesDir()), 'package.json'), 'utf8')) as { version: string };
    process.stdout.write(`signalbox ${version}\n`);
    return 0;
  }
  if (!command || command === '--help' || command === 'help') {
    process.stdout.write(USAGE);
    return command ? 0 : 2;
  }
  const run = commands[command];
  // `signalbox test --help` and `export --help` have their own pages; the other commands are covered by the usage above.
  if (run && command !== 'test' && command !== 'export' && (rest.includes('--help') || rest.includes('-h'))) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (!run) {
    process.stderr.write(`unknown command "${command}"\n${USAGE}`);
    return 2;
  }
  return run(rest);
}

main().then(
  (code) => {
    if (code !== 0 || command !== 'serve') process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
