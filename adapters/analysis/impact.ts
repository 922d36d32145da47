import { boundaryCasesOf, createEngine, type DecisionName, type RuleSet } from '../../engine/index.ts';
import { scenarioFiles } from '../harness/files.ts';
import { runScenario, type RunOptions, type ScenarioResult } from '../harness/runner.ts';
import { inProcess, type HttpExchange, type HttpResult, type Target } from '../harness/targets.ts';
import { simulateCases } from './simulate.ts';

/**
 * Impact analysis of a rule edit: every decision over its boundary cases, and the whole scenario corpus,
 * on the old and the new rule set. In-process, through the engine's public API and the scenario runner.
 */
interface RowChange {
  decision: string;
  /** The rows that decided before and after, e.g. `child-7-15 → youth-16-19`. */
  from: { row: string | null; outcome: unknown };
  to: { row: string | null; outcome: unknown };
  /** The fact rows that show the change (every boundary case that does). */
  cases: Array<Record<string, unknown>>;
}

interface StepChange {
  scenario: string;
  /** The n-th request of the scenario (1-based), the step that sent it and where that step is. */
  request: number;
  step: string;
  at?: string;
  status?: { from: number; to: number };
  code?: { from: string | null; to: string | null };
  /** Money that changed, by its place in the answer; amounts in minor units. */
  prices: Array<{ at: string; currency: string; from: number | null; to: number | null; difference: number }>;
  /** One side stopped earlier: its scenario failed a step (named) the other passed. */
  missing?: { on: 'old' | 'new'; failedStep?: string };
}

export interface Impact {
  decisions: RowChange[];
  scenarios: StepChange[];
  summary: { changedRows: number; changedCases: number; changedSteps: number; changedPrices: number; scenarios: number };
}

function compareDecisions(old: RuleSet, next: RuleSet): RowChange[] {
  const before = createEngine({ rules: old });
  const after = createEngine({ rules: next });
  const changes = new Map<string, RowChange>();
  for (const decision of Object.keys(next.decisions) as DecisionName[]) {
    if (!old.decisions[decision]) continue;
    const cases = boundaryCasesOf(next, decision, old);
    const a = simulateCases(before, decision, cases);
    const b = simulateCases(after, decision, cases);
    cases.forEach((facts, i) => {
      const x = a[i]!;
      const y = b[i]!;
      if (x.row === y.row && JSON.stringify(x.outcome) === JSON.stringify(y.outcome)) return;
      const key = JSON.stringify([decision, x.row, x.outcome, y.row, y.outcome]);
      if (!changes.has(key)) changes.set(key, { decision, from: { row: x.row, outcome: x.outcome }, to: { row: y.row, outcome: y.outcome }, cases: [] });
      changes.get(key)!.cases.push(y.facts);
    });
  }
  return [...changes.values()];
}

export interface Answer {
  exchange: HttpExchange;
  result: HttpResult;
  /** The scenario step that sent it; absent for the runner's own token requests. */ step?: { name: string; at: string };
}

function recording(target: Target, into: Answer[]): Target {
  return {
    name: target.name,
    async open(start, clients) {
      const session = await target.open(start, clients);
      return {
        ...session,
        async send(x) {
          const result = await session.send(x);
          into.push({ exchange: x, result });
          return result;
        },
      };
    },
  };
}

/** Every Money in an answer (an object with a currency and an amount), by its JSON path. */
function moneyIn(value: unknown, path = '', out = new Map<string, { currency: string; amount: number }>()): Map<string, { currency: string; amount: number }> {
  if (!value || typeof value !== 'object') return out;
  const v = value as Record<string, unknown>;
  if (typeof v['currency'] === 'string' && typeof v['amount'] === 'number') out.set(path || '/', { currency: v['currency'], amount: v['amount'] });
  else for (const [k, child] of Object.entries(v)) moneyIn(child, `${path}/${k}`, out);
  return out;
}

const codeOf = (r: HttpResult) => ((r.body as { code?: unknown } | undefined)?.code as string | undefined) ?? null;

/**
 * Runs one scenario, keeping every answer with the step that asked for it (`step` absent for the runner's own token
 * requests): each step that ran sent one request, in order.
 */
export async function runRecorded(file: string, target: Target, options: RunOptions): Promise<{ result: ScenarioResult; answers: Answer[] }> {
  const answers: Answer[] = [];
  const result = await runScenario(file, recording(target, answers), options);
  let next = 0;
  for (const s of result.steps) {
    if (!s.request) continue;
    while (next < answers.length && !(answers[next]!.exchange.method.toUpperCase() === s.request.method && answers[next]!.exchange.path === s.request.path))
      next++;
    if (next < answers.length) answers[next++]!.step = { name: s.name, at: s.at };
  }
  return { result, answers };
}

async function answersOf(
  rules: RuleSet,
  files: readonly string[],
  secrets: Record<string, string>,
): Promise<Map<string, { answers: Answer[]; failedStep?: string }>> {
  const target = inProcess(createEngine({ rules }));
  const out = new Map<string, { answers: Answer[]; failedStep?: string }>();
  for (const file of files) {
    const { result, answers } = await runRecorded(file, target, { secrets });
    const failed = result.steps.find((s) => !s.passed && !s.skipped);
    out.set(file, { answers, ...(failed ? { failedStep: failed.name } : {}) });
  }
  return out;
}

async function compareScenarios(old: RuleSet, next: RuleSet, paths: string[], secrets: Record<string, string>): Promise<StepChange[]> {
  const files = scenarioFiles(paths);
  const before = await answersOf(old, files, secrets);
  const after = await answersOf(next, files, secrets);
  const changes: StepChange[] = [];
  for (const file of files) {
    const { answers: a, failedStep: failedBefore } = before.get(file)!;
    const { answers: b, failedStep: failedAfter } = after.get(file)!;
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const x = a[i];
      const y = b[i];
      const named = (x ?? y)!.step;
      const step = named?.name ?? `${(x ?? y)!.exchange.method.toUpperCase()} ${(x ?? y)!.exchange.path}`;
      const at = named ? { at: named.at } : {};
      if (!x || !y) {
        const on = x ? 'new' : 'old';
        const failedStep = on === 'new' ? failedAfter : failedBefore;
        changes.push({ scenario: file, request: i + 1, step, ...at, prices: [], missing: { on, ...(failedStep ? { failedStep } : {}) } });
        break;
      }
      const change: StepChange = { scenario: file, request: i + 1, step, ...at, prices: [] };
      if (x.result.status !== y.result.status) change.status = { from: x.result.status, to: y.result.status };
      if (codeOf(x.result) !== codeOf(y.result)) change.code = { from: codeOf(x.result), to: codeOf(y.result) };
      const m = moneyIn(x.result.body);
      const n = moneyIn(y.result.body);
      for (const at of new Set([...m.keys(), ...n.keys()])) {
        const from = m.get(at);
        const to = n.get(at);
        if (from?.amount === to?.amount) continue;
        change.prices.push({
          at,
          currency: (to ?? from)!.currency,
          from: from?.amount ?? null,
          to: to?.amount ?? null,
          difference: (to?.amount ?? 0) - (from?.amount ?? 0),
        });
      }
      if (change.status || change.code || change.prices.length > 0) changes.push(change);
    }
  }
  return changes;
}

export async function impactOf(old: RuleSet, next: RuleSet, scenarioPaths: string[], secrets: Record<string, string>): Promise<Impact> {
  const decisions = compareDecisions(old, next);
  const scenarios = scenarioPaths.length > 0 ? await compareScenarios(old, next, scenarioPaths, secrets) : [];
  return {
    decisions,
    scenarios,
    summary: {
      changedRows: decisions.length,
      changedCases: decisions.reduce((n, d) => n + d.cases.length, 0),
      changedSteps: scenarios.length,
      changedPrices: scenarios.reduce((n, s) => n + s.prices.length, 0),
      scenarios: new Set(scenarios.map((s) => s.scenario)).size,
    },
  };
}
