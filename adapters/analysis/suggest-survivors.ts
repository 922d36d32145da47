import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine, readRuleSources, type DecisionName } from '../../engine/index.ts';
import { DEMO_SECRETS } from '../harness/demo-secrets.ts';
import { runScenario } from '../harness/runner.ts';
import { inProcess } from '../harness/targets.ts';
import { compileMutant, mutantsOf } from './mutants.ts';
import type { MutantResult, MutationReport } from './mutate.ts';
import { suggestScenario } from './suggest.ts';

/**
 * `signalbox mutate --suggest`: for each surviving mutant of a mutation run, the scenario that would kill it
 * (suggest.ts), written under `dir` as `<decision>-<row>-<what changed>.yaml`. A file already there is never
 * written over: the next free name (`…-2.yaml`) is taken instead. A survivor that a scenario written in the same
 * run already kills gets no file of its own: that scenario's header names it too.
 */
export interface SuggestedFiles {
  written: Array<{ file: string; mutant: MutantResult; alsoKills: MutantResult[] }>;
  /** Survivors no request in the search tells apart from the real rules (or that no offers request reaches). */
  none: MutantResult[];
}

/** `dir/name.yaml`, or the first of `name-2.yaml`, `name-3.yaml`… not there yet. */
export function freeName(dir: string, name: string): string {
  for (let n = 1; ; n++) {
    const file = join(dir, `${name}${n === 1 ? '' : `-${n}`}.yaml`);
    if (!existsSync(file)) return file;
  }
}

export async function writeSuggestions(
  report: MutationReport,
  options: { rulesDir: string; fixtures: string; dir: string; progress?: (done: number, total: number) => void },
): Promise<SuggestedFiles> {
  const sources = readRuleSources(options.rulesDir);
  const rules = createEngine({ rulesDir: options.rulesDir }).rules;
  const survivors = report.mutants.filter((m) => m.verdict === 'survived');
  const decisions = [...new Set(survivors.map((m) => m.decision))].filter((d): d is DecisionName => Object.hasOwn(rules.decisions, d));
  const mutants = new Map(decisions.flatMap((d) => mutantsOf(rules, sources, d)).map((m) => [m.id, m]));
  const out: SuggestedFiles = { written: [], none: [] };
  const texts = new Map<string, string>();
  for (const [i, survivor] of survivors.entries()) {
    const mutant = mutants.get(survivor.id);
    const compiled = mutant && compileMutant(sources, mutant).rules;
    const target = compiled && inProcess(createEngine({ rules: compiled }));
    let killer: SuggestedFiles['written'][number] | undefined;
    for (const w of target ? out.written : []) {
      if ((await runScenario(w.file, target!, { secrets: DEMO_SECRETS, texts })).passed) continue;
      killer = w;
      break;
    }
    if (killer) {
      killer.alsoKills.push(survivor);
      const text = texts.get(killer.file)!.replace(/^(# {3}.*\n)(?!# {3})/m, `$1#   ${survivor.at}  ${survivor.change}\n`);
      texts.set(killer.file, text);
      writeFileSync(killer.file, text);
      options.progress?.(i + 1, survivors.length);
      continue;
    }
    const suggestion = compiled && (await suggestScenario(rules, compiled, survivor, { fixtures: options.fixtures, dir: options.dir }));
    if (suggestion) {
      mkdirSync(options.dir, { recursive: true });
      const file = freeName(options.dir, suggestion.name);
      writeFileSync(file, suggestion.text);
      texts.set(file, suggestion.text);
      out.written.push({ file, mutant: survivor, alsoKills: [] });
    } else out.none.push(survivor);
    options.progress?.(i + 1, survivors.length);
  }
  return out;
}
