import { createEngine, readRuleSources, withMachineAnswer, type DecisionName, type RuleSet, type RuleSource } from '../../engine/index.ts';
import { scenarioFiles } from '../harness/files.ts';
import { runScenario } from '../harness/runner.ts';
import { inProcess } from '../harness/targets.ts';
import type { MutantResult, MutationReport } from '../http/openapi/studio-schemas.ts';
import { runRecorded } from './impact.ts';
import { machineMutants } from './machine-mutants.ts';
import { compileMutant, mutantsOf, type Mutant } from './mutants.ts';
import { differingCases } from './simulate.ts';

/**
 * How well the scenarios guard the rules: each mutant of a decision table (mutants.ts) is run against the scenarios
 * whose requests asked that decision on the real rules; the first one that fails kills it. A mutant `check` refuses
 * for what it is does not count; one the table's own examples refuse is killed by them. A machine's mutant
 * (machine-mutants.ts) runs against every scenario that passes on the real rules. One nothing kills survives.
 * In-process, one scenario after another, stopping at a mutant's first kill.
 */
export type { MutantResult, MutationReport } from '../http/openapi/studio-schemas.ts';

export interface MutateOptions {
  rulesDir: string;
  scenarios: string[];
  secrets: Record<string, string>;
  /** Only these decisions; all of them without. */
  decisions?: DecisionName[];
  /** The machines whose transitions to mutate (their ids, `booking`…); none without. */
  machines?: string[];
  /** Told each mutant's verdict as it comes (the CLI's progress). */
  progress?: (done: number, total: number, result: MutantResult) => void;
}

/** Which decisions each scenario's requests asked, on the real rules. */
async function decisionsAsked(rules: RuleSet, files: readonly string[], secrets: Record<string, string>): Promise<Map<string, Set<string>>> {
  const target = inProcess(createEngine({ rules }));
  const out = new Map<string, Set<string>>();
  for (const file of files) {
    const { result, answers } = await runRecorded(file, target, { secrets });
    if (!result.passed) continue; // a scenario that fails already cannot tell a mutant apart
    out.set(file, new Set(answers.flatMap((a) => (a.result.traces ?? []).map((t) => t.decision))));
  }
  return out;
}

async function verdictOf(
  mutant: Mutant,
  original: RuleSet,
  sources: readonly RuleSource[],
  files: readonly string[],
  secrets: Record<string, string>,
): Promise<MutantResult> {
  const { text: _text, ...rest } = mutant;
  const { rules, failedExamples } = compileMutant(sources, mutant);
  if (!rules) return { ...rest, verdict: 'invalid' };
  if (failedExamples.length > 0) return { ...rest, verdict: 'killed', killedBy: 'examples' };
  if (differingCases(original, rules, mutant.decision).length === 0) return { ...rest, verdict: 'equivalent' };
  const target = inProcess(createEngine({ rules }));
  for (const file of files) {
    const result = await runScenario(file, target, { secrets });
    if (!result.passed) return { ...rest, verdict: 'killed', killedBy: file };
  }
  return { ...rest, verdict: 'survived' };
}

export async function mutate(options: MutateOptions): Promise<MutationReport> {
  const started = performance.now();
  const sources = readRuleSources(options.rulesDir);
  const rules = createEngine({ rulesDir: options.rulesDir }).rules;
  const asked = await decisionsAsked(rules, scenarioFiles(options.scenarios), options.secrets);
  const decisions = options.decisions ?? (Object.keys(rules.decisions) as DecisionName[]);
  const mutants = decisions.flatMap((d) => mutantsOf(rules, sources, d));
  const results: MutantResult[] = [];
  for (const m of mutants) {
    const files = [...asked].filter(([, ds]) => ds.has(m.decision)).map(([file]) => file);
    const result = await verdictOf(m, rules, sources, files, options.secrets);
    results.push(result);
    options.progress?.(results.length, mutants.length, result);
  }
  const passing = [...asked.keys()];
  const machineResults: MutantResult[] = [];
  const machines = options.machines ? machineMutants(options.machines) : [];
  const target = inProcess(createEngine({ rules }));
  for (const { mutant, machine } of machines) {
    // Which scenarios take a transition is not recorded: every scenario runs, until the first that fails.
    const killer = await withMachineAnswer(machine, mutant.row, mutant.event, mutant.next, async () => {
      for (const file of passing) if (!(await runScenario(file, target, { secrets: options.secrets })).passed) return file;
      return undefined;
    });
    const { event: _event, next: _next, ...named } = mutant;
    const result: MutantResult = {
      ...named,
      verdict: killer ? 'killed' : 'survived',
      ...(killer ? { killedBy: killer } : {}),
    };
    machineResults.push(result);
    options.progress?.(results.length + machineResults.length, mutants.length + machines.length, result);
  }
  const scoreOf = (rs: readonly MutantResult[]) => {
    const valid = rs.filter((r) => r.verdict === 'killed' || r.verdict === 'survived').length;
    const killed = rs.filter((r) => r.verdict === 'killed').length;
    const killedByScenarios = rs.filter((r) => r.verdict === 'killed' && r.killedBy !== 'examples').length;
    return { mutants: rs.length, valid, killed, killedByScenarios, score: valid === 0 ? 1 : killed / valid };
  };
  return {
    decisions: decisions
      .map((decision): MutationReport['decisions'][number] => ({
        decision,
        file: rules.decisions[decision].file,
        ...scoreOf(results.filter((r) => r.decision === decision)),
        scenarios: [...asked.values()].filter((ds) => ds.has(decision)).length,
      }))
      .concat(
        [...new Set(machines.map((m) => m.mutant.decision))].map((id) => ({
          decision: id,
          file: machines.find((m) => m.mutant.decision === id)!.mutant.file,
          ...scoreOf(machineResults.filter((r) => r.decision === id)),
          scenarios: passing.length,
        })),
      ),
    overall: scoreOf([...results, ...machineResults]),
    mutants: [...results, ...machineResults],
    ms: performance.now() - started,
  };
}
