import { boundaryCasesOf, createEngine, type DecisionName, type RuleSet } from '../../engine/index.ts';
import { scenarioFiles } from '../harness/files.ts';
import { runScenario, type RunOptions, type ScenarioResult } from '../harness/runner.ts';
import type { StepResult } from '../harness/results.ts';
import type { ImpactReport } from '../http/openapi/studio-schemas.ts';
import { comparePrices } from './price-probes.ts';
import { inProcess, type HttpExchange, type HttpResult, type Target } from '../harness/targets.ts';
import { simulateCases } from './simulate.ts';

/**
 * Impact analysis of a rule edit: every decision over its boundary cases, the offer prices of the price probes, and
 * the whole scenario corpus, on the old and the new rule set. In-process, through the engine's public API and the
 * scenario runner.
 */
export type Impact = ImpactReport;
type RowChange = Impact['decisions'][number];
type TextChange = Impact['texts'][number];
type StepChange = Impact['scenarios'][number];

/** A text in every language (`{ en-GB: …, sv-SE: … }`): the rule files' wording, which an edit may change alone. */
const isText = (v: unknown): boolean =>
  !!v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0 && Object.keys(v).every((k) => /^[a-z]{2}-[A-Z]{2}$/.test(k));

/** An outcome without its texts, to tell a changed decision from a reworded one. */
function withoutTexts(outcome: unknown): unknown {
  if (!outcome || typeof outcome !== 'object' || Array.isArray(outcome)) return outcome;
  return Object.fromEntries(Object.entries(outcome).filter(([, v]) => !isText(v)));
}

function compareDecisions(old: RuleSet, next: RuleSet): { decisions: RowChange[]; texts: TextChange[] } {
  const before = createEngine({ rules: old });
  const after = createEngine({ rules: next });
  const changes = new Map<string, RowChange>();
  const texts = new Map<string, TextChange>();
  for (const decision of Object.keys(next.decisions) as DecisionName[]) {
    if (!old.decisions[decision]) continue;
    const cases = boundaryCasesOf(next, decision, old);
    const a = simulateCases(before, decision, cases);
    const b = simulateCases(after, decision, cases);
    cases.forEach((facts, i) => {
      const x = a[i]!;
      const y = b[i]!;
      if (x.row === y.row && JSON.stringify(x.outcome) === JSON.stringify(y.outcome)) return;
      if (x.row === y.row && JSON.stringify(withoutTexts(x.outcome)) === JSON.stringify(withoutTexts(y.outcome))) {
        const was = (x.outcome ?? {}) as Record<string, unknown>;
        const is = (y.outcome ?? {}) as Record<string, unknown>;
        for (const k of new Set([...Object.keys(was), ...Object.keys(is)])) {
          if (JSON.stringify(was[k]) === JSON.stringify(is[k])) continue;
          const key = JSON.stringify([decision, y.row, k]);
          const seen = texts.get(key);
          if (seen) seen.cases++;
          else texts.set(key, { decision, row: y.row, key: k, from: was[k], to: is[k], cases: 1 });
        }
        return;
      }
      const key = JSON.stringify([decision, x.row, x.outcome, y.row, y.outcome]);
      if (!changes.has(key)) changes.set(key, { decision, from: { row: x.row, outcome: x.outcome }, to: { row: y.row, outcome: y.outcome }, cases: [] });
      changes.get(key)!.cases.push(y.facts);
    });
  }
  return { decisions: [...changes.values()], texts: [...texts.values()] };
}

/** An answer a scenario run got, recorded with the step that asked for it (answer-diff.ts's `Answer` is its status and body alone). */
export interface RecordedAnswer {
  exchange: HttpExchange;
  result: HttpResult;
  /** The scenario step that sent it; absent for the runner's own token requests. */ step?: { name: string; at: string };
}

function recording(target: Target, into: RecordedAnswer[]): Target {
  return {
    name: target.name,
    ...(target.releases ? { releases: true } : {}),
    async open(start, clients, releases) {
      const session = await target.open(start, clients, releases);
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
export async function runRecorded(file: string, target: Target, options: RunOptions): Promise<{ result: ScenarioResult; answers: RecordedAnswer[] }> {
  const answers: RecordedAnswer[] = [];
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

interface Recorded {
  answers: RecordedAnswer[];
  /** Each step's result, by where it is written. */
  steps: Map<string, StepResult>;
  failedStep?: string;
}

async function answersOf(rules: RuleSet, files: readonly string[], options: RunOptions): Promise<Map<string, Recorded>> {
  const target = inProcess(createEngine({ rules }));
  const out = new Map<string, Recorded>();
  for (const file of files) {
    // Past a failing step too: an edit that fails one expectation may change prices the next steps read.
    const { result, answers } = await runRecorded(file, target, { ...options, keepGoing: true });
    const failed = result.steps.find((s) => !s.passed && !s.skipped);
    out.set(file, { answers, steps: new Map(result.steps.map((s) => [s.at, s])), ...(failed ? { failedStep: failed.name } : {}) });
  }
  return out;
}

const verdictOf = (s: StepResult | undefined): 'passed' | 'failed' | 'not run' => (!s || s.skipped ? 'not run' : s.passed ? 'passed' : 'failed');

async function compareScenarios(
  old: RuleSet,
  next: RuleSet,
  paths: string[],
  secrets: Record<string, string>,
  texts?: ReadonlyMap<string, string>,
): Promise<StepChange[]> {
  const files = scenarioFiles(paths);
  const before = await answersOf(old, files, { secrets });
  const after = await answersOf(next, files, { secrets, ...(texts ? { texts } : {}) });
  const changes: StepChange[] = [];
  for (const file of files) {
    const { answers: a, failedStep: failedBefore, steps: stepsBefore } = before.get(file)!;
    const { answers: b, failedStep: failedAfter, steps: stepsAfter } = after.get(file)!;
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
      const was = named ? stepsBefore.get(named.at) : undefined;
      const is = named ? stepsAfter.get(named.at) : undefined;
      // A step failing on the new rules is listed even when it failed before: the studio's save is gated on it.
      if (verdictOf(was) !== verdictOf(is) || verdictOf(is) === 'failed') change.verdict = { from: verdictOf(was), to: verdictOf(is) };
      if (is && !is.passed && is.mismatches.length > 0)
        change.mismatches = is.mismatches.map((m) => ({
          path: m.path,
          expected: m.expected,
          actual: m.actual,
          message: m.message,
          ...(m.at ? { at: m.at } : {}),
          ...(m.keys ? { keys: m.keys.map((k) => (typeof k === 'number' ? k : String(k))) } : {}),
        }));
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
      if (change.verdict || change.status || change.code || change.prices.length > 0) changes.push(change);
    }
  }
  return changes;
}

export interface ImpactOptions {
  secrets: Record<string, string>;
  /** The scenarios' fixtures, whose `price-probes.yaml` says which offers to price; no prices compared without it. */
  fixtures?: string;
  /** The instant the price probes are asked at. */
  now?: Date;
  /** Scenario texts the edit would write, by file: their steps run as edited on the new rules. */
  texts?: ReadonlyMap<string, string>;
}

export async function impactOf(old: RuleSet, next: RuleSet, scenarioPaths: string[], options: ImpactOptions): Promise<Impact> {
  const { decisions, texts } = compareDecisions(old, next);
  const prices = options.fixtures ? comparePrices(old, next, options.fixtures, options.now ?? new Date()) : [];
  const scenarios = scenarioPaths.length > 0 ? await compareScenarios(old, next, scenarioPaths, options.secrets, options.texts) : [];
  return {
    decisions,
    texts,
    prices,
    scenarios,
    summary: {
      changedRows: decisions.length,
      changedCases: decisions.reduce((n, d) => n + d.cases.length, 0),
      changedTexts: texts.length,
      changedOfferPrices: prices.length,
      changedSteps: scenarios.length,
      changedPrices: scenarios.reduce((n, s) => n + s.prices.length, 0),
      failingSteps: scenarios.filter((s) => s.verdict?.to === 'failed').length,
      scenarios: new Set(scenarios.map((s) => s.scenario)).size,
    },
  };
}
