import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getHeapSpaceStatistics } from 'node:v8';

/**
 * A server process the bench starts and loads from another process (so the load generator and the server
 * do not share one event loop). Listens on 127.0.0.1, a free port, and tells the parent over IPC:
 *
 *   tsx bench/server.ts signalbox <memory | sqlite:PATH> [logged]
 *                                                          the real server (buildServer), without logs or logging as
 *                                                          `signalbox serve` does
 *   tsx bench/server.ts bare                               node:http: parse the JSON body, echo it
 *   tsx bench/server.ts replay FILE                        node:http: parse the JSON body, answer what signalbox
 *                                                          answered to the same method and path (FILE: recorded)
 *   tsx bench/server.ts replay-fastify FILE                the same on Fastify, signalbox's HTTP framework
 *   tsx bench/server.ts floor FILE                         the floor: replay-fastify with signalbox's JSON body parser,
 *                                                          token check and Requestor (and POST /oauth2/token)
 *
 * IPC messages in: 'stop' (close and exit 0, so that --cpu-prof writes its profile), 'memory'.
 * Out: { port }, { rss, heapUsed, hwm, young } and { error }.
 */
const JWT_SECRET = 'signalbox-bench-jwt-secret';

const send = (m: unknown) => process.send?.(m);

type Listening = { port: number; close: () => Promise<void> };

/**
 * A bare node:http server that parses each JSON body (none is `undefined`) and answers what `answer` gives for it,
 * serialised anew each time; a body that is not JSON gets 400.
 */
async function bareJson(answer: (method: string, url: string, body: unknown) => { status: number; body: unknown }): Promise<Listening> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let status = 400;
      let out = '{"error":"bad json"}';
      try {
        const given = answer(req.method ?? '', req.url ?? '', chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined);
        status = given.status;
        out = JSON.stringify(given.body);
      } catch {
        /* not JSON: 400 */
      }
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(out) });
      res.end(out);
    });
  });
  server.keepAliveTimeout = 72_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The echo: the body it was sent, or {}. */
const bare = () => bareJson((_method, _url, body) => ({ status: 200, body: body ?? {} }));

/** One answer signalbox gave, recorded by bench/http.ts and bench/lifecycle.ts. */
export interface RecordedAnswer {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

const recorded = (file: string) => {
  const answers = new Map((JSON.parse(readFileSync(file, 'utf8')) as RecordedAnswer[]).map((a) => [`${a.method} ${a.path}`, a]));
  return (method: string, url: string) => answers.get(`${method} ${url}`) ?? { status: 404, body: { detail: `nothing recorded for ${method} ${url}` } };
};

/**
 * The ceiling of a case: a bare server that does none of signalbox's work but still parses each request and
 * serialises and sends signalbox's answer to it, as every server must. Answers are looked up by method and path:
 * ids in later paths come from earlier answers, which are the recorded ones.
 */
const replay = (file: string) => bareJson(recorded(file));

/** `replay` on Fastify: one catch-all route, Fastify's own JSON body parser and serialiser, no hooks. */
async function replayOnFastify(file: string): Promise<Listening> {
  const { default: Fastify } = await import('fastify');
  const answerTo = recorded(file);
  const app = Fastify({ logger: false, keepAliveTimeout: 72_000 });
  app.all('/*', async (req, reply) => {
    const answer = answerTo(req.method, req.url);
    return reply.code(answer.status).send(answer.body);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (app.server.address() as AddressInfo).port, close: () => app.close() };
}

/**
 * The floor of a signalbox answer: Fastify with signalbox's own request body parser (depth and array bounds), its
 * token check (HS256, verified claims remembered) and Requestor header, answering the recorded answer serialised
 * anew. What any server that checks the caller as signalbox does and gives the same answer costs at least; no
 * offer is made, nothing stored, no hook, no log.
 */
async function floor(file: string): Promise<Listening> {
  const { default: Fastify } = await import('fastify');
  const { createEngine } = await import('../engine/index.ts');
  const { createAuthenticator, readRequestor } = await import('../adapters/http/auth.ts');
  const { registerBodyParsers } = await import('../adapters/http/body.ts');
  const engine = createEngine();
  const auth = createAuthenticator(() => engine.rules, JWT_SECRET);
  const answerTo = recorded(file);
  const app = Fastify({ logger: false, keepAliveTimeout: 72_000 });
  app.decorate('engine', engine);
  registerBodyParsers(app);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  app.post('/oauth2/token', async (req) => auth.issue(req.headers.authorization, req.body as Record<string, string>));
  app.all('/*', async (req, reply) => {
    const client = await auth.verify(req.headers.authorization, 'reseller');
    readRequestor(engine.rules, req.headers['requestor'] as string | undefined, client);
    const answer = answerTo(req.method, req.url);
    return reply.code(answer.status).send(answer.body);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (app.server.address() as AddressInfo).port, close: () => app.close() };
}

/** `logged` (`signalbox <store> logged`): logging as `signalbox serve` does, JSON lines to stdout (here /dev/null). */
async function signalbox(storeSpec: string, logged = false): Promise<Listening> {
  const { createEngine } = await import('../engine/index.ts');
  const { buildServer } = await import('../adapters/http/server.ts');
  const { openStore } = await import('../adapters/store/open.ts');
  const app = await buildServer({
    engine: createEngine(),
    store: await openStore(storeSpec),
    jwtSecret: JWT_SECRET,
    logger: logged ? { level: 'info' } : false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (app.server.address() as AddressInfo).port, close: () => app.close() };
}

/** Peak resident set size (VmHWM) in bytes, where /proc has it. */
function hwm(): number {
  try {
    const kb = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * The bytes V8's young generation holds in memory now (its semi-spaces and new large objects): on Node 24 it may
 * grow to a size that scales with the machine's memory, a large part of a busy server's RSS (docs/performance.md).
 */
function youngGeneration(): number {
  return getHeapSpaceStatistics()
    .filter((s) => s.space_name === 'new_space' || s.space_name === 'new_large_object_space')
    .reduce((sum, s) => sum + s.physical_space_size, 0);
}

async function main() {
  const [kind, storeSpec = 'memory', option] = process.argv.slice(2);
  const server =
    kind === 'bare'
      ? await bare()
      : kind === 'signalbox'
        ? await signalbox(storeSpec, option === 'logged')
        : kind === 'replay'
          ? await replay(storeSpec)
          : kind === 'replay-fastify'
            ? await replayOnFastify(storeSpec)
            : kind === 'floor'
              ? await floor(storeSpec)
              : undefined;
  if (!server) throw new Error(`usage: server.ts bare | signalbox <store> | replay <file> | replay-fastify <file> | floor <file>; got ${kind}`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close();
    process.exit(0);
  };
  process.on('message', (m) => {
    if (m === 'stop') void stop();
    if (m === 'memory') {
      const { rss, heapUsed } = process.memoryUsage();
      send({ rss, heapUsed, hwm: hwm(), young: youngGeneration() });
    }
  });
  process.on('SIGTERM', () => void stop());
  process.on('disconnect', () => void stop());
  send({ port: server.port });
}

main().catch((e: unknown) => {
  send({ error: (e as Error).stack ?? String(e) });
  process.exit(1);
});
