import { randomBytes, randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { RuleViolation, type DecisionTrace, type Engine, type IdSource, type Language, type Requestor } from '../../engine/index.ts';
import { systemClock, sandboxClock, type Clock } from '../clock.ts';
import { randomIds } from '../ids.ts';
import { createService, type Service } from '../service.ts';
import type { Store } from '../store/store.ts';
import { createAuthenticator, readRequestor, type Scope } from './auth.ts';
import { registerBodyParsers } from './body.ts';
import { negotiateLanguage } from './language.ts';
import { sendProblem, toViolation } from './problems.ts';
import { customerRoutes } from './routes/customer.ts';
import { resellerRoutes } from './routes/reseller.ts';
import { sandboxRoutes } from './routes/sandbox.ts';
import { tokenRoutes } from './routes/token.ts';

export interface ServerOptions {
  engine: Engine;
  store: Store;
  /** Defaults to the system clock, or a movable sandbox clock with `sandbox`. */
  clock?: Clock;
  ids?: IdSource;
  /** Enables /sandbox/* (CONTRACT §8). */
  sandbox?: boolean;
  /** HS256 key for access tokens; generated per process when absent. */
  jwtSecret?: string;
  logger?: boolean | object;
}

declare module 'fastify' {
  interface FastifyRequest {
    language: Language;
    requestor?: Requestor;
    /** The engine's decision traces behind this response (scenario failures print them). */
    traces?: readonly DecisionTrace[];
  }
  interface FastifyInstance {
    service: Service;
    engine: Engine;
    authenticate(request: FastifyRequest, scope: Scope): Promise<string>;
    requestorOf(request: FastifyRequest): Promise<Requestor>;
  }
}

/** Sandbox mode keeps this many requests' traces for GET /sandbox/traces/{requestId}. */
const RECENT_TRACES = 500;

/** The HTTP adapter: a thin Fastify layer over the service (CONTRACT §1–§8). */
export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const { store } = options;
  const rules = options.engine.rules; // start-up settings only (body limit); everything else reads service.engine
  const clock = options.clock ?? (options.sandbox ? sandboxClock() : systemClock);
  const bodyLimit = rules.limits.requestBodyLimitBytes;
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
  });
  const service = createService(options.engine, store, clock, options.ids ?? randomIds);
  const auth = createAuthenticator(() => service.engine.rules, options.jwtSecret ?? randomBytes(32).toString('base64url'));
  app.decorate('service', service);
  app.decorate('engine', { getter: () => service.engine });
  app.decorate('authenticate', (request: FastifyRequest, scope: Scope) => auth.verify(request.headers.authorization, scope));
  app.decorate('requestorOf', async (request: FastifyRequest): Promise<Requestor> => {
    const client = await auth.verify(request.headers.authorization, 'reseller');
    const header = request.headers['requestor'];
    const { salesApplication, salesUnitCode } = readRequestor(service.engine.rules, Array.isArray(header) ? header[0] : header, client);
    request.requestor = { client, salesApplication, salesUnitCode, language: request.language };
    return request.requestor;
  });
  app.decorateRequest('language', 'en-GB');

  registerBodyParsers(app);
  app.addHook('onRequest', async (request, reply) => {
    request.language = negotiateLanguage(request.headers['accept-language'], service.engine.rules.limits.languages);
    reply.header('content-language', request.language);
    reply.header('x-request-id', request.id);
  });
  app.setErrorHandler((error, request, reply) => {
    const violation = toViolation(error, request, bodyLimit);
    if (violation.code === 'INTERNAL_ERROR') request.log.error({ err: error }, 'unexpected error');
    if (violation.traces.length > 0) request.traces = violation.traces;
    return sendProblem(service.engine, reply, request, violation, request.language);
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(service.engine, reply, request, new RuleViolation('RESOURCE_NOT_FOUND', { resource: 'route', id: `${request.method} ${request.url.split('?')[0]}` }), request.language));

  app.get('/health', async () => ({ status: 'ok' }));
  await app.register(tokenRoutes(auth));
  await app.register(resellerRoutes, { prefix: '/v3' });
  await app.register(customerRoutes, { prefix: '/customer' });
  if (options.sandbox) await app.register(sandboxRoutes(clock), { prefix: '/sandbox' });
  if (options.sandbox) {
    // The traces behind the last RECENT_TRACES responses, by x-request-id, so `signalbox test --target`
    // prints the same rule traces for a failing step as an in-process run does.
    const recent = new Map<string, readonly DecisionTrace[]>();
    app.addHook('onSend', async (request) => {
      if (request.url.startsWith('/sandbox/')) return;
      recent.set(request.id, request.traces ?? []);
      if (recent.size > RECENT_TRACES) recent.delete(recent.keys().next().value!);
    });
    app.get<{ Params: { requestId: string } }>('/sandbox/traces/:requestId', async (request) => {
      const traces = recent.get(request.params.requestId);
      if (!traces) throw new RuleViolation('RESOURCE_NOT_FOUND', { resource: 'trace', id: request.params.requestId });
      return { requestId: request.params.requestId, traces };
    });
  }
  app.addHook('onClose', async () => { await store.close(); });
  return app;
}

/** Sends a decided result and keeps its traces on the request. */
export function answer(request: FastifyRequest, reply: FastifyReply, decided: { value: unknown; traces: readonly DecisionTrace[] }, status = 200) {
  request.traces = decided.traces;
  return reply.status(status).send(decided.value);
}
