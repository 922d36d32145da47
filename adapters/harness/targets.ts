import type { DecisionTrace, Engine } from '../../engine/index.ts';
import { virtualClock } from '../service/clock.ts';
import { sequentialIds } from '../service/ids.ts';
import { newRelease } from '../service/new-release.ts';
import { buildServer } from '../http/server.ts';
import { memoryStore } from '../store/memory.ts';
import type { Store } from '../store/store.ts';
import type { ScenarioReleaseFiles } from './load.ts';
import { inProcessClient } from './in-process-transport.ts';
import { StepError } from './step-error.ts';
import { grantToken } from './token-grant.ts';

/** What a scenario talks to: the server in-process (no socket) or a live one at a URL. */
export interface HttpExchange {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}
export interface HttpResult {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** The engine's traces behind the response, when the target hands them over with it (in-process). */
  traces?: readonly DecisionTrace[];
}
/** The traces behind one response, or why they cannot be had. */
type TraceLookup = { traces: readonly DecisionTrace[] } | { unavailable: string };

export interface Session {
  send(x: HttpExchange): Promise<HttpResult>;
  /** Sets or moves the clock; rejects with a StepError when the target has no controllable clock. */
  setClock(instant: string): Promise<void>;
  advanceClock(iso: string): Promise<void>;
  /** The traces behind an earlier response, by its `x-request-id` (live targets: GET /sandbox/traces/{id}). */
  traces?(requestId: string): Promise<TraceLookup>;
  close(): Promise<void>;
}
export interface Target {
  readonly name: string;
  /**
   * A session for one scenario, its clock at `start`. `clients` are the clients the scenario calls as: on a live
   * sandbox each has a clock of its own (adapters/service/clock.ts), so every clock step moves each of theirs.
   * `releases`: the scenario's rule releases, in the session's store before its first step (`releases` targets only).
   */
  open(start: string, clients?: readonly string[], releases?: readonly ScenarioReleaseFiles[]): Promise<Session>;
  /** Whether a scenario may bring rule releases of its own (in-process: yes; a live server decides with its store's). */
  readonly releases?: boolean;
}

function parseBody(text: string, contentType: string | undefined): unknown {
  if (text === '') return undefined;
  if (contentType?.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * Every in-process server signs tokens with this key, so a token fetched in one scenario is good in the
 * next (the runner keeps them per target: scrypt's check of a client secret would be most of a short scenario).
 */
const IN_PROCESS_JWT_SECRET = 'scenario-secret';

/**
 * An in-process server per scenario as far as the scenario can tell — an empty memory store, a virtual
 * clock at its start, ids counting from 1 — without paying for a new Fastify app each time: a closed
 * session's app is emptied and handed to the next one (a third of the runner's time went into building apps).
 * Sessions open at the same time each get their own app, so scenarios never see each other.
 */
export function inProcess(engine: Engine): Target {
  const idle: Array<Awaited<ReturnType<typeof build>>> = [];
  async function build(store: Store = memoryStore()) {
    const clock = virtualClock(new Date(0));
    let ids = sequentialIds();
    const app = await buildServer({
      engine,
      store,
      clock,
      ids: { next: (kind) => ids.next(kind) },
      sandbox: true,
      journal: false,
      jwtSecret: IN_PROCESS_JWT_SECRET,
    });
    const send = inProcessClient(app);
    await app.ready();
    return {
      send,
      clock,
      close: () => app.close(),
      async reset(start: string) {
        await store.reset();
        clock.set!(new Date(start));
        ids = sequentialIds();
      },
    };
  }
  /**
   * A server of its own for a scenario with rule releases, its store holding them (made at the scenario's start by
   * `scenario`): the engine's rules with the files each release replaces. A release stays in its store, so such a
   * server is handed on only to a scenario that brings the same releases at the same start (`releaseKey`): compiling
   * the releases and their engines again made a run of that scenario cost as much as the rest of the corpus.
   */
  async function withReleases(start: string, releases: readonly ScenarioReleaseFiles[]) {
    const store = memoryStore();
    const fileName = (path: string) => path.split('/').pop()!;
    for (const { replace, ...r } of releases) {
      const unknown = Object.keys(replace).filter((name) => !engine.rules.sources.some((s) => fileName(s.file) === name));
      if (unknown.length > 0) throw new StepError(`the release ${r.name} replaces ${unknown.join(', ')}, which the rules do not have`);
      const sources = engine.rules.sources.map((s) => ({ file: s.file, text: replace[fileName(s.file)] ?? s.text }));
      const made = newRelease({ ...r, createdBy: 'scenario', createdOn: new Date(start) }, sources);
      if ('problems' in made) throw new StepError(`the release ${r.name} is refused:\n${made.problems.join('\n')}`);
      await store.putRelease(made.release);
    }
    return build(store);
  }
  const idleWithReleases = new Map<string, Array<Awaited<ReturnType<typeof build>>>>();
  const releaseKey = (start: string, releases: readonly ScenarioReleaseFiles[]) => JSON.stringify([start, releases]);
  return {
    name: 'in-process',
    releases: true,
    async open(start, _clients, releases = []) {
      // Requests in-process never wait for the event loop (in-process-transport.ts): let timers and I/O run here.
      await new Promise((resolve) => setImmediate(resolve));
      const key = releases.length > 0 ? releaseKey(start, releases) : undefined;
      const pool = key === undefined ? idle : (idleWithReleases.get(key) ?? idleWithReleases.set(key, []).get(key)!);
      const server = pool.pop() ?? (key === undefined ? await build() : await withReleases(start, releases));
      await server.reset(start);
      const { send, clock } = server;
      return {
        async send(x) {
          const payload = x.body === undefined ? undefined : typeof x.body === 'string' ? x.body : JSON.stringify(x.body);
          const res = await send(x.method, x.path, x.headers, payload);
          return { status: res.status, headers: res.headers, body: parseBody(res.body, res.headers['content-type']), traces: res.request?.traces ?? [] };
        },
        async setClock(instant) {
          clock.set!(new Date(instant));
        },
        async advanceClock(iso) {
          clock.advance!(iso);
        },
        async close() {
          pool.push(server);
        },
      };
    },
  };
}

/**
 * A live server (CONTRACT §9 `--target URL`); clock steps need its /sandbox/clock, traces its /sandbox/traces. The
 * sandbox controls act for the client whose token calls them: `secrets` names each client's secret.
 */
export function live(baseUrl: string, options: { reset?: boolean; secrets?: Readonly<Record<string, string>> } = {}): Target {
  const base = baseUrl.replace(/\/$/, '');
  const send = async (x: HttpExchange): Promise<HttpResult> => {
    const res = await fetch(base + x.path, {
      method: x.method.toUpperCase(),
      headers: x.headers,
      ...(x.body !== undefined ? { body: typeof x.body === 'string' ? x.body : JSON.stringify(x.body) } : {}),
    }).catch((e: Error) => {
      // A server that is down is the user's to fix, not a bug of the runner: no stack.
      throw new StepError(`${base} cannot be reached: ${e.cause instanceof Error ? e.cause.message : e.message}`);
    });
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      headers[k] = v;
    });
    return { status: res.status, headers, body: parseBody(await res.text(), headers['content-type']) };
  };
  // A token per client, kept for the whole run like the steps' own (api-step.ts); a refused grant is asked again.
  const tokens = new Map<string, Promise<string>>();
  const authorization = (client: string): Promise<string> => {
    let granted = tokens.get(client);
    if (!granted) {
      const secret = options.secrets?.[client];
      if (!secret) return Promise.reject(new StepError(`no secret known for client ${client} (give it with --var secret.${client}=…)`));
      granted = grantToken(send, client, secret).then((t) => `Bearer ${t}`);
      tokens.set(client, granted);
      granted.catch(() => tokens.delete(client));
    }
    return granted;
  };
  const clockCall = async (clients: readonly string[], body: unknown) => {
    for (const client of clients) {
      const headers = { 'content-type': 'application/json', authorization: await authorization(client) };
      const res = await send({ method: 'POST', path: '/sandbox/clock', headers, body });
      if (res.status === 404)
        throw new StepError('the target has no sandbox clock (POST /sandbox/clock answered 404): start it with --sandbox to run scenarios with clock steps');
      if (res.status !== 200)
        throw new StepError(`the target's sandbox clock refused the change: POST /sandbox/clock answered ${res.status} ${JSON.stringify(res.body)}`);
    }
  };
  const traces = async (requestId: string, sandbox: boolean): Promise<TraceLookup> => {
    if (!sandbox) return { unavailable: 'the target has no sandbox: start it with --sandbox to see the rule traces' };
    const res = await send({ method: 'GET', path: `/sandbox/traces/${encodeURIComponent(requestId)}`, headers: {} });
    const found = res.body as { traces?: DecisionTrace[] } | undefined;
    if (res.status === 200 && Array.isArray(found?.traces)) return { traces: found.traces };
    return { unavailable: `GET /sandbox/traces/${requestId} answered ${res.status} (the server keeps only recent requests' traces)` };
  };
  return {
    name: base,
    async open(start, clients = ['demo-reseller']) {
      // --reset: the scenario's clients start from an empty store, as it does in-process (places on a train, for
      // one), and their clocks follow the server's again.
      if (options.reset) {
        for (const client of clients) {
          const res = await send({ method: 'POST', path: '/sandbox/reset', headers: { authorization: await authorization(client) } });
          if (res.status !== 200) throw new StepError(`--reset: POST /sandbox/reset answered ${res.status}; start the server with --sandbox`);
        }
      }
      // The scenario's start time, where the server has a sandbox clock; clock steps insist on one.
      const sandbox = await clockCall(clients, { now: start, freeze: true }).then(
        () => true,
        () => false,
      );
      return {
        send,
        // Frozen, so the instants a scenario expects do not drift by the milliseconds a request takes.
        setClock: (instant) => clockCall(clients, { now: instant, freeze: true }),
        advanceClock: (iso) => clockCall(clients, { advance: iso, freeze: true }),
        traces: (requestId) => traces(requestId, sandbox),
        async close() {},
      };
    },
  };
}
