import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { z } from 'zod';
import type { DecisionTrace } from '../../engine/index.ts';
import { parseSource, RuleFileError, type SourceFile } from '../../engine/rules/source.ts';
import { match, type Mismatch } from './match.ts';
import { ApiStep, ClockStep, Fixtures, methodOf, Scenario } from './schema.ts';
import type { HttpResult, Session, Target } from './targets.ts';
import { expand, pick, TemplateError } from './templates.ts';

/** One scenario file run against one target, step by step, stopping at the first failing step. */
export interface StepResult {
  name: string;
  /** `file:line` of the step, for the failure report. */
  at: string;
  passed: boolean;
  skipped?: boolean;
  request?: { method: string; path: string; body?: unknown };
  response?: { status: number; body: unknown };
  mismatches: Mismatch[];
  error?: string;
  traces?: readonly DecisionTrace[];
  ms: number;
}
export interface ScenarioResult {
  file: string;
  name: string;
  tags: string[];
  passed: boolean;
  /** Problems of the file itself (`file:line:col: message`), when it could not run. */
  problems: string[];
  steps: StepResult[];
  ms: number;
}

export interface LoadedScenario {
  file: string;
  source: SourceFile;
  scenario: Scenario;
  steps: Array<{ step: ApiStep | ClockStep; at: string }>;
  fixtures: Fixtures;
}

const zodProblems = (source: SourceFile, error: z.ZodError, prefix: PropertyKey[] = []) =>
  error.issues.map((i) => `${source.at([...prefix, ...i.path])}: ${[...prefix, ...i.path].join('.')}: ${i.message}`);

/** Reads and validates a scenario and the fixtures it uses; throws RuleFileError with `file:line:col` problems. */
export function loadScenario(file: string, fixtureCache = new Map<string, Fixtures>()): LoadedScenario {
  const source = parseSource(file, readFileSync(file, 'utf8'));
  const parsed = Scenario.safeParse(source.data);
  if (!parsed.success) throw new RuleFileError(zodProblems(source, parsed.error));
  const scenario = parsed.data;
  const problems: string[] = [];
  const steps = scenario.steps.flatMap((raw, i) => {
    const isClock = raw !== null && typeof raw === 'object' && ('advance' in raw || 'at' in raw);
    const result = (isClock ? ClockStep : ApiStep).safeParse(raw);
    if (!result.success) { problems.push(...zodProblems(source, result.error, ['steps', i])); return []; }
    const { line } = source.locate(['steps', i]);
    return [{ step: result.data, at: `${file}:${line}` }];
  });
  const fixtures: Fixtures = { trips: {}, passengers: {}, purchasers: {} };
  scenario.uses.forEach((use, i) => {
    const path = resolve(dirname(file), use);
    let f = fixtureCache.get(path);
    if (!f) {
      try {
        const fsource = parseSource(path, readFileSync(path, 'utf8'));
        const fp = Fixtures.safeParse(fsource.data);
        if (!fp.success) { problems.push(...zodProblems(fsource, fp.error)); return; }
        f = fp.data;
        fixtureCache.set(path, f);
      } catch (e) {
        problems.push(e instanceof RuleFileError ? e.problems.join('\n') : `${source.at(['uses', i])}: cannot read ${use}: ${(e as Error).message}`);
        return;
      }
    }
    Object.assign(fixtures.trips, f.trips);
    Object.assign(fixtures.passengers, f.passengers);
    Object.assign(fixtures.purchasers, f.purchasers);
  });
  if (problems.length > 0) throw new RuleFileError(problems);
  return { file, source, scenario, steps, fixtures };
}

export interface RunOptions {
  /** Client secrets by client id, for the token each scenario uses. */
  secrets: Readonly<Record<string, string>>;
}

export async function runScenario(file: string, target: Target, options: RunOptions): Promise<ScenarioResult> {
  const started = performance.now();
  let loaded: LoadedScenario;
  try {
    loaded = loadScenario(file);
  } catch (e) {
    const problems = e instanceof RuleFileError ? [...e.problems] : [`${file}:1:1: ${(e as Error).message}`];
    return { file, name: file, tags: [], passed: false, problems, steps: [], ms: performance.now() - started };
  }
  const { scenario, fixtures } = loaded;
  const session = await target.open(scenario.clock);
  const tokens = new Map<string, string>();
  const vars: Record<string, unknown> = {};
  const steps: StepResult[] = [];
  try {
    let failed = false;
    for (const [i, { step, at }] of loaded.steps.entries()) {
      const name = step.name ?? ('advance' in step && step.advance ? `advance ${step.advance}` : 'at' in step && step.at ? `clock at ${step.at}` : `${methodOf(step as ApiStep).toUpperCase()} ${(step as ApiStep)[methodOf(step as ApiStep)]}`);
      if (failed) { steps.push({ name, at, passed: false, skipped: true, mismatches: [], ms: 0 }); continue; }
      const t0 = performance.now();
      try {
        if ('advance' in step || 'at' in step) {
          const clock = step as ClockStep;
          if (clock.advance) await session.advanceClock(clock.advance);
          else await session.setClock(clock.at!);
          steps.push({ name, at, passed: true, mismatches: [], ms: performance.now() - t0 });
          continue;
        }
        const result = await runApiStep(step as ApiStep, scenario, session, tokens, vars, fixtures, options);
        result.name = name;
        result.at = at;
        result.ms = performance.now() - t0;
        steps.push(result);
        failed = !result.passed;
      } catch (e) {
        steps.push({ name, at, passed: false, mismatches: [], error: e instanceof TemplateError ? e.message : (e as Error).stack ?? String(e), ms: performance.now() - t0 });
        failed = true;
      }
      void i;
    }
  } finally {
    await session.close();
  }
  return { file, name: scenario.name, tags: scenario.tags, passed: steps.every((s) => s.passed), problems: [], steps, ms: performance.now() - started };
}

async function token(session: Session, client: string, tokens: Map<string, string>, options: RunOptions): Promise<string> {
  const known = tokens.get(client);
  if (known) return known;
  const secret = options.secrets[client];
  if (!secret) throw new Error(`no secret known for client ${client}`);
  const res = await session.send({
    method: 'POST', path: '/oauth2/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client, client_secret: secret }).toString(),
  });
  const t = (res.body as { access_token?: string }).access_token;
  if (res.status !== 200 || !t) throw new Error(`token request for ${client} answered ${res.status}`);
  tokens.set(client, t);
  return t;
}

async function runApiStep(
  step: ApiStep, scenario: Scenario, session: Session, tokens: Map<string, string>, vars: Record<string, unknown>, fixtures: Fixtures, options: RunOptions,
): Promise<StepResult> {
  const method = methodOf(step);
  const path = expand(step[method], vars, fixtures) as string;
  const body = step.body === undefined ? undefined : expand(step.body, vars, fixtures);
  const headers: Record<string, string | null> = {
    'accept-language': scenario.language,
    ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}),
  };
  if (path.startsWith('/v3/') || path.startsWith('/customer/')) {
    const client = step.auth === undefined ? scenario.client : step.auth;
    if (client !== false) headers['authorization'] = `Bearer ${await token(session, client, tokens, options)}`;
    if (path.startsWith('/v3/')) {
      headers['requestor'] = Buffer.from(JSON.stringify({ salesApplication: step.salesApplication ?? scenario.salesApplication, salesUnitCode: 'SCENARIO' })).toString('base64');
    }
  }
  for (const [k, v] of Object.entries(step.headers ?? {})) headers[k.toLowerCase()] = v === null ? null : (expand(v, vars, fixtures) as string);
  const sent = Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== null));
  const res: HttpResult = await session.send({ method, path, headers: sent, ...(body !== undefined ? { body } : {}) });

  const mismatches: Mismatch[] = [];
  const expect = step.expect;
  if (expect.status !== undefined && res.status !== expect.status) mismatches.push({ path: '(status)', expected: expect.status, actual: res.status, message: 'different status' });
  for (const [h, v] of Object.entries(expect.headers ?? {})) mismatches.push(...match(expand(v, vars, fixtures), res.headers[h.toLowerCase()], false, `(header ${h})`));
  if (expect.body !== undefined) mismatches.push(...match(expand(expect.body, vars, fixtures), res.body, expect.exact ?? false));
  if (mismatches.length === 0) {
    for (const [name, from] of Object.entries(step.save ?? {})) {
      const value = from.startsWith('header:') ? res.headers[from.slice(7).toLowerCase()] : pick(res.body, from);
      if (value === undefined) mismatches.push({ path: from, expected: '(a value to save)', actual: undefined, message: `nothing at ${from} to save as ${name}` });
      vars[name] = value;
    }
  }
  return {
    name: '', at: '', ms: 0,
    passed: mismatches.length === 0,
    request: { method: method.toUpperCase(), path, ...(body !== undefined ? { body } : {}) },
    response: { status: res.status, body: res.body },
    mismatches,
    ...(res.traces && mismatches.length > 0 ? { traces: res.traces } : {}),
  };
}
