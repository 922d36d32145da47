import type { FastifyInstance } from 'fastify';
import { osdmViolations } from './osdm.ts';
import { match, type Mismatch } from '../../adapters/harness/match.ts';
import { expand, pick } from '../../adapters/harness/templates.ts';
import { engine } from './server.ts';

/**
 * The real side of the model-based test: the HTTP adapter in-process, spoken to in scenario steps.
 *
 * Every request a command makes is a scenario step (method and path, body, `auth`, `expect`, `save`,
 * `${var}` references) expanded and matched by the scenario runner's own code, and recorded; so the
 * sequence that broke a property can be written out as a scenario that runs unchanged with
 * `signalbox test` (model-scenario.ts).
 *
 * Whatever the command, every response is checked here against the invariants that hold for any
 * request: no 5xx, and every refusal an `application/problem+json` Problem whose code, status and title
 * are the catalogue's (CONTRACT §5).
 */

export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

export interface Request {
  /** What the step does, in words: the step's `name` in the scenario. */
  name: string;
  method: Method;
  /** The path, with `${var}` references. */
  path: string;
  /** A JSON body with `${var}` references; a string is sent as it is (malformed JSON). */
  body?: unknown;
  /** Another OAuth client's token (CONTRACT §3: another client's booking is not found). */
  auth?: string;
  headers?: Record<string, string>;
  /** The Requestor's sales application (rules/sales-applications.yaml); WEB_SE when not given. */
  salesApplication?: string;
  /** What the model predicts: the status, and a subset of the body in the scenario matcher's terms. */
  expect: { status: number; body?: unknown };
}

export interface Response {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/** One step as a scenario writes it, with what happened. */
export interface Recorded {
  step: Record<string, unknown>;
  /** A read made only to check invariants (the sweep after each command): left out of a written scenario unless it failed. */
  observational: boolean;
  response?: { status: number; body: unknown };
}

/** A property broken by the system (not by the harness): the recorded steps lead up to it. */
export class PropertyViolation extends Error {
  override name = 'PropertyViolation';
}

const SCENARIO_CLIENT = 'demo-reseller';
const LANGUAGE = 'en-GB';
/** The scenarios' default sales application (adapters/harness/schema.ts). */
const SALES_APPLICATION = 'WEB_SE';
const NO_FIXTURES = { trips: {}, passengers: {}, purchasers: {} };

/** Tokens are signed with the test servers' shared key and do not depend on the virtual clock: fetch each once. */
const tokens = new Map<string, Promise<string>>();
function token(app: FastifyInstance, client: string): Promise<string> {
  let t = tokens.get(client);
  if (!t) {
    t = app
      .inject({
        method: 'POST',
        url: '/oauth2/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `grant_type=client_credentials&client_id=${client}&client_secret=${client}-secret`,
      })
      .then((res) => {
        if (res.statusCode !== 200) throw new Error(`token for ${client}: ${res.statusCode} ${res.body}`);
        return res.json().access_token as string;
      });
    tokens.set(client, t);
  }
  return t;
}

export class System {
  readonly steps: Recorded[] = [];
  readonly vars: Record<string, unknown> = {};
  /** The command running now, for messages. */
  command = '';
  /** The commands run, in order (fast-check skips those the model did not enable). */
  readonly commands: string[] = [];
  private readonly counters = new Map<string, number>();

  private readonly app: FastifyInstance;
  constructor(app: FastifyInstance) {
    this.app = app;
  }

  /** A fresh scenario variable name: `booking1`, `booking2`, … */
  newVar(prefix: string): string {
    const n = (this.counters.get(prefix) ?? 0) + 1;
    this.counters.set(prefix, n);
    return `${prefix}${n}`;
  }

  /** Sends one step, checks the universal invariants and the model's prediction, and records it. */
  async send(request: Request, options: { observational?: boolean } = {}): Promise<Response> {
    const step: Record<string, unknown> = { name: request.name, [request.method]: request.path };
    if (request.auth) step['auth'] = request.auth;
    if (request.salesApplication && request.salesApplication !== SALES_APPLICATION) step['salesApplication'] = request.salesApplication;
    if (request.headers) step['headers'] = request.headers;
    if (request.body !== undefined) step['body'] = request.body;
    step['expect'] = request.expect.body === undefined ? { status: request.expect.status } : request.expect;
    const recorded: Recorded = { step, observational: options.observational ?? false };
    this.steps.push(recorded);

    const path = expand(request.path, this.vars, NO_FIXTURES) as string;
    const body = request.body === undefined ? undefined : expand(request.body, this.vars, NO_FIXTURES);
    // The headers the scenario runner sends (adapters/harness/api-step.ts), so a replay sees the same requests.
    const headers: Record<string, string> = {
      'accept-language': LANGUAGE,
      ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}),
      authorization: `Bearer ${await token(this.app, request.auth ?? SCENARIO_CLIENT)}`,
      requestor: Buffer.from(JSON.stringify({ salesApplication: request.salesApplication ?? SALES_APPLICATION, salesUnitCode: 'SCENARIO' })).toString('base64'),
      ...Object.fromEntries(Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    };
    const res = await this.app.inject({
      method: request.method.toUpperCase() as 'GET',
      url: path,
      headers,
      ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const answer: Response = {
      status: res.statusCode,
      headers: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)])),
      body:
        res.body === ''
          ? undefined
          : (() => {
              try {
                return JSON.parse(res.body);
              } catch {
                return res.body;
              }
            })(),
    };
    recorded.response = { status: answer.status, body: answer.body };

    const sent = `${request.method.toUpperCase()} ${path}${body !== undefined ? ` ${JSON.stringify(body)}` : ''}`;
    const broken = [...universalProblems(answer), ...osdmViolations(request.method, path, answer.status, answer.body).map((v) => `breaks OSDM 3.4 at ${v}`)];
    if (broken.length > 0) throw this.violation(`${sent}\n  ${broken.join('\n  ')}`, answer);
    const mismatches: Mismatch[] = [];
    if (answer.status !== request.expect.status)
      mismatches.push({ path: 'status', expected: request.expect.status, actual: answer.status, message: 'different status' });
    if (request.expect.body !== undefined) mismatches.push(...match(expand(request.expect.body, this.vars, NO_FIXTURES), answer.body));
    if (mismatches.length > 0) {
      const lines = mismatches.map((m) => `${m.path}: ${m.message} (expected ${JSON.stringify(m.expected)}, got ${short(m.actual)})`);
      throw this.violation(`${sent}\n  the model predicted otherwise:\n  ${lines.join('\n  ')}`, answer);
    }
    return answer;
  }

  /** Saves `path` of the last response as the variable `name` (a `save:` of the last recorded step). */
  save(name: string, path: string): unknown {
    const last = this.steps[this.steps.length - 1]!;
    const value = pick(last.response?.body, path);
    if (value === undefined) throw new Error(`harness: nothing at ${path} to save as ${name}`);
    last.step['save'] = { ...(last.step['save'] as Record<string, string> | undefined), [name]: path };
    this.vars[name] = value;
    return value;
  }

  /** A clock step (`advance: PT…`): through the sandbox clock of the HTTP adapter, as a live target would. */
  async advance(duration: string, predictedNow: string): Promise<void> {
    const recorded: Recorded = { step: { name: `${duration} pass`, advance: duration }, observational: false };
    this.steps.push(recorded);
    // Each client has its own sandbox clock: every client the run has called as moves, as a live target moves them.
    for (const client of new Set([SCENARIO_CLIENT, ...tokens.keys()])) {
      const res = await this.app.inject({
        method: 'POST',
        url: '/sandbox/clock',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${await token(this.app, client)}` },
        payload: JSON.stringify({ advance: duration }),
      });
      recorded.response = { status: res.statusCode, body: res.json() };
      if (res.statusCode !== 200 || res.json().now !== predictedNow) {
        throw this.violation(
          `POST /sandbox/clock {"advance":"${duration}"} as ${client}: expected 200 and now ${predictedNow}, got ${res.statusCode} ${res.body}`,
          undefined,
        );
      }
    }
  }

  /** Fails the run at the last step with what the model expected (invariants that no scenario matcher can say). */
  violation(message: string, answer: Response | undefined): PropertyViolation {
    return new PropertyViolation(`${this.command}: ${message}${answer ? `\n  response ${answer.status} ${short(answer.body, 1500)}` : ''}`);
  }
}

const short = (v: unknown, max = 300) => {
  const s = v === undefined ? 'nothing' : JSON.stringify(v);
  return s.length > max ? `${s.slice(0, max)}…` : s;
};

/** CONTRACT §5: no 5xx but 501 for what is not built; every refusal a Problem from the catalogue, in the caller's language; every warning catalogued. */
export function universalProblems(res: Response): string[] {
  const { errors, warnings } = engine().rules;
  const out: string[] = [];
  // CONTRACT §5: 501 X_NOT_SUPPORTED is the one 5xx by design (vouchers, nearby, booked-offers); no other.
  const notSupported = res.status === 501 && (res.body as { code?: unknown } | undefined)?.code === 'X_NOT_SUPPORTED';
  if (res.status >= 500 && !notSupported) out.push(`a ${res.status}: no request, however malformed, may get a 5xx (CONTRACT §5)`);
  if (res.status >= 400) {
    if (!/^application\/problem\+json/.test(res.headers['content-type'] ?? ''))
      out.push(`a refusal must be application/problem+json, not ${res.headers['content-type']}`);
    const p = res.body as Record<string, unknown> | undefined;
    const code = typeof p?.['code'] === 'string' ? p['code'] : undefined;
    const entry = code === undefined ? undefined : errors[code];
    if (!entry) out.push(`the Problem's code ${JSON.stringify(p?.['code'])} is not in rules/errors.yaml`);
    else {
      if (entry.status !== res.status) out.push(`${code} is ${entry.status} in the catalogue, answered with ${res.status}`);
      if (p?.['status'] !== res.status) out.push(`the Problem's status ${JSON.stringify(p?.['status'])} is not the HTTP status ${res.status}`);
      if (p?.['title'] !== entry.title[LANGUAGE])
        out.push(`the Problem's title ${JSON.stringify(p?.['title'])} is not the catalogue's "${entry.title[LANGUAGE]}"`);
      if (typeof p?.['type'] !== 'string' || typeof p?.['detail'] !== 'string') out.push('a Problem has a type and a detail');
    }
  }
  const given = (res.body as { warnings?: { warnings?: Array<{ code?: string }> } } | undefined)?.warnings?.warnings;
  for (const w of res.status < 300 ? (given ?? []) : [])
    if (!w.code || !warnings[w.code]) out.push(`the warning ${JSON.stringify(w.code)} is not in rules/errors.yaml`);
  return out;
}
