import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DecisionTrace } from '../engine/index.ts';
import { DEMO_SECRETS } from '../adapters/harness/demo-secrets.ts';
import { virtualClock } from '../adapters/service/clock.ts';
import { buildServer } from '../adapters/http/server.ts';
import { sequentialIds } from '../adapters/service/ids.ts';
import { scenarioFiles } from '../adapters/harness/files.ts';
import { inProcessClient } from '../adapters/harness/in-process-transport.ts';
import { runScenario } from '../adapters/harness/runner.ts';
import { inProcess, type HttpExchange, type Target } from '../adapters/harness/targets.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { engine, passengers, requestorHeader, trip } from './helpers/server.ts';

/**
 * The scenario runner's in-process requests (in-process-transport.ts) against `app.inject`, the way Fastify documents
 * for in-process requests: the same requests into two servers in the same state must get the same status, headers
 * and bytes, and leave the same rule traces.
 */
type Op = { send: HttpExchange } | { clock: (c: ReturnType<typeof virtualClock>) => void };
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
  traces: string;
}

/** Headers that differ between any two answers: the request id and trace context are random, `date` is the wall clock. */
const VARYING = new Set(['x-request-id', 'traceparent', 'date']);
/** An access token carries the wall-clock second it was issued in. */
const comparable = (a: Answer) => ({
  ...a,
  headers: Object.entries(a.headers).filter(([name]) => !VARYING.has(name)),
  body: a.body.replace(/"access_token":"[^"]*"/, '"access_token":"…"'),
});

async function server() {
  const store = memoryStore();
  const clock = virtualClock(new Date(0));
  let ids = sequentialIds();
  const app = await buildServer({ engine: engine(), store, clock, ids: { next: (kind) => ids.next(kind) }, sandbox: true, jwtSecret: 'transport-test' });
  const seen: { traces?: readonly DecisionTrace[] } = {};
  app.addHook('onResponse', async (request) => {
    seen.traces = request.traces;
  });
  const sendInProcess = inProcessClient(app);
  await app.ready();
  return {
    app,
    clock,
    async reset(start: string) {
      await store.reset();
      clock.set!(new Date(start));
      ids = sequentialIds();
    },
    async send(via: 'inject' | 'in-process', x: HttpExchange): Promise<Answer> {
      seen.traces = undefined;
      const body = x.body === undefined || typeof x.body === 'string' || Buffer.isBuffer(x.body) ? x.body : JSON.stringify(x.body);
      if (via === 'inject') return { ...(await injected(app, x, body)), traces: JSON.stringify(seen.traces ?? []) };
      const { request, ...answer } = await sendInProcess(x.method, x.path, x.headers, body);
      return { ...answer, traces: JSON.stringify(request?.traces ?? []) };
    },
  };
}

async function injected(app: FastifyInstance, x: HttpExchange, body: string | Buffer | undefined) {
  const res = await app.inject({ method: x.method as 'GET', url: x.path, headers: x.headers, ...(body !== undefined ? { payload: body } : {}) });
  return { status: res.statusCode, headers: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)])), body: res.body };
}

describe('in-process requests', () => {
  let a: Awaited<ReturnType<typeof server>>;
  let b: Awaited<ReturnType<typeof server>>;
  beforeAll(async () => {
    [a, b] = await Promise.all([server(), server()]);
  });

  it('answer every request of the scenario corpus as app.inject does, byte for byte, with the same traces', async () => {
    // What the corpus sends, scenario by scenario, clock moves included.
    const sessions: Array<{ start: string; ops: Op[] }> = [];
    const inner = inProcess(engine());
    const recording: Target = {
      name: 'recording',
      async open(start, clients) {
        const session = await inner.open(start, clients);
        const ops: Op[] = [];
        sessions.push({ start, ops });
        return {
          ...session,
          send: (x) => (ops.push({ send: x }), session.send(x)),
          setClock: (instant) => (ops.push({ clock: (c) => c.set!(new Date(instant)) }), session.setClock(instant)),
          advanceClock: (iso) => (ops.push({ clock: (c) => c.advance!(iso) }), session.advanceClock(iso)),
        };
      },
    };
    for (const file of [...scenarioFiles(['scenarios']), ...scenarioFiles(['scenarios/failing'])])
      await runScenario(file, recording, { secrets: DEMO_SECRETS });

    let requests = 0;
    for (const { start, ops } of sessions) {
      await Promise.all([a.reset(start), b.reset(start)]);
      for (const op of ops) {
        if ('clock' in op) {
          op.clock(a.clock);
          op.clock(b.clock);
          continue;
        }
        const [injectAnswer, ours] = [await a.send('inject', op.send), await b.send('in-process', op.send)];
        expect(comparable(ours), `${op.send.method} ${op.send.path}`).toEqual(comparable(injectAnswer));
        requests++;
      }
    }
    expect(requests).toBeGreaterThan(400);
  }, 60_000); // the whole corpus twice over: seconds alone, more on a busy machine

  const token = async () => {
    const res = await a.send('inject', {
      method: 'POST',
      path: '/oauth2/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&client_id=demo-reseller&client_secret=${DEMO_SECRETS['demo-reseller']!}`,
    });
    return (JSON.parse(res.body) as { access_token: string }).access_token;
  };
  const offersBody = JSON.stringify({ tripSpecifications: [trip()], anonymousPassengerSpecifications: passengers(35) });

  it.each([
    ['a path the URL parser tidies', { method: 'GET', path: '/v3/../health', headers: {} }],
    ['a path starting with two slashes', { method: 'GET', path: '//health', headers: {} }],
    ['a malformed percent escape', { method: 'GET', path: '/v3/bookings/%zz', headers: {} }],
    ['a dot segment spelled with escapes', { method: 'GET', path: '/v3/%2E%2e/health', headers: {} }],
    ['a path ending in a dot segment', { method: 'GET', path: '/health/.', headers: {} }],
    ['characters the URL parser escapes', { method: 'GET', path: "/v3/bookings/bö k'i?q='x y'&r=<z>", headers: {} }],
    ['characters it leaves', { method: 'GET', path: '/v3/bookings/a.b~c!$&()*+,;=:@%41?x=1&y=a:b/c?d', headers: {} }],
    ['a fragment', { method: 'GET', path: '/health#top', headers: {} }],
    ['an unknown route', { method: 'GET', path: '/nowhere?x=1', headers: {} }],
    ['a method the path does not take', { method: 'DELETE', path: '/health', headers: {} }],
    ['HEAD', { method: 'HEAD', path: '/health', headers: {} }],
    ['a body that is not JSON', { method: 'POST', path: '/v3/offers', headers: { 'content-type': 'application/json' }, body: '{"a": ' }],
    [
      'a body with text beyond ASCII',
      { method: 'POST', path: '/v3/offers', headers: { 'content-type': 'application/json', 'accept-language': 'sv-SE' }, body: '{"å": "ö€"}' },
    ],
    ['an empty body', { method: 'POST', path: '/v3/offers', headers: { 'content-type': 'application/json' }, body: '' }],
    [
      'a form for the token endpoint with a wrong secret',
      {
        method: 'POST',
        path: '/oauth2/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials&client_id=demo-reseller&client_secret=no',
      },
    ],
    ['an HTML page', { method: 'GET', path: '/', headers: { accept: 'text/html' } }],
  ] as Array<[string, HttpExchange]>)('answer %s as app.inject does', async (_name, x) => {
    await Promise.all([a.reset('2026-11-20T10:00:00+01:00'), b.reset('2026-11-20T10:00:00+01:00')]);
    expect(comparable(await b.send('in-process', x))).toEqual(comparable(await a.send('inject', x)));
  });

  it('read a gzip request body as app.inject does', async () => {
    const headers = { 'content-type': 'application/json', 'content-encoding': 'gzip', authorization: `Bearer ${await token()}`, requestor: requestorHeader() };
    const body = gzipSync(offersBody);
    const answers: Answer[] = [];
    for (const [target, via] of [
      [a, 'inject'],
      [b, 'in-process'],
    ] as const) {
      await target.reset('2026-11-20T10:00:00+01:00');
      answers.push(await target.send(via, { method: 'POST', path: '/v3/offers', headers, body }));
    }
    expect(answers[0]!.status).toBe(200);
    expect(comparable(answers[1]!)).toEqual(comparable(answers[0]!));
  });

  it('stream a gzip answer as app.inject does: chunked, the same length', async () => {
    const x: HttpExchange = { method: 'GET', path: '/openapi.json', headers: { 'accept-encoding': 'gzip' } };
    const [theirs, ours] = [await a.send('inject', x), await b.send('in-process', x)];
    expect(theirs.headers['content-encoding']).toBe('gzip');
    expect(theirs.headers['transfer-encoding']).toBe('chunked');
    // The bytes are gzip's, read as UTF-8 text by both; the text's length stands for them.
    expect({ ...comparable(ours), body: ours.body.length }).toEqual({ ...comparable(theirs), body: theirs.body.length });
  });

  it('answer when an onResponse hook of the app fails and Fastify skips the rest', { timeout: 5_000 }, async () => {
    const app = Fastify();
    app.addHook('onResponse', async () => {
      throw new Error('a broken hook');
    });
    app.get('/', async () => ({ ok: true }));
    const send = inProcessClient(app);
    await app.ready();
    const answer = await send('GET', '/', {});
    expect([answer.status, answer.body]).toEqual([200, '{"ok":true}']);
  });

  it('keep no answer once it is given, for a caller that never lets the event loop turn', async () => {
    const app = Fastify();
    // A new 200 KB body per request: 300 of them kept would be 60 MB.
    app.get('/', async (_request, reply) => reply.type('text/plain').send('x'.repeat(200_000)));
    const send = inProcessClient(app);
    await app.ready();
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const heapAfterCollecting = () => {
      collect();
      return process.memoryUsage().heapUsed;
    };
    const before = heapAfterCollecting();
    for (let i = 0; i < 300; i++) expect((await send('GET', '/', {})).body).toHaveLength(200_000);
    expect(heapAfterCollecting() - before).toBeLessThan(20 * 1024 * 1024);
  });
});
