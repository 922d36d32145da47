import type { DecisionTrace, Engine, Language, Requestor } from '../../engine/index.ts';
import type { InjectedFaults } from '../service/faults.ts';
import type { Service } from '../service/service.ts';
import type { Scope, TokenHolder } from './auth.ts';
import type { RegisteredRoute } from './openapi/document.ts';
import type { RequestJournal } from './journal.ts';
import type { RouteTable } from './operations/index.ts';

/**
 * What the HTTP adapter adds to Fastify's request and instance (server.ts sets them). A file of its own so that
 * routes see these fields without importing the server that registers them.
 */
declare module 'fastify' {
  interface FastifyRequest {
    language: Language;
    requestor?: Requestor;
    /**
     * The OSDM version in force for this request (CONTRACT §4), e.g. "3.4" or "3.0.4": the `version=` of Accept or
     * Content-Type, else the sales application's `osdmVersion` (rules/sales-applications.yaml), else
     * `defaultOsdmVersion` (rules/limits.yaml). On /v3 routes it is final once `app.requestorOf(request)` has run
     * (an onRequest hook runs it before every /v3 handler). For a rule fact, compare numbers:
     * `osdmVersionNumber(request.osdmVersion)` gives major*100+minor (3.4 → 304, 3.0.4 → 300), exported from server.ts.
     */
    osdmVersion: string;
    /** The engine's decision traces behind this response (scenario failures print them). */
    traces?: readonly DecisionTrace[];
    /**
     * The client this request authenticated: the client of a valid bearer token, or the client a token was issued
     * to. The request journal shows a client only its own requests by it.
     */
    client?: string | undefined;
    /** A sandbox's faults on demand this request asked for (X-Sandbox-Fault, faults.ts); absent elsewhere. */
    faults?: InjectedFaults | null;
  }
  interface FastifyInstance {
    service: Service;
    engine: Engine;
    /** The client and scopes of the request's bearer token (kept on `request.client`); 401 without a valid one. */
    tokenHolder(request: FastifyRequest): Promise<TokenHolder>;
    /** The client id of the request's bearer token; 401 without a valid one, 403 if it lacks `scope`. */
    authenticate(request: FastifyRequest, scope: Scope): Promise<string>;
    /** Token (scope reseller) and Requestor of a /v3 request, checked once and kept on `request.requestor`. */
    requestorOf(request: FastifyRequest): Promise<Requestor>;
    /** The operations this server serves: the API's and those of the wings it was built with (`extensions`). */
    routeTable: RouteTable;
    /** Every route registered so far, HEAD twins included (for GET /openapi.json and tests). */
    registeredRoutes: readonly RegisteredRoute[];
    /** A sandbox's journal of the latest requests (the studio shows it); undefined elsewhere. */
    requestJournal: RequestJournal | undefined;
    /** The rule traces behind one of a sandbox's recent responses, by its x-request-id; undefined elsewhere. */
    recentTraces: ((requestId: string) => readonly DecisionTrace[] | undefined) | undefined;
    /** GET /openapi.json's text, generated once every route is registered. */
    openApiDocument(): string;
    /** Whether this is a sandbox (`signalbox serve --sandbox`), and the demo secrets GET / publishes there. */
    sandbox: { on: boolean; demoSecrets?: Readonly<Record<string, string>> | undefined };
  }
  interface FastifyContextConfig {
    /** Set only by tests that add a probe route: any other route without an entry in the route table is refused. */
    notInRouteTable?: boolean;
  }
}
