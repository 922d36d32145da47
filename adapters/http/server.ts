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

/** The HTTP adapter: a thin Fastify layer over the service (CONTRACT §1–§8). */
export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const { engine, store } = options;
  const rules = engine.rules;
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
  const auth = createAuthenticator(rules, options.jwtSecret ?? randomBytes(32).toString('base64url'));
  const service = createService(engine, store, clock, options.ids ?? randomIds);
  app.decorate('service', service);
  app.decorate('engine', engine);
  app.decorate('authenticate', (request: FastifyRequest, scope: Scope) => auth.verify(request.headers.authorization, scope));
  app.decorate('requestorOf', async (request: FastifyRequest): Promise<Requestor> => {
    const client = await auth.verify(request.headers.authorization, 'reseller');
    const header = request.headers['requestor'];
    const { salesApplication, salesUnitCode } = readRequestor(rules, Array.isArray(header) ? header[0] : header, client);
    request.requestor = { client, salesApplication, salesUnitCode, language: request.language };
    return request.requestor;
  });
  app.decorateRequest('language', 'en-GB');

  registerBodyParsers(app);
  app.addHook('onRequest', async (request, reply) => {
    request.language = negotiateLanguage(request.headers['accept-language'], rules.limits.languages);
    reply.header('content-language', request.language);
    reply.header('x-request-id', request.id);
  });
  app.setErrorHandler((error, request, reply) => {
    const violation = toViolation(error, request, bodyLimit);
    if (violation.code === 'INTERNAL_ERROR') request.log.error({ err: error }, 'unexpected error');
    if (violation.traces.length > 0) request.traces = violation.traces;
    return sendProblem(engine, reply, request, violation, request.language);
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(engine, reply, request, new RuleViolation('RESOURCE_NOT_FOUND', { resource: 'route', id: `${request.method} ${request.url.split('?')[0]}` }), request.language));

  app.get('/health', async () => ({ status: 'ok' }));
  await app.register(tokenRoutes(auth));
  await app.register(resellerRoutes, { prefix: '/v3' });
  if (options.sandbox) await app.register(sandboxRoutes(clock), { prefix: '/sandbox' });
  app.addHook('onClose', async () => { await store.close(); });
  return app;
}

/** Sends a decided result and keeps its traces on the request. */
export function answer(request: FastifyRequest, reply: FastifyReply, decided: { value: unknown; traces: readonly DecisionTrace[] }, status = 200) {
  request.traces = decided.traces;
  return reply.status(status).send(decided.value);
}
