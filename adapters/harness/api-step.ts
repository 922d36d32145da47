import { checkResponse } from './api-schema.ts';
import type { LoadedScenario } from './load.ts';
import { match, type Mismatch } from './match.ts';
import { osdmConformance } from './osdm-conformance.ts';
import type { RunOptions, StepResult } from './results.ts';
import { methodOf, type ApiStep, type Fixtures, type Scenario } from './schema.ts';
import { StepError } from './step-error.ts';
import { grantToken } from './token-grant.ts';
import type { HttpResult, Session } from './targets.ts';
import { expand, pick } from './templates.ts';

/**
 * An API step: expand the templates, send the request with the scenario's token, Requestor and
 * language, check status, headers and body against `expect`, save what it asks to save; a failing
 * step carries the rule traces behind its response.
 */
export interface StepContext {
  loaded: LoadedScenario;
  session: Session;
  /** Tokens already granted by this target, by client (shared by the scenarios run against it). */
  tokens: Map<string, Promise<string>>;
  vars: Record<string, unknown>;
  options: RunOptions;
}

function token(run: StepContext, client: string): Promise<string> {
  const known = run.tokens.get(client);
  if (known) return known;
  const secret = run.options.vars?.[`secret.${client}`] ?? run.options.secrets[client];
  if (!secret) throw new StepError(`no secret known for client ${client} (give it with --var secret.${client}=…)`);
  const granted = grantToken((x) => run.session.send(x), client, secret);
  // A refused grant is not remembered: the next scenario asks again.
  run.tokens.set(client, granted);
  granted.catch(() => run.tokens.delete(client));
  return granted;
}

export async function runApiStep(step: ApiStep, index: number, run: StepContext): Promise<StepResult> {
  const {
    loaded: { scenario, fixtures, source },
    session,
    vars,
  } = run;
  const method = methodOf(step);
  const path = expand(step[method], vars, fixtures, [method]) as string;
  const body = step.body === undefined ? undefined : expand(step.body, vars, fixtures, ['body']);
  const headers = await requestHeaders(step, scenario, path, body, run);
  for (const [k, v] of Object.entries(step.headers ?? {})) headers[k.toLowerCase()] = v === null ? null : (expand(v, vars, fixtures, ['headers', k]) as string);
  const sent = Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== null));
  const res: HttpResult = await session.send({ method, path, headers: sent, ...(body !== undefined ? { body } : {}) });

  const mismatches = [...check(step, res, vars, fixtures), ...checkSchema(step, method, path, res)];
  // A step kept going past (`keepGoing`) still saves what later steps need, where the answer has it.
  if (mismatches.length === 0 || run.options.keepGoing) save(step, res, vars, mismatches);
  const here = (keys: readonly PropertyKey[]) => source.at(['steps', index, ...keys]);
  const result: StepResult = {
    name: '',
    at: '',
    ms: 0,
    passed: mismatches.length === 0,
    request: { method: method.toUpperCase(), path, ...(body !== undefined ? { body } : {}) },
    response: { status: res.status, body: res.body },
    mismatches: mismatches.map((m) => ({ ...m, at: here(m.keys ?? ['expect']) })),
    ...(run.options.osdm ? { osdm: osdmConformance(run.options.osdm).check(method, path, res.status, res.body) } : {}),
  };
  if (!result.passed) Object.assign(result, await tracesOf(res, session));
  return result;
}

/** Accept-Language, the JSON content type, the token and the Requestor (spec §2.1) a step sends unless it says otherwise. */
async function requestHeaders(step: ApiStep, scenario: Scenario, path: string, body: unknown, run: StepContext): Promise<Record<string, string | null>> {
  const headers: Record<string, string | null> = {
    'accept-language': scenario.language,
    ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}),
  };
  // Client and sales application may name variables, so one scenario runs with another target's credentials.
  const named = (value: string, keys: readonly PropertyKey[]) => expand(value, run.vars, run.loaded.fixtures, keys) as string;
  // The sandbox controls act for the caller's client too (its own clock, its own reset).
  if (path.startsWith('/v3/') || path.startsWith('/customer/') || path.startsWith('/sandbox/')) {
    const client = step.auth === undefined ? named(scenario.client, []) : step.auth === false ? false : named(step.auth, ['auth']);
    if (client !== false) headers['authorization'] = `Bearer ${await token(run, client)}`;
    if (path.startsWith('/v3/')) {
      const salesApplication = step.salesApplication === undefined ? named(scenario.salesApplication, []) : named(step.salesApplication, ['salesApplication']);
      headers['requestor'] = scenarioRequestor(salesApplication);
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
    mismatches.push(
      ...match(expand(v, vars, fixtures, ['expect', 'headers', h]), res.headers[h.toLowerCase()], false, `header ${h}`, ['expect', 'headers', h]),
    );
  }
  if (expect.body !== undefined) {
    mismatches.push(...match(expand(expect.body, vars, fixtures, ['expect', 'body']), res.body, expect.exact ?? false, 'body', ['expect', 'body']));
  }
  return mismatches;
}

/**
 * The body against the API's schema for the operation and status (or the one `expect.schema` names): an empty or
 * partial body fails here even when `expect.body` names none of what is missing. Its place in the file is the
 * step's own, or its `expect.schema`.
 */
function checkSchema(step: ApiStep, method: string, path: string, res: HttpResult): Mismatch[] {
  const keys = step.expect.schema === undefined ? [] : ['expect', 'schema'];
  return checkResponse(method, path, res.status, res.body, step.expect.schema).map((m) => ({ ...m, keys }));
}

function save(step: ApiStep, res: HttpResult, vars: Record<string, unknown>, mismatches: Mismatch[]): void {
  for (const [name, from] of Object.entries(step.save ?? {})) {
    const value = from.startsWith('header:') ? res.headers[from.slice(7).toLowerCase()] : pick(res.body, from);
    if (value === undefined)
      mismatches.push({
        path: `save ${name}`,
        keys: ['save', name],
        expected: '$any',
        actual: undefined,
        message: `nothing at ${from} in the response to save`,
      });
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

/** The Requestor header a scenario step sends (CONTRACT §3): its sales application, the scenarios' own sales unit. */
export function scenarioRequestor(salesApplication: string): string {
  let header = requestors.get(salesApplication);
  if (header === undefined) {
    header = Buffer.from(JSON.stringify({ salesApplication, salesUnitCode: 'SCENARIO' })).toString('base64');
    if (requestors.size < 1000) requestors.set(salesApplication, header);
  }
  return header;
}
/** The header of each sales application, spelled once (every step to /v3 sends one). */
const requestors = new Map<string, string>();
