import { RuleFileError } from '../../engine/rules/index.ts';
import { runApiStep, type StepContext } from './api-step.ts';
import { nothingExercised, recordExchange, type Exercised } from './exercised.ts';
import { loadScenario, readHeader, type LoadedScenario } from './load.ts';
import type { RunOptions, ScenarioResult, StepResult } from './results.ts';
import { methodOf, type ApiStep, type ClockStep } from './schema.ts';
import { StepError } from './step-error.ts';
import { expand } from './templates.ts';
import type { HttpExchange, Session, Target } from './targets.ts';

export type { RunOptions, ScenarioResult } from './results.ts';

/**
 * Tokens already granted, per target and client. A scenario is about the API, not about the token
 * endpoint (steps that are about it call it themselves), and checking a secret is scrypt's deliberately slow work.
 */
const grantedTokens = new WeakMap<Target, Map<string, Promise<string>>>();

/** Runs one scenario file against one target, step by step, stopping at the first failing step (unless `keepGoing`). */
export async function runScenario(file: string, target: Target, options: RunOptions): Promise<ScenarioResult> {
  const started = performance.now();
  let loaded: LoadedScenario;
  try {
    loaded = loadScenario(file, options.texts?.get(file));
  } catch (e) {
    const problems = e instanceof RuleFileError ? [...e.problems] : [`${file}:1:1: ${(e as Error).message}`];
    const { name, tags } = readHeader(file);
    return { file, name: name ?? file, tags, passed: false, problems, steps: [], ms: performance.now() - started };
  }
  const { scenario } = loaded;
  const exercised = options.coverage ? nothingExercised() : undefined;
  // The clients the scenario calls as: the sandbox clock of each moves with its clock steps (targets.ts).
  const named = (value: string) => expand(value, { ...options.vars }, loaded.fixtures, []) as string;
  const asked = loaded.steps.flatMap(({ step }) => ('auth' in step && typeof step.auth === 'string' ? [step.auth] : []));
  const clients = [...new Set([scenario.client, ...asked].map(named))];
  const result = (fields: Pick<ScenarioResult, 'passed' | 'problems'> & { skipped?: string }): ScenarioResult => ({
    file,
    name: scenario.name,
    tags: scenario.tags,
    steps: [],
    ...fields,
    ms: performance.now() - started,
  });
  // A live server decides with the releases in its own store: a scenario that brings its own cannot run there.
  if (loaded.releases.length > 0 && !target.releases)
    return result({ passed: true, problems: [], skipped: `it declares rule releases, which only an in-process run makes (${target.name} has its own)` });
  let opened: Session;
  try {
    opened = await target.open(scenario.clock, clients, loaded.releases);
  } catch (e) {
    if (e instanceof StepError) return result({ passed: false, problems: [`${file}:1:1: ${e.message}`] });
    throw e;
  }
  const session = exercised ? recording(opened, exercised) : opened;
  if (!grantedTokens.has(target)) grantedTokens.set(target, new Map());
  const run: StepContext = { loaded, session, tokens: grantedTokens.get(target)!, vars: { ...options.vars }, options };
  const steps: StepResult[] = [];
  try {
    let failed = false;
    for (const { step, at, index } of loaded.steps) {
      const name = stepName(step);
      if (failed) {
        steps.push({ name, at, passed: false, skipped: true, mismatches: [], ms: 0 });
        continue;
      }
      const t0 = performance.now();
      let result: StepResult;
      try {
        result = isClockStep(step) ? await runClockStep(step, session) : await runApiStep(step, index, run);
      } catch (e) {
        result = { name, at, passed: false, mismatches: [], error: describeError(e, loaded, index), ms: 0 };
      }
      steps.push({ ...result, name, at, ms: performance.now() - t0 });
      failed = !result.passed && (!options.keepGoing || result.error !== undefined);
    }
  } finally {
    await session.close();
  }
  return {
    file,
    name: scenario.name,
    tags: scenario.tags,
    passed: steps.every((s) => s.passed),
    problems: [],
    steps,
    ...(exercised ? { exercised } : {}),
    ms: performance.now() - started,
  };
}

const isClockStep = (step: ApiStep | ClockStep): step is ClockStep => 'advance' in step || 'at' in step;

export function stepName(step: ApiStep | ClockStep): string {
  if (step.name) return step.name;
  if (isClockStep(step)) return step.advance ? `advance ${step.advance}` : `clock at ${step.at}`;
  const method = methodOf(step);
  return `${method.toUpperCase()} ${step[method]}`;
}

/** An author's mistake reads as `file:line:col: message`; anything else is a bug and keeps its stack. */
function describeError(e: unknown, loaded: LoadedScenario, index: number): string {
  if (!(e instanceof StepError)) return (e as Error).stack ?? String(e);
  return e.keys ? `${loaded.source.at(['steps', index, ...e.keys])}: ${e.message}` : e.message;
}

async function runClockStep(step: ClockStep, session: Session): Promise<StepResult> {
  if (step.advance) await session.advanceClock(step.advance);
  else await session.setClock(step.at!);
  return { name: '', at: '', passed: true, mismatches: [], ms: 0 };
}

/** Sends every request through `recordExchange` too, fetching its traces from a live target first. */
function recording(session: Session, into: Exercised): Session {
  return {
    ...session,
    async send(x: HttpExchange) {
      let res = await session.send(x);
      const requestId = res.headers['x-request-id'];
      if (!res.traces && session.traces && requestId) {
        const found = await session.traces(requestId);
        if ('traces' in found) res = { ...res, traces: found.traces };
      }
      recordExchange(into, x, res, res.traces ?? []);
      return res;
    },
  };
}
