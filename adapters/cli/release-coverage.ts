import { parseArgs } from 'node:util';
import { createEngine, type RuleRelease } from '../../engine/index.ts';
import { coverageMatrix } from '../harness/coverage.ts';
import { coverageGaps, readUnreachable, type CoverageGaps } from '../harness/coverage-gate.ts';
import { DEMO_SECRETS } from '../harness/demo-secrets.ts';
import { scenarioFiles } from '../harness/files.ts';
import { runFiles } from '../harness/pool.ts';
import { inProcess } from '../harness/targets.ts';
import { compileRelease, inForceOrder } from '../service/releases.ts';
import { openStore } from '../store/open.ts';

/**
 * `signalbox release coverage`: the coverage gate of `npm test` (harness/coverage-gate.ts) on every rule release of
 * a store that is in force or scheduled (docs/releases.md). The repository's gate holds the working copy; a release
 * lives in the deployment's store, so the deployment runs this before an instant comes: a release that adds a row no
 * scenario exercises fails it, as the working copy would.
 */
export const COVERAGE_USAGE = `       signalbox release coverage [PATHS…] [--store URL] [--at INSTANT] [--fixtures DIR] [--json]
  coverage: the scenarios (default scenarios/) on every release in force at INSTANT (default now) or scheduled after
  it; exit 1 when a release has a decision row or error code no scenario exercises and unreachable.yaml does not list
`;

interface Checked {
  release: string;
  effectiveFrom: string;
  state: 'in force' | 'scheduled';
  scenarios: number;
  /** Scenarios that fail on the release: expected where it changes what they pin, so said, not gated. */
  failing: number;
  gaps: CoverageGaps;
  problems?: readonly string[];
}

/** The release in force at `at` (the latest whose instant has come) and every one scheduled after it. */
function inForceOrScheduled(releases: RuleRelease[], at: number): Array<{ release: RuleRelease; state: Checked['state'] }> {
  const sorted = [...releases].sort(inForceOrder);
  let current = -1;
  sorted.forEach((r, i) => {
    if (Date.parse(r.effectiveFrom) <= at) current = i;
  });
  return sorted.flatMap((release, i) => (i < current ? [] : [{ release, state: i === current ? ('in force' as const) : ('scheduled' as const) }]));
}

export async function releaseCoverage(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      store: { type: 'string', default: 'sqlite:./data/signalbox.db' },
      at: { type: 'string' },
      fixtures: { type: 'string', default: 'scenarios/fixtures' },
      json: { type: 'boolean', default: false },
    },
  });
  const at = values.at === undefined ? Date.now() : Date.parse(values.at);
  if (Number.isNaN(at)) throw new Error(`--at wants an instant with its offset (2026-12-13T00:00+01:00), not ${values.at}`);
  const store = await openStore(values.store);
  let releases: RuleRelease[];
  try {
    releases = await store.releases();
  } finally {
    await store.close();
  }
  const files = scenarioFiles(positionals.length > 0 ? positionals : ['scenarios']);
  const listed = readUnreachable(values.fixtures);
  const checked: Checked[] = [];
  for (const { release, state } of inForceOrScheduled(releases, at)) {
    const row = { release: release.name, effectiveFrom: release.effectiveFrom, state, scenarios: files.length };
    const { rules, problems } = compileRelease(release);
    if (!rules) {
      checked.push({ ...row, failing: 0, gaps: { rows: [], codes: [], listedButExercised: [], listedButUnknown: [] }, problems });
      continue;
    }
    // Its rules as a server's own, as \`test --rules\` runs an exported release: a scenario's server has no store of releases.
    const engine = createEngine({ rules });
    const results = await runFiles(files, inProcess(engine), { jobs: 1, run: { secrets: DEMO_SECRETS, coverage: true } });
    checked.push({ ...row, failing: results.filter((r) => !r.passed).length, gaps: coverageGaps(coverageMatrix(results, engine), listed) });
  }
  const failed = checked.filter((c) => c.problems || c.gaps.rows.length > 0 || c.gaps.codes.length > 0);
  process.stdout.write(values.json ? `${JSON.stringify(checked, null, 2)}\n` : report(checked, values.store, values.fixtures));
  return failed.length > 0 ? 1 : 0;
}

function report(checked: readonly Checked[], store: string, fixtures: string): string {
  if (checked.length === 0) return `no release in force or scheduled in ${store}: npm test's gate covers the rules each server starts with\n`;
  const lines = checked.map((c) => {
    const head = `${c.release}  ${c.state} from ${c.effectiveFrom}`;
    if (c.problems) return `${head}: does not compile\n  ${c.problems.join('\n  ')}`;
    const gaps = [...c.gaps.rows, ...c.gaps.codes];
    const failing = c.failing > 0 ? `; ${c.failing} of ${c.scenarios} scenarios fail on it (what they pin changed)` : '';
    const notes = [...c.gaps.listedButExercised.map((n) => `  note: ${n} is listed as unreachable but exercised`)];
    if (gaps.length === 0) return [`${head}: every decision row and error code exercised or listed${failing}`, ...notes].join('\n');
    return [
      `${head}: ${gaps.length} not exercised by any scenario nor listed in ${fixtures}/unreachable.yaml${failing}`,
      ...gaps.map((g) => `  ${g}`),
      ...notes,
    ].join('\n');
  });
  return `${lines.join('\n')}\n`;
}
