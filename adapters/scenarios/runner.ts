import type { DecisionTrace } from '../../engine/index.ts';
import { RuleFileError } from '../../engine/rules/source.ts';
import { nothingExercised, recordExchange, type Exercised } from './exercised.ts';
import { loadScenario, readHeader, type LoadedScenario } from './load.ts';
import { match, type Mismatch } from './match.ts';
import { methodOf, type ApiStep, type ClockStep, type Fixtures, type Scenario } from './schema.ts';
import { StepError } from './step-error.ts';
import type { HttpExchange, HttpResult, Session, Target } from './targets.ts';
import { expand, pick } from './templates.ts';

export { loadScenario, type LoadedScenario } from './load.ts';

/** One scenario file run against one target, step by step, stopping at the first failing step. */
export interface StepResult {
  name: string;
  /** `file:line` of the step, for the failure report. */
  at: string;
  passed: boolean;
  skipped?: boolean;
  request?: { method: string; path: string; body?: unknown };
  response?: { status: number; body: unknown };
  /** Each with `at`: the `file:line:col` of the expectation it broke. */
  mismatches: Array<Mismatch & { at?: string }>;
  /** Why the step could not be carried out (`file:line:col: message`, or a stack for a bug). */
  error?: string;
  /** The rule traces behind a failing step's response. */
  traces?: readonly DecisionTrace[];
  /** Why a failing step has no traces (a live target without a sandbox). */
  tracesUnavailable?: string;
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
  /** With `coverage`: what the scenario's requests exercised. */
  exercised?: Exercised;
  ms: number;
}

export interface RunOptions {
  /** Client secrets by client id, for the token each scenario uses. */
  secrets: Readonly<Record<string, string>>;
  /** Record what every request exercised (live targets: one more request per step, for its traces). */
  coverage?: boolean;
}

/**
 * Tokens already granted, per target and client. A scenario is about the API, not about the token
 * endpoint (steps that are about it call it themselves); checking a secret costs ~30 ms of scrypt.
 */
const grantedTokens = new WeakMap<Target, Map<string, Promise<string>>>();

export async function runScenario(file: string, target: Target, options: RunOptions): Promise<ScenarioResult> {
  const started = performance.now();
  let loaded: LoadedScenario;
  try {
    loaded = loadScenario(file);
  } catch (e) {
    const problems = e instanceof RuleFileError ? [...e.problems] : [`${file}:1:1: ${(e as Error).message}`];
    const { name, tags } = readHeader(file);
    return { file, name: name ?? file, tags, passed: false, problems, steps: [], ms: performance.now() - started };
  }
  const { scenario } = loaded;
  const exercised = options.coverage ? nothingExercised() : undefined;
  const opened = await target.open(scenario.clock);
  const session = exercised ? recording(opened, exercised) : opened;
  if (!grantedTokens.has(target)) grantedTokens.set(target, new Map());
  const run: Run = { loaded, session, tokens: grantedTokens.get(target)!, vars: {}, options };
  const steps: StepResult[] = [];
  try {
    let failed = false;
    for (const { step, at, index } of loaded.steps) {
      const name = stepName(step);
      if (failed) { steps.push({ name, at, passed: false, skipped: true, mismatches: [], ms: 0 }); continue; }
      const t0 = performance.now();
      let result: StepResult;
      try {
        result = isClockStep(step) ? await runClockStep(step, session) : await runApiStep(step, index, run);
      } catch (e) {
        result = { name, at, passed: false, mismatches: [], error: describeError(e, loaded, index), ms: 0 };
      }
      steps.push({ ...result, name, at, ms: performance.now() - t0 });
      failed = !result.passed;
    }
  } finally {
    await session.close();
  }
  return {
    file, name: scenario.name, tags: scenario.tags, passed: steps.every((s) => s.passed), problems: [], steps,
    ...(exercised ? { exercised } : {}), ms: performance.now() - started,
  };
}

interface Run {
  loaded: LoadedScenario;
  session: Session;
  tokens: Map<string, Promise<string>>;
  vars: Record<string, unknown>;
  options: RunOptions;
}

const isClockStep = (step: ApiStep | ClockStep): step is ClockStep => 'advance' in step || 'at' in step;

function stepName(step: ApiStep | ClockStep): string {
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

function token(run: Run, client: string): Promise<string> {
  const known = run.tokens.get(client);
  if (known) return known;
  const secret = run.options.secrets[client];
  if (!secret) throw new StepError(`no secret known for client ${client}`);
  const granted = run.session.send({
    method: 'POST', path: '/oauth2/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client, client_secret: secret }).toString(),
  }).then((res) => {
    const t = (res.body as { access_token?: string } | undefined)?.access_token;
    if (res.status !== 200 || !t) throw new StepError(`the token request for ${client} answered ${res.status} ${JSON.stringify(res.body)}`);
    return t;
  });
  // A refused grant is not remembered: the next scenario asks again.
  run.tokens.set(client, granted);
  granted.catch(() => run.tokens.delete(client));
  return granted;
}

async function runApiStep(step: ApiStep, index: number, run: Run): Promise<StepResult> {
  const { loaded: { scenario, fixtures, source }, session, vars } = run;
  const method = methodOf(step);
  const path = expand(step[method], vars, fixtures, [method]) as string;
  const body = step.body === undefined ? undefined : expand(step.body, vars, fixtures, ['body']);
  const headers = await requestHeaders(step, scenario, path, body, run);
  for (const [k, v] of Object.entries(step.headers ?? {})) headers[k.toLowerCase()] = v === null ? null : (expand(v, vars, fixtures, ['headers', k]) as string);
  const sent = Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== null));
  const res: HttpResult = await session.send({ method, path, headers: sent, ...(body !== undefined ? { body } : {}) });

  const mismatches = check(step, res, vars, fixtures);
  if (mismatches.length === 0) save(step, res, vars, mismatches);
  const here = (keys: readonly PropertyKey[]) => source.at(['steps', index, ...keys]);
  const result: StepResult = {
    name: '', at: '', ms: 0,
    passed: mismatches.length === 0,
    request: { method: method.toUpperCase(), path, ...(body !== undefined ? { body } : {}) },
    response: { status: res.status, body: res.body },
    mismatches: mismatches.map((m) => ({ ...m, at: here(m.keys ?? ['expect']) })),
  };
  if (!result.passed) Object.assign(result, await tracesOf(res, session));
  return result;
}

/** Accept-Language, the JSON content type, the token and the Requestor (spec §2.1) a step sends unless it says otherwise. */
async function requestHeaders(step: ApiStep, scenario: Scenario, path: string, body: unknown, run: Run): Promise<Record<string, string | null>> {
  const headers: Record<string, string | null> = {
    'accept-language': scenario.language,
    ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}),
  };
  if (path.startsWith('/v3/') || path.startsWith('/customer/')) {
    const client = step.auth === undefined ? scenario.client : step.auth;
    if (client !== false) headers['authorization'] = `Bearer ${await token(run, client)}`;
    if (path.startsWith('/v3/')) {
      headers['requestor'] = Buffer.from(JSON.stringify({ salesApplication: step.salesApplication ?? scenario.salesApplication, salesUnitCode: 'SCENARIO' })).toString('base64');
    }
  }
  return headers;
}

/** Status, headers and body against `expect`; each mismatch keeps where in the step it was expected. */
function check(step: ApiStep, res: HttpResult, vars: Record<string, unknown>, fixtures: Fixtures): Mismatch[] {
  const mismatches: Mismatch[] = [];
  const expect = step.expect;
  if (expect.status !== undefined && res.status !== expect.status) {
    mismatches.push({ path: 'status', keys: ['expect', 'status'], expected: expect.status, actual: res.status, message: 'different status' });
  }
  for (const [h, v] of Object.entries(expect.headers ?? {})) {
    mismatches.push(...match(expand(v, vars, fixtures, ['expect', 'headers', h]), res.headers[h.toLowerCase()], false, `header ${h}`, ['expect', 'headers', h]));
  }
  if (expect.body !== undefined) {
    mismatches.push(...match(expand(expect.body, vars, fixtures, ['expect', 'body']), res.body, expect.exact ?? false, 'body', ['expect', 'body']));
  }
  return mismatches;
}

function save(step: ApiStep, res: HttpResult, vars: Record<string, unknown>, mismatches: Mismatch[]): void {
  for (const [name, from] of Object.entries(step.save ?? {})) {
    const value = from.startsWith('header:') ? res.headers[from.slice(7).toLowerCase()] : pick(res.body, from);
    if (value === undefined) mismatches.push({ path: `save ${name}`, keys: ['save', name], expected: '$any', actual: undefined, message: `nothing at ${from} in the response to save` });
    vars[name] = value;
  }
}

/** A failing step's traces: handed over in-process, fetched by request id from a live sandbox. */
async function tracesOf(res: HttpResult, session: Session): Promise<Pick<StepResult, 'traces' | 'tracesUnavailable'>> {
  if (res.traces) return { traces: res.traces };
  const requestId = res.headers['x-request-id'];
  if (!session.traces) return { tracesUnavailable: 'this target cannot give rule traces' };
  if (!requestId) return { tracesUnavailable: 'the response has no x-request-id header to ask for its traces by' };
  const found = await session.traces(requestId);
  return 'traces' in found ? { traces: found.traces } : { tracesUnavailable: found.unavailable };
}
