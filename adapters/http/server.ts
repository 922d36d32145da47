import { randomBytes, randomUUID } from 'node:crypto';
import compress from '@fastify/compress';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { phrase, RuleViolation, type DecisionTrace, type Engine, type IdSource, type Requestor } from '../../engine/index.ts';
import { durationMs } from '../../engine/rules/index.ts';
import { clocksOf, systemClock, sandboxClock, type Clock } from '../service/clock.ts';
import { randomIds } from '../service/ids.ts';
import { createService, type Service } from '../service/service.ts';
import type { Store } from '../store/store.ts';
import { answersPerTurn } from './answers-per-turn.ts';
import { createAuthenticator, readRequestor, withScope, type Scope } from './auth.ts';
import { registerBodyParsers } from './body.ts';
import { registerFaults } from './faults.ts';
import { negotiateLanguage } from './language.ts';
import { lazyChild, loggerOptions, serverLoggers, traceFields, traceOf, traceparentOf } from './logging.ts';
import { openApiDocument, type RegisteredRoute } from './openapi/document.ts';
import { forIntegrators } from './openapi/for-integrators.ts';
import { packageVersion } from './openapi/routes.ts';
import { apiTable, operations, routeTable, type Operation } from './operations/index.ts';
import { RULES_RELEASE_HEADER } from './operations/operation.ts';
import { registerOperations } from './operations/register.ts';
import { rawProblem, sendProblem, toViolation } from './problems.ts';
import { tokenRoutes } from './token.ts';
import { recordRequests } from './journal.ts';
import { configuredOsdmVersion, requestedOsdmVersion, versionedJsonType } from './version.ts';
import type {} from './fastify-types.ts';

export { osdmVersionNumber } from './version.ts';

export interface ServerOptions {
  engine: Engine;
  store: Store;
  /** Defaults to the system clock, or a movable sandbox clock with `sandbox`. */
  clock?: Clock;
  ids?: IdSource;
  /** Enables /sandbox/* (CONTRACT §8). */
  sandbox?: boolean;
  /**
   * Keeps the journal of the last requests the studio shows (sandbox only; on unless false). The in-process scenario
   * target leaves it off: no studio reads its servers' journals, and keeping it slowed every scenario step.
   */
  journal?: boolean;
  /**
   * `serve --journal-personal-data`: an analyst reads the journal's personal data as sent; otherwise masked
   * (docs/studio.md). A client reading its own requests always sees them as it sent them.
   */
  journalPersonalData?: boolean;
  /** HS256 key for access tokens; generated per process when absent. */
  jwtSecret?: string;
  /**
   * Pino options (`{ level, stream }`), or true for info to stdout; false or absent: no logs. Redaction of secrets,
   * the request serializer and ISO times are added whatever is given (logging.ts).
   */
  logger?: boolean | object;
  /** Published client secrets GET / shows on a sandbox (CONTRACT §10). */
  demoSecrets?: Readonly<Record<string, string>>;
  /**
   * Wings served beside the API, each with its entries of the route table, handlers included: the analysts'
   * workbench (adapters/studio/routes.ts `studioExtension`), which `signalbox serve` adds.
   */
  extensions?: ReadonlyArray<{ operations: readonly Operation[] }>;
}

/**
 * One log line per request, written once it is answered: "request completed" (or "request errored") names the
 * request, the answer and its time. "incoming request" is written at debug level only, to follow a request still
 * in flight. Fastify's default writes both at info: two lines per request, each serialised and written.
 *
 * The "request completed" line goes through `lines`, a logger without redaction: its request and answer come from
 * the allow-listing serializers of logging.ts, which leave secrets out, and it needs no request logger of its own
 * (those are made lazily, `lazyChild`). Everything else a request logs, errors included, is redacted.
 */
class OneLinePerRequest extends LogController {
  private readonly lines: Logger | undefined;
  constructor(lines?: Logger) {
    super();
    this.lines = lines;
  }

  override incomingRequest(request: FastifyRequest) {
    if (this.lines?.isLevelEnabled('debug')) request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (!this.lines) return;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else
      this.lines.info(
        { reqId: request.id, ...traceFields(traceOf(request.raw)), req: request, res: reply, responseTime: reply.elapsedTime },
        'request completed',
      );
  }
}

/** How hard answers are gzip-compressed: zlib's fast end, where most of the size is already saved. */
const GZIP_LEVEL = 3;

/**
 * The longest path parameter (as sent, percent-encoded) the router matches; a longer one is an unknown path (404).
 * Fastify's default, named so that `methodsOf` matches as the router does.
 */
const MAX_PARAM_LENGTH = 100;

/** Sandbox mode keeps this many requests' traces for GET /sandbox/traces/{requestId}. */
const RECENT_TRACES = 500;

/** The HTTP adapter: a thin Fastify layer over the service (CONTRACT §1–§8). */
export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const { store } = options;
  const rules = options.engine.rules; // start-up settings only (body limit); everything else reads service.engine
  const clock = options.clock ?? (options.sandbox ? sandboxClock() : systemClock);
  const bodyLimit = rules.limits.requestBodyLimitBytes;
  let service: Service | undefined;
  const logging = loggerOptions(options.logger);
  const loggers = logging ? serverLoggers(logging) : undefined;
  const app = Fastify({
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- without it Fastify's logger type becomes pino's Logger, not the app's
    ...(loggers ? { loggerInstance: loggers.root as FastifyBaseLogger } : {}),
    logController: new OneLinePerRequest(loggers?.lines),
    bodyLimit,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
    },
    // Every line a request logs names its trace and our span (W3C Trace Context, logging.ts). Without logs, Fastify's
    // own factory hands every request the silent logger.
    ...(loggers
      ? {
          childLoggerFactory: (logger, bindings, loggerOpts, raw) => lazyChild(() => logger.child({ ...bindings, ...traceFields(traceOf(raw)) }, loggerOpts)),
        }
      : {}),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // A malformed path (`/v3/bookings/%zz`) or an over-long id: a Problem like any other answer.
    frameworkErrors: (error, request, reply) => {
      const language = negotiateLanguage(request.headers['accept-language'], service!.engine.rules.limits.languages);
      reply
        .header('content-language', language)
        .header('x-request-id', request.id)
        .header('traceparent', traceparentOf(traceOf(request.raw)));
      sendProblem(service!.engine, reply, request, toViolation(error, request, bodyLimit), language);
    },
    // Requests Node's parser refuses (CR or LF inside a header, headers beyond 16 KiB, unknown methods) never reach
    // Fastify; they get a Problem too, written to the socket.
    clientErrorHandler: (error: Error & { code?: string }, socket) => {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      if (socket.writable) socket.write(rawProblem(service!.engine, error, socket));
      socket.destroy(error);
    },
    // A request, body included, must arrive within requestTimeout (rules/limits.yaml): a body trickled a byte at a
    // time is ended with 408 (rawProblem), other connections untouched. Node checks at connectionsCheckingInterval.
    // Node arms the check only when the timeout is given to its constructor, hence `http` as well.
    requestTimeout: durationMs(rules.limits.requestTimeout),
    http: {
      requestTimeout: durationMs(rules.limits.requestTimeout),
      connectionsCheckingInterval: Math.max(100, Math.min(5_000, durationMs(rules.limits.requestTimeout) / 4)),
    },
    // On SIGTERM (adapters/cli/serve.ts), requests already on a connection are served, not refused with a bare 503.
    return503OnClosing: false,
  });
  // Before any route: GET /openapi.json lists them, and 405 needs the methods each path takes. Every route is an
  // operation of the route table (adapters/http/operations/), which the document and the coverage matrix are made of.
  const routes: RegisteredRoute[] = [];
  const table = options.extensions?.length ? routeTable([...operations, ...options.extensions.flatMap((wing) => wing.operations)]) : apiTable;
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (!route.config?.notInRouteTable && !table.operationOfRoute(method, route.url)) {
        throw new Error(`${method} ${route.url} has no entry in the route table: declare it in adapters/http/operations/`);
      }
      const notUnder = table.operationOfRoute(method, route.url)?.notUnder;
      routes.push({ method, url: route.url, ...(notUnder ? { notUnder } : {}) });
    }
  });
  app.decorate('registeredRoutes', routes);
  service = createService(options.engine, store, clocksOf(clock, options.sandbox === true), options.ids ?? randomIds);
  const auth = createAuthenticator(() => service.engine.rules, options.jwtSecret ?? randomBytes(32).toString('base64url'));
  app.decorate('service', service);
  // The rule releases in the store decide from their instants on (docs/releases.md): read now, then every poll.
  await service.releases.refresh();
  const stopPolling = service.releases.poll(durationMs(rules.limits.releasePollInterval));
  app.decorate('engine', { getter: () => service.engine });
  app.decorate('tokenHolder', async (request: FastifyRequest) => {
    const holder = await auth.holder(request.headers.authorization);
    request.client = holder.client;
    return holder;
  });
  app.decorate('authenticate', async (request: FastifyRequest, scope: Scope) => withScope(await app.tokenHolder(request), scope));
  app.decorate('requestorOf', async (request: FastifyRequest): Promise<Requestor> => {
    if (request.requestor) return request.requestor;
    const client = await app.authenticate(request, 'reseller');
    const header = request.headers['requestor'];
    const rules = service.engine.rules;
    const { salesApplication, salesUnitCode } = readRequestor(rules, Array.isArray(header) ? header[0] : header, client);
    request.osdmVersion = requestedOsdmVersion(request.headers) ?? configuredOsdmVersion(rules, salesApplication);
    request.requestor = { client, salesApplication, salesUnitCode, language: request.language };
    return request.requestor;
  });
  // Generated at the first request, when every route is registered, then kept: the routes do not change.
  let document: string | undefined;
  app.decorate('openApiDocument', () => {
    document ??= JSON.stringify(forIntegrators(openApiDocument({ routes, version: packageVersion, limits: service.engine.rules.limits, table })));
    return document;
  });
  app.decorate('sandbox', { on: options.sandbox ?? false, ...(options.demoSecrets ? { demoSecrets: options.demoSecrets } : {}) });
  // The traces behind the last RECENT_TRACES responses, by x-request-id, so `signalbox test --target` prints the
  // same rule traces for a failing step as an in-process run does (GET /sandbox/traces/{requestId}).
  const recent = new Map<string, readonly DecisionTrace[]>();
  app.decorate('recentTraces', options.sandbox ? (requestId: string) => recent.get(requestId) : undefined);
  app.decorateRequest('language', 'en-GB');
  app.decorateRequest('client', undefined);
  app.decorateRequest('osdmVersion', '');

  // Before compression, so the journal keeps the answer's text (sandbox only: a production server pays nothing).
  app.decorate(
    'requestJournal',
    options.sandbox && options.journal !== false
      ? recordRequests(
          app,
          () => service.engine.rules,
          (client) => (client === undefined ? clock : service.clocks.of(client)).now(),
          { personalData: options.journalPersonalData ?? false },
        )
      : undefined,
  );
  // Responses are gzip-compressed when Accept-Encoding allows (CONTRACT §4); request bodies are inflated by body.ts.
  // zlib's level 3: less than half the CPU of the default level 6 for a few percent more bytes (docs/performance.md).
  await app.register(compress, { global: true, globalDecompression: false, encodings: ['gzip'], threshold: 1024, zlibOptions: { level: GZIP_LEVEL } });
  registerBodyParsers(app);
  answersPerTurn(app);
  // Hooks of every request take Fastify's callback form: an async hook costs each request a promise and a turn.
  app.addHook('onRequest', (request, reply, done) => {
    request.language = negotiateLanguage(request.headers['accept-language'], service.engine.rules.limits.languages);
    request.osdmVersion = service.engine.rules.limits.defaultOsdmVersion;
    reply.header('content-language', request.language);
    reply.header('x-request-id', request.id);
    reply.header('traceparent', traceparentOf(traceOf(request.raw)));
    // A request no route takes is answered here, before Fastify reads its body: a method the path does not take is
    // 405 whatever it carries (a QUERY without Content-Type too, which Fastify would refuse with 400 first), and an
    // unknown path costs no body parsing.
    if (request.is404) {
      void unrouted(request, reply);
      return;
    }
    done();
  });
  // Faults on demand (X-Sandbox-Fault): a sandbox only; production never reads the header.
  if (options.sandbox) registerFaults(app);
  // Graceful shutdown (cli/serve.ts): from app.close() on, every answer closes its connection, so a keep-alive client
  // cannot hold the server open, and idle connections are closed as soon as their last answer is out.
  let closing = false;
  // Reseller API JSON answers name the OSDM version in force (CONTRACT §4): `application/json; version=3.4`.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    if (request.url.startsWith('/v3/')) {
      const type = reply.getHeader('content-type');
      if (typeof type === 'string' && /^application\/json\b/i.test(type))
        reply.header('content-type', versionedJsonType(request.headers.accept, request.osdmVersion));
    }
    done(null, payload);
  });
  app.addHook('onResponse', (_request, _reply, done) => {
    if (closing) setImmediate(() => app.server.closeIdleConnections?.());
    done();
  });
  app.setErrorHandler((error, request, reply) => {
    const violation = toViolation(error, request, bodyLimit);
    // The whole error goes to the log, for the operator; the caller gets the reference (the request id) only.
    if (violation.code === 'INTERNAL_ERROR') request.log.error({ err: error }, 'unexpected error');
    if (violation.traces.length > 0) request.traces = violation.traces;
    const release = violation.traces[0]?.release;
    if (release !== undefined) reply.header(RULES_RELEASE_HEADER, release);
    return sendProblem(service.engine, reply, request, violation, request.language);
  });
  /** 405 with `Allow` for a path other methods take, else 404. */
  const unrouted = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0]!;
    const allowed = methodsOf(routes, path);
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      return sendProblem(service.engine, reply, request, new RuleViolation('X_METHOD_NOT_ALLOWED', { method: request.method, path }), request.language);
    }
    return sendProblem(
      service.engine,
      reply,
      request,
      new RuleViolation('RESOURCE_NOT_FOUND', { resource: phrase('resource-route'), id: `${request.method} ${path}` }),
      request.language,
    );
  };
  // Requests the onRequest hook did not answer: those a route passes on with reply.callNotFound() (a catch-all under
  // its `notUnder`: the studio's page under /studio/api/).
  app.setNotFoundHandler(unrouted);

  await app.register(tokenRoutes(auth));
  await app.register(async (api) => registerOperations(api, { sandbox: options.sandbox ?? false }));
  if (options.sandbox) {
    app.addHook('onSend', (request, _reply, payload, done) => {
      if (!request.url.startsWith('/sandbox/')) {
        recent.set(request.id, request.traces ?? []);
        if (recent.size > RECENT_TRACES) recent.delete(recent.keys().next().value!);
      }
      done(null, payload);
    });
  }
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Runs after the server stopped listening and the requests in flight finished.
  app.addHook('onClose', async () => {
    stopPolling();
    await store.close();
    app.log.info({ store: store.kind }, 'store closed');
  });
  return app;
}

/**
 * The methods registered for a path, matched as the router matches (`:param` one segment of at most
 * MAX_PARAM_LENGTH characters, a trailing `*` the rest, but not under the route's `notUnder`); empty when none.
 */
function methodsOf(routes: readonly RegisteredRoute[], path: string): string[] {
  const parts = path.replace(/\/+$/, '').split('/');
  const param = (part: string | undefined) => part !== undefined && part !== '' && part.length <= MAX_PARAM_LENGTH;
  const matches = (url: string) => {
    const pattern = url.replace(/\/+$/, '').split('/');
    if (pattern[pattern.length - 1] === '*')
      return parts.length >= pattern.length && pattern.slice(0, -1).every((p, i) => (p.startsWith(':') ? param(parts[i]) : p === parts[i]));
    return pattern.length === parts.length && pattern.every((p, i) => (p.startsWith(':') ? param(parts[i]) : p === parts[i]));
  };
  return [...new Set(routes.filter((r) => matches(r.url) && !(r.notUnder && path.startsWith(r.notUnder))).map((r) => r.method))].sort();
}
