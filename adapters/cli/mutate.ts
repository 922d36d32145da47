import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultRulesDir, factCatalogue, type DecisionName } from '../../engine/index.ts';
import { MACHINES } from '../analysis/machine-mutants.ts';
import { mutate, type MutationReport } from '../analysis/mutate.ts';
import { suggestedDir } from '../analysis/suggest.ts';
import { writeSuggestions } from '../analysis/suggest-survivors.ts';
import { DEMO_SECRETS } from '../harness/demo-secrets.ts';

/**
 * `signalbox mutate [DECISION|MACHINE…] [--json] [--min-score N] [--suggest] [--rules DIR] [--scenarios DIR]`: how well the
 * scenarios guard the rules (analysis/mutate.ts). Prints the score per decision and overall, and each surviving
 * mutant with its `file:line:col` and what was changed; exit 1 when the score is under `--min-score` (a fraction,
 * 0.8, or a percentage, 80). `--suggest` writes, for each survivor, a scenario that kills it under
 * `scenarios/suggested/` (analysis/suggest.ts), and says which survivors got none.
 */
const percent = (x: number) => `${(x * 100).toFixed(1)} %`;

function render(r: MutationReport): string {
  const out: string[] = [];
  const w = Math.max(...r.decisions.map((d) => d.decision.length), 8);
  out.push(`${'decision'.padEnd(w)}   score  killed/valid  by scenarios  mutants  scenarios`);
  for (const d of r.decisions)
    out.push(
      `${d.decision.padEnd(w)}  ${percent(d.score).padStart(7)}  ${`${d.killed}/${d.valid}`.padStart(12)}  ${String(d.killedByScenarios).padStart(12)}  ${String(d.mutants).padStart(7)}  ${String(d.scenarios).padStart(9)}`,
    );
  const o = r.overall;
  out.push(
    `${'overall'.padEnd(w)}  ${percent(o.score).padStart(7)}  ${`${o.killed}/${o.valid}`.padStart(12)}  ${String(o.killedByScenarios).padStart(12)}  ${String(o.mutants).padStart(7)}`,
  );
  const survivors = r.mutants.filter((m) => m.verdict === 'survived');
  if (survivors.length) {
    out.push('', `${survivors.length} surviving mutant${survivors.length === 1 ? '' : 's'} (no scenario fails on them):`);
    for (const m of survivors) out.push(`  ${m.at}  ${m.change}`);
  }
  const invalid = r.mutants.filter((m) => m.verdict === 'invalid').length;
  const equivalent = r.mutants.filter((m) => m.verdict === 'equivalent').length;
  out.push('', `not counted: ${invalid} that check refuses, ${equivalent} that decide every boundary case alike; ${(r.ms / 1000).toFixed(1)} s`);
  return `${out.join('\n')}\n`;
}

function minScore(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? (n > 1 ? n / 100 : n) : Number.NaN;
}

export async function mutateCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      'min-score': { type: 'string' },
      suggest: { type: 'boolean', default: false },
      rules: { type: 'string' },
      scenarios: { type: 'string', multiple: true },
    },
  });
  const machineIds = MACHINES.map((m) => m.machine.id);
  const unknown = positionals.filter((d) => !Object.hasOwn(factCatalogue, d) && !machineIds.includes(d));
  const decisions = positionals.filter((d) => Object.hasOwn(factCatalogue, d)) as DecisionName[];
  const machines = positionals.filter((d) => machineIds.includes(d));
  const min = minScore(values['min-score']);
  if (unknown.length || Number.isNaN(min)) {
    process.stderr.write(
      `${unknown.length ? `no decision or machine called ${unknown.join(', ')}; the decisions are ${Object.keys(factCatalogue).join(', ')}; the machines ${machineIds.join(', ')}\n` : ''}usage: signalbox mutate [DECISION|MACHINE…] [--json] [--min-score N] [--suggest] [--rules DIR] [--scenarios DIR]\n`,
    );
    return 2;
  }
  const tty = process.stderr.isTTY && !values.json;
  const rulesDir = values.rules ?? defaultRulesDir();
  const scenarios = values.scenarios ?? ['scenarios'];
  const report = await mutate({
    rulesDir,
    scenarios,
    secrets: DEMO_SECRETS,
    // Without names, every decision and every machine; with names, those named.
    ...(positionals.length ? { decisions, machines } : { machines: machineIds }),
    ...(tty ? { progress: (done: number, total: number) => process.stderr.write(`\r${done}/${total} mutants`) } : {}),
  });
  if (tty) process.stderr.write('\n');
  process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : render(report));
  if (values.suggest) await suggest(report, rulesDir, scenarios[0]!, tty, values.json ? process.stderr : process.stdout);
  return min !== undefined && report.overall.score < min ? 1 : 0;
}

/** Writes the suggested scenarios next to the fixtures of the (first) scenarios folder, and says what it wrote (on stderr under --json). */
async function suggest(report: MutationReport, rulesDir: string, scenarios: string, tty: boolean, to: NodeJS.WritableStream): Promise<void> {
  const fixtures = join(scenarios, 'fixtures');
  const { written, none } = await writeSuggestions(report, {
    rulesDir,
    fixtures,
    dir: suggestedDir(fixtures),
    ...(tty ? { progress: (done: number, total: number) => process.stderr.write(`\r${done}/${total} survivors searched`) } : {}),
  });
  if (tty) process.stderr.write('\n');
  const out = [
    `\nwrote ${written.length} suggested scenario${written.length === 1 ? '' : 's'}:`,
    ...written.flatMap((w) => [w.mutant, ...w.alsoKills].map((m, i) => `  ${i === 0 ? w.file : ' '.repeat(w.file.length)}  kills ${m.change}`)),
  ];
  if (none.length)
    out.push(
      `no request tells ${none.length} survivor${none.length === 1 ? '' : 's'} apart (offers requests, and refunds of one ticket):`,
      ...none.map((m) => `  ${m.at}  ${m.change}`),
    );
  to.write(`${out.join('\n')}\n`);
}
