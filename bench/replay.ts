import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, loadRules } from '../engine/index.ts';
import { replayJournal } from '../adapters/analysis/replay.ts';
import type { ReplayReport } from '../adapters/http/openapi/replay-report.ts';
import { DEMO_SECRETS } from '../adapters/harness/demo-secrets.ts';
import { scenarioFiles } from '../adapters/harness/files.ts';
import { journalling } from '../adapters/harness/journal-recorder.ts';
import { runScenario } from '../adapters/harness/runner.ts';
import { inProcess } from '../adapters/harness/targets.ts';
import type { JournalRecord } from '../adapters/http/journal-file.ts';
import { root } from './fixtures.ts';
import { fmt, median } from './measure.ts';

/**
 * `node bench/replay.ts [COPIES] [RUNS]`: `signalbox replay`'s work on a journal of a few thousand requests. The
 * journal is the scenario corpus recorded in-process (as `signalbox test --journal` records it), COPIES times over
 * (default 5): each copy books the same trains again, in the same replay stores. It is replayed RUNS times (default
 * 3) on rules/ against rules/ (a no-op) and against rules/ with the child-7-15 fare factor raised from 0.5 to 0.6,
 * each side's rule set compiled beforehand, as the CLI has them by then. Prints the median wall and CPU time and the
 * requests replayed per second of each (each request runs once on each side: two answers); figures only, docs/replay.md
 * quotes them.
 */
const copies = Number(process.argv[2] ?? 5);
const runs = Number(process.argv[3] ?? 3);

async function corpusJournal(): Promise<JournalRecord[]> {
  const records: JournalRecord[] = [];
  const target = journalling(inProcess(createEngine()), (r) => records.push(r));
  for (const file of scenarioFiles([join(root, 'scenarios')])) await runScenario(file, target, { secrets: DEMO_SECRETS });
  return records;
}

function dearerChildren(dir: string): string {
  const copy = join(dir, 'rules');
  cpSync(join(root, 'rules'), copy, { recursive: true });
  const file = join(copy, 'fare-factors.yaml');
  const text = readFileSync(file, 'utf8');
  const edited = text.replace(/(- id: child-7-15\n\s+when: \{ internalType: CHILD_7_15 \}\n\s+then: \{ factor: )0\.5 \}/, '$10.6 }');
  if (edited === text) throw new Error('rules/fare-factors.yaml: no child-7-15 row with factor 0.5 to edit');
  writeFileSync(file, edited);
  return copy;
}

async function main() {
  const once = await corpusJournal();
  const journal = Array.from({ length: copies }, () => once).flat();
  const dir = mkdtempSync(join(tmpdir(), 'signalbox-bench-replay-'));
  try {
    const rules = loadRules(join(root, 'rules'));
    const edited = loadRules(dearerChildren(dir));
    process.stdout.write(`journal: ${journal.length} requests (${once.length} from ${copies} passes of the scenario corpus)\n`);
    for (const [name, against] of [
      ['no-op', rules],
      ['child-7-15 0.5 → 0.6', edited],
    ] as const) {
      const walls: number[] = [];
      const cpus: number[] = [];
      let report: ReplayReport | undefined;
      for (let run = 0; run < runs; run++) {
        const t0 = performance.now();
        const cpu0 = process.cpuUsage();
        report = await replayJournal(journal, rules, against, { names: { a: 'rules', b: name }, examples: 5 });
        walls.push(performance.now() - t0);
        const cpu = process.cpuUsage(cpu0);
        cpus.push((cpu.user + cpu.system) / 1000);
      }
      const wall = median(walls) / 1000;
      const cpu = median(cpus) / 1000;
      const { journal: replayedOf, changed, asRecorded } = report!;
      process.stdout.write(
        `${name}: ${fmt(wall)} s wall, ${fmt(cpu)} s CPU (medians of ${runs}), ${fmt(replayedOf.replayed / wall)} requests/s ` +
          `(${fmt(replayedOf.replayed / cpu)} per CPU second); ` +
          `${replayedOf.replayed} replayed, ${changed} changed, ${asRecorded.a} answered on A with the recorded status\n`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
