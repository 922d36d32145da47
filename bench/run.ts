import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, freemem, totalmem } from 'node:os';
import { against, DEFAULT_AGAINST, treeAt } from './baseline.ts';
import { root } from './fixtures.ts';
import { fmtBytes, printReport, table, type CaseReport } from './measure.ts';
import { CLIENT_CPU, pin, placement } from './processes.ts';

/**
 * `npm run bench [-- CASE…]`: runs the bench cases (all by default) one after another and prints, for each,
 * the median and spread of several runs and the ratio to a baseline measured in the same run, then every
 * goal (docs/performance.md) as met or not. Figures only: nothing here fails on a slow machine.
 *
 * Environment: BENCH_RUNS (runs per figure), BENCH_DURATION (seconds per HTTP load run),
 * BENCH_SCALE=small (10k / 100k bookings instead of 10k / 1M), BENCH_CPU_PROF=DIR (server processes
 * write CPU profiles there), BENCH_JSON=FILE (every figure as JSON), BENCH_AGAINST=REF (the commit measured in the
 * same rounds, bench/baseline.ts; 0f3563f unless given, `none` for none), BENCH_SERVER_FLAGS (node flags for the
 * bench's servers), BENCH_PIN=0 (servers and load generator not pinned to cores), BENCH_WARMUP,
 * BENCH_LIFECYCLE_WARMUP and BENCH_ENGINE_WARMUP (seconds of load before a case measures: 10, 30 and 5).
 */
const cases: Record<string, { about: string; load: () => Promise<{ run: () => Promise<CaseReport> }> }> = {
  rules: { about: 'compiled rule evaluator vs json-rules-engine, 9 passengers', load: () => import('./rules.ts') },
  engine: { about: 'engine.offers in-process, 1 and 9 passengers', load: () => import('./engine.ts') },
  http: { about: 'HTTP POST /v3/offers, server CPU per request, against ceilings and a floor (autocannon)', load: () => import('./http.ts') },
  lifecycle: { about: 'HTTP sales (offers → booking → fulfillment) and refunds, server CPU per sale, SQLite and memory', load: () => import('./lifecycle.ts') },
  workers: { about: 'serve --workers N on SQLite: sales/s with 1 and 2 workers (BENCH_WORKERS=1,2)', load: () => import('./workers.ts') },
  scale: { about: 'POST /offers and GET booking with 10k and 1M stored bookings; bytes/booking; RSS', load: () => import('./scale.ts') },
  scenarios: { about: 'scenario runner steps/s in-process', load: () => import('./scenarios.ts') },
};

function sh(cmd: string, args: string[]): string {
  try {
    return execFileSync(cmd, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '?';
  }
}

async function main() {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(
      `usage: npm run bench [-- CASE…]\n\n${Object.entries(cases)
        .map(([n, c]) => `  ${n.padEnd(10)} ${c.about}`)
        .join('\n')}\n`,
    );
    return 0;
  }
  const unknown = args.filter((a) => !cases[a]);
  if (unknown.length > 0) {
    process.stderr.write(`unknown case ${unknown.join(', ')}; cases: ${Object.keys(cases).join(', ')}\n`);
    return 2;
  }
  const chosen = args.length > 0 ? args : Object.keys(cases);
  pin(process.pid, CLIENT_CPU);
  const ref = against();
  let before: string | undefined;
  try {
    if (ref) before = treeAt(ref).commit; // extracted once, before any case runs
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    return 2;
  }
  const dirty = sh('git', ['status', '--porcelain', '--untracked-files=no']) !== '';
  const machine = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: `${cpus().length} × ${cpus()[0]?.model ?? '?'}`,
    memory: `${fmtBytes(totalmem())} total, ${fmtBytes(freemem())} free`,
    load: sh('cat', ['/proc/loadavg']),
    commit: `${sh('git', ['rev-parse', '--short', 'HEAD'])}${dirty ? ' + uncommitted changes' : ''}`,
    ...(before ? { against: `${before} (BENCH_AGAINST=${process.env['BENCH_AGAINST'] ?? `unset, so ${DEFAULT_AGAINST}`})` } : {}),
    placing: placement(),
  };
  process.stdout.write(
    `signalbox bench: ${chosen.join(', ')}\n${Object.entries(machine)
      .map(([k, v]) => `  ${k.padEnd(7)} ${v}`)
      .join('\n')}\n\n`,
  );

  const reports: CaseReport[] = [];
  const failures: string[] = [];
  for (const name of chosen) {
    const t0 = performance.now();
    try {
      const mod = await cases[name]!.load();
      const r = await mod.run();
      reports.push(r);
      process.stdout.write(`${printReport(r)}(${((performance.now() - t0) / 1000).toFixed(1)} s)\n\n`);
    } catch (e) {
      failures.push(name);
      process.stdout.write(`== ${name}: FAILED after ${((performance.now() - t0) / 1000).toFixed(1)} s\n${(e as Error).stack ?? String(e)}\n\n`);
    }
  }

  const goals = reports.flatMap((r) => r.goals.map((g) => [r.name, g.met ? 'met' : 'NOT MET', g.actual, g.text]));
  if (goals.length > 0) process.stdout.write(`== goals\n${table(['case', 'status', 'measured', 'goal'], goals)}\n`);
  if (failures.length > 0) process.stdout.write(`\ncases that failed: ${failures.join(', ')}\n`);
  if (process.env['BENCH_JSON']) writeFileSync(process.env['BENCH_JSON'], JSON.stringify({ machine, reports, failures }, null, 2));
  return failures.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  },
);
