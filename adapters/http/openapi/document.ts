import { z } from 'zod';
import {
  BookingPatch,
  PassengerPatch,
  PaymentMethod,
  BookingRequest,
  OfferSelection,
  PassengerDetail,
  PassengerSpecification,
  PersonDetail,
  Purchaser,
  ContractLookupRequest,
  EmailLookupRequest,
  IdentityNumberLookupRequest,
  MemberNumberLookupRequest,
  AnonymousPassengerSpecification,
  CardReference,
  CorporateCode,
  OfferCollectionRequest,
  OfferSearchCriteria,
  PromotionCode,
  StopPlaceRef,
  TimedLeg,
  TripSpecification,
  CleanupRequest,
  OfferConfirmation,
  OnHoldOfferPatchRequest,
  OnHoldOfferRequest,
  RefundOfferRequest,
  ReleaseOfferRequest,
} from '../../../engine/model/osdm/index.ts';
import { ExchangeOfferRequest, ExchangeOperationPatch, ExchangeOperationRequest } from '../../../engine/index.ts';
import { ClockChange } from '../operations/sandbox.ts';
import { ANY_METHODS, apiTable, keyOf, sandboxOnly, type Access, type Operation, type Response, type RouteTable } from '../operations/index.ts';
import { faultParameter, faultsOf } from '../faults.ts';
import * as S from './schemas.ts';
import type { Limits } from '../../../engine/rules/index.ts';
import { MAX_JSON_DEPTH } from '../body.ts';
import examples from './examples.json' with { type: 'json' };

/** Per operation key (`POST /v3/offers`): a request body and an answer per status, from scenario traffic (adapters/harness/traffic-examples.ts). */
interface OperationExamples {
  request?: unknown;
  responses: Record<string, unknown>;
}
export type Examples = Record<string, OperationExamples>;

/**
 * The OpenAPI 3.1 document of GET /openapi.json: the operations of the route table (adapters/http/operations/) for
 * the routes the server registered (plus the planned ones of CONTRACT §6), with every request and response body
 * converted from its zod schema by `z.toJSONSchema` (JSON Schema 2020-12, which OpenAPI 3.1 uses as is).
 */
export interface RegisteredRoute {
  method: string;
  /** Fastify's form: `/v3/bookings/:bookingId`. */
  url: string;
  /** A catch-all's `notUnder` (the route table's): the paths under it that it leaves to the not-found handler. */
  notUnder?: string;
}

/** Schemas that become components under these names (nested ones too, so the document reads like OSDM's). */
const named: Record<string, z.ZodType> = {
  OfferCollectionRequest,
  TripSpecification,
  TimedLeg,
  StopPlaceRef,
  AnonymousPassengerSpecification,
  CardReference,
  OfferSearchCriteria,
  CorporateCode,
  PromotionCode,
  BookingRequest,
  OfferSelection,
  PassengerSpecification,
  PersonDetail,
  PassengerDetail,
  Purchaser,
  PassengerPatch,
  BookingPatch,
  PaymentMethod,
  EmailLookupRequest,
  MemberNumberLookupRequest,
  IdentityNumberLookupRequest,
  ContractLookupRequest,
  RefundOfferRequest,
  ReleaseOfferRequest,
  OnHoldOfferRequest,
  OnHoldOfferPatchRequest,
  CleanupRequest,
  // OSDM's names: RefundOfferPatchRequest and ReleaseOfferPatchRequest are both `{"status":"CONFIRMED"}`.
  OfferPatchRequest: OfferConfirmation,
  ExchangeOfferCollectionRequest: ExchangeOfferRequest,
  ExchangeOperationRequest,
  ExchangeOperationPatchRequest: ExchangeOperationPatch,
  ClockChange,
  ...zodExports(S),
};

function zodExports(module: Record<string, unknown>): Record<string, z.ZodType> {
  return Object.fromEntries(Object.entries(module).filter((e): e is [string, z.ZodType] => e[1] instanceof z.ZodType));
}

/** The methods the document lists an operation under: each of ANY_METHODS for an `ANY` one. */
const methodsListed = (op: Operation): readonly string[] => (op.method === 'ANY' ? ANY_METHODS : [op.method]);

/** `{bookingId}` and a trailing `*` (listed as `{path}`): the path parameters' names. */
const parameterNames = (path: string) => [...path.replace(/\*$/, '{path}').matchAll(/\{(\w+)\}/g)].map(([, name]) => name!);

/**
 * `POST /v3/bookings/{bookingId}/fulfillment` → `postBookingsFulfillment`, from the literal segments. OpenAPI wants
 * each id once: where two operations would share one (`GET /docs` and `GET /docs/{file}`), the one with fewer path
 * parameters keeps it and the other names its parameters (`getDocsByFile`).
 */
function operationIdsOf(operations: readonly Operation[]): Map<string, string> {
  const byBase = new Map<string, Array<{ key: string; parameters: string[] }>>();
  for (const o of operations) {
    for (const m of methodsListed(o)) {
      const words = o.path
        .split('/')
        .filter((s) => s && !s.startsWith('{') && s !== '*' && s !== 'v3')
        .flatMap((s) => s.split(/[^A-Za-z0-9]+/))
        .filter(Boolean);
      const base = [m.toLowerCase(), ...words.map(capitalised)].join('');
      byBase.set(base, [...(byBase.get(base) ?? []), { key: `${m} ${o.path}`, parameters: parameterNames(o.path) }]);
    }
  }
  const operationIds = new Map<string, string>();
  for (const [base, sharing] of byBase) {
    const [first, ...others] = [...sharing].sort((a, b) => a.parameters.length - b.parameters.length);
    operationIds.set(first!.key, base);
    for (const o of others) operationIds.set(o.key, `${base}By${o.parameters.map(capitalised).join('And')}`);
  }
  return operationIds;
}

const operationId = (c: Components, op: Operation, method: string = methodsListed(op)[0]!) => c.operationIds.get(`${method} ${op.path}`)!;

const capitalised = (w: string) => w[0]!.toUpperCase() + w.slice(1);

interface Components {
  schemas: Record<string, unknown>;
  nameOf: Map<z.ZodType, string>;
  operationIds: Map<string, string>;
}

/** Per route table: a server with the studio has more operations than one without. */
const componentsOf = new WeakMap<readonly Operation[], Components>();

/** Every schema the operations use, converted once: named ones under their name, the others after their operation. */
function schemaComponents(operations: readonly Operation[]): Components {
  const known = componentsOf.get(operations);
  if (known) return known;
  const operationIds = operationIdsOf(operations);
  const registry = z.registry<{ id: string }>();
  const nameOf = new Map<z.ZodType, string>();
  const add = (schema: z.ZodType, name: string) => {
    if (nameOf.has(schema)) return;
    nameOf.set(schema, name);
    registry.add(schema, { id: name });
  };
  for (const [name, schema] of Object.entries(named)) add(schema, name);
  for (const op of operations) {
    const cap = capitalised(operationIds.get(`${methodsListed(op)[0]!} ${op.path}`)!);
    if (op.request) add(op.request.schema, `${cap}Request`);
    for (const [status, response] of Object.entries(op.responses)) if (response.schema) add(response.schema, `${cap}Response${status}`);
  }
  const { schemas } = z.toJSONSchema(registry, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}` });
  for (const schema of Object.values(schemas)) {
    delete (schema as Record<string, unknown>)['$schema'];
    delete (schema as Record<string, unknown>)['$id'];
  }
  const components = { schemas, nameOf, operationIds };
  componentsOf.set(operations, components);
  return components;
}

const ref = (c: Components, schema: z.ZodType) => ({ $ref: `#/components/schemas/${c.nameOf.get(schema)!}` });

const RESPONSE_HEADERS = {
  'Content-Language': { $ref: '#/components/headers/ContentLanguage' },
  'X-Request-Id': { $ref: '#/components/headers/RequestId' },
  traceparent: { $ref: '#/components/headers/Traceparent' },
  'Rules-Release': { $ref: '#/components/headers/RulesRelease' },
};

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request: 86001 (malformed JSON, path or query, schema violation, with pointers), or a rule of spec §7',
  401: 'UNAUTHORIZED: no, an expired or a wrongly signed token (WWW-Authenticate: Bearer)',
  403: 'FORBIDDEN: the token lacks the scope, or the sales application is not registered for the client',
  404: 'RESOURCE_NOT_FOUND: no such resource, or another client’s',
  405: 'X_METHOD_NOT_ALLOWED',
  406: 'X_VERSION_NOT_ACCEPTABLE',
  409: 'Conflict',
  413: 'X_PAYLOAD_TOO_LARGE: a body over the limit after decompression (see Bodies in the description)',
  415: 'X_UNSUPPORTED_MEDIA_TYPE: send application/json',
  429: 'X_TOO_MANY_ATTEMPTS: too many wrong subscription keys from this address or for the client of the token; Retry-After says when to try again',
  500: 'INTERNAL_ERROR, with a reference to quote',
  501: 'X_NOT_SUPPORTED',
  503: 'SERVICE_UNAVAILABLE, with Retry-After: the seconds to wait before trying again',
};

/**
 * The Problem statuses an operation can answer: those its access and shape imply, and its own. A body may come with
 * any method that carries one, whether the operation reads it or not (malformed → 400, too large → 413, not JSON →
 * 415); a path parameter, a `*` or a query names something to look up (malformed → 400, unknown → 404).
 */
function problemStatuses(op: Operation, method: string, sandbox: boolean): Map<number, string> {
  const statuses = new Map<number, string>();
  const carriesBody = op.request !== undefined || method !== 'GET';
  const namesSomething = op.path.includes('{') || op.path.includes('*') || op.query !== undefined;
  const add = (...codes: number[]) => {
    for (const c of codes) statuses.set(c, STATUS_TEXT[c]!);
  };
  const shape = [...(carriesBody ? [400, 413, 415] : []), ...(namesSomething ? [400, 404] : []), 500];
  const byAccess: Record<Access, () => void> = {
    public: () => add(...shape),
    sandbox: () => add(...shape),
    'sandbox-client': () => add(...shape, 401),
    client: () => add(500), // every other error of the token endpoint is an RFC 6749 body (below)
    bearer: () => add(...shape, 401),
    analyst: () => add(...shape, 400, 401, 403),
    reseller: () => {
      // A body names offers, bookings or fulfillments too.
      add(...shape, 400, 401, 403, ...(carriesBody ? [404] : []));
      statuses.set(400, `${STATUS_TEXT[400]}; 86002 (no Requestor header), 86001 at header:Requestor (not Base64 JSON, a field missing)`);
    },
    customer: () => {
      add(...shape, 400, 401, 403, 404, 429);
      statuses.set(401, 'UNAUTHORIZED or X_SUBSCRIPTION_KEY_INVALID (missing or unknown Ocp-Apim-Subscription-Key)');
      statuses.set(404, 'RESOURCE_NOT_FOUND: no such record');
    },
  };
  byAccess[op.access]();
  if (sandbox && faultsOf(op).includes('unavailable')) add(503);
  for (const [status, text] of Object.entries(op.problems ?? {})) {
    const code = Number(status);
    statuses.set(code, STATUS_TEXT[code] && code !== 409 ? `${statuses.get(code) ?? STATUS_TEXT[code]}; here also: ${text}` : text);
  }
  return new Map([...statuses].sort((a, b) => a[0] - b[0]));
}

function pathParameters(path: string) {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
    ...(name === 'path' ? { description: 'Any rest of the path.' } : {}),
  }));
}

function operationObject(
  c: Components,
  op: Operation,
  registered: boolean,
  sandbox: DocumentOptions['limits'] | undefined,
  method = methodsListed(op)[0]!,
): Record<string, unknown> {
  const security: Record<Access, unknown[]> = {
    public: [],
    sandbox: [],
    'sandbox-client': [{ oauth2: [] }],
    client: [{ clientBasic: [] }, {}],
    // The Requestor header is a parameter (below), not a credential: without it the answer is 400 86002 (spec §7), not 401.
    reseller: [{ oauth2: ['reseller'] }],
    customer: [{ oauth2: ['customer'], SubscriptionKey: [] }],
    analyst: [{ oauth2: ['analyst'] }],
    bearer: [{ oauth2: [] }],
  };
  const jsonTypes = op.access === 'reseller' ? ['application/json', 'application/vnd.uic.osdm+json'] : ['application/json'];
  // Real bodies from the scenarios (examples.json, `signalbox examples`): shown by /docs, the request one prefills "Try it out".
  const seen = (examples as Examples)[keyOf(op)];
  const example = (status: number | string) => (seen?.responses[status] !== undefined ? { example: seen.responses[status] } : {});
  const content = (response: Response, status: string) =>
    Object.fromEntries(
      (response.contentType ? [response.contentType] : jsonTypes).map((type) => [
        type,
        { schema: response.schema && c.nameOf.has(response.schema) ? ref(c, response.schema) : { type: 'string' }, ...example(status) },
      ]),
    );
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(op.responses)) {
    responses[status] = { description: response.description, headers: RESPONSE_HEADERS, ...(response.schema ? { content: content(response, status) } : {}) };
  }
  if (op.access === 'client') {
    for (const [status, text] of [
      [400, 'invalid_request (also for a body that is not application/x-www-form-urlencoded), unsupported_grant_type, invalid_scope'],
      [401, 'invalid_client (WWW-Authenticate: Basic)'],
      [413, 'invalid_request: a body over the limit after decompression'],
      [429, 'invalid_request: too many failed attempts for this client or from this address; Retry-After says when to try again'],
    ] as const) {
      responses[status] = { description: `RFC 6749 §5.2: ${text}`, content: { 'application/json': { schema: ref(c, S.OAuthErrorBody) } } };
    }
  }
  for (const [status, text] of problemStatuses(op, method, sandbox !== undefined)) {
    if (responses[status]) continue;
    responses[status] =
      text === STATUS_TEXT[status] && seen?.responses[status] === undefined
        ? { $ref: `#/components/responses/Problem${status}` }
        : { description: text, content: { 'application/problem+json': { schema: ref(c, S.Problem), ...example(status) } } };
  }
  const status = registered ? undefined : 'planned';
  return {
    operationId: operationId(c, op, method),
    summary: op.summary,
    description: [
      op.description,
      `Decided by ${op.section}.`,
      status ? '**Planned**: CONTRACT §6 names it; this server does not answer it yet (404).' : undefined,
    ]
      .filter(Boolean)
      .join('\n\n'),
    tags: [op.tag],
    security: security[op.access],
    parameters: [
      ...pathParameters(op.path.replace(/\*$/, '{path}')),
      ...Object.entries(op.query ?? {}).map(([name, q]) => ({
        name,
        in: 'query',
        required: q.required ?? false,
        description: q.description,
        schema: q.schema ? z.toJSONSchema(q.schema, { io: 'input', target: 'draft-2020-12' }) : { type: 'string' },
      })),
      ...(op.access === 'reseller' ? [{ $ref: '#/components/parameters/Requestor' }] : []),
      { $ref: '#/components/parameters/AcceptLanguage' },
      { $ref: '#/components/parameters/Traceparent' },
      // Faults on demand exist only on a sandbox, like its controls (CONTRACT §8).
      ...(sandbox ? [faultParameter(op, sandbox)].filter((p) => p !== undefined) : []),
    ].map((p) => {
      if ('schema' in p) delete (p.schema as Record<string, unknown>)['$schema'];
      return p;
    }),
    ...(op.request
      ? {
          requestBody: {
            required: op.request.required ?? false,
            content: Object.fromEntries(
              (op.request.contentType ? [op.request.contentType] : jsonTypes).map((type) => [
                type,
                { schema: ref(c, op.request!.schema), ...(seen?.request !== undefined ? { example: seen.request } : {}) },
              ]),
            ),
          },
        }
      : {}),
    responses,
    // The OSDM 3.4 operations this one stands for, by their operationId in OSDM's document.
    ...(op.osdm?.length ? { 'x-osdm-operation-ids': op.osdm } : {}),
    ...(status ? { 'x-signalbox-status': status } : {}),
  };
}

export interface DocumentOptions {
  /** The routes the server registered (HEAD twins of GETs may be included; they are ignored). */
  routes: readonly RegisteredRoute[];
  version: string;
  /** The limits of rules/limits.yaml the description states. */
  limits: Pick<Limits, 'requestBodyLimitBytes' | 'requestTimeout' | 'requestArrayLimit' | 'problemPointerLimit' | 'sandboxFaults'>;
  /** The server's route table (`app.routeTable`); without it, the API's own. */
  table?: RouteTable;
}

const TAGS = [
  { name: 'OAuth', description: 'Access tokens (spec §5, CONTRACT §3)' },
  { name: 'Offers', description: 'Journey and travel pass offers (spec §2.2–§2.5)' },
  { name: 'Booking', description: 'Provisional bookings, passengers, purchaser (spec §2.6, §2.7)' },
  { name: 'Fulfillment', description: 'Confirmation and tickets (spec §4.1 rule 1)' },
  { name: 'Aftersales', description: 'Refund, release, on-hold, exchange, cleanup (spec §4.1 rules 5–12)' },
  { name: 'Availability', description: 'Places and coach layouts (spec §2.10, §2.11)' },
  { name: 'Customer API', description: 'Customer and contract lookups (spec §4.3)' },
  { name: 'Sandbox', description: 'Clock, reset and traces; only with `signalbox serve --sandbox` (CONTRACT §8)' },
  { name: 'Service', description: 'Health and this documentation' },
  { name: 'Studio', description: 'The analysts\u2019 workbench at /studio: read, try, change and compare the rules' },
];

/** The whole document: the route table's operations, those no route serves yet marked as planned. */
export function openApiDocument({ routes, version, limits, table = apiTable }: DocumentOptions): Record<string, unknown> {
  const { operations, operationOfRoute } = table;
  const c = schemaComponents(operations);
  const registered = new Set(routes.map((route) => operationOfRoute(route.method, route.url)));
  const sandbox = operations.some((op) => op.access === 'sandbox' && registered.has(op)) ? limits : undefined;
  const paths: Record<string, Record<string, unknown>> = {};
  const planned: string[] = [];
  for (const op of operations) {
    const served = registered.has(op);
    // Sandbox controls exist only with --sandbox (CONTRACT §8).
    if (!served && sandboxOnly(op.access)) continue;
    if (!served) planned.push(keyOf(op));
    const path = op.path.replace(/\*$/, '{path}');
    const item = (paths[path] ??= {});
    // An `ANY` operation is listed under every method it answers, each with the same answers.
    const every = op.method === 'ANY' ? `Every method (${ANY_METHODS.join(', ')}) answers the same.` : undefined;
    for (const method of methodsListed(op)) {
      item[method.toLowerCase()] ??= operationObject(c, { ...op, description: [op.description, every].filter(Boolean).join('\n\n') }, served, sandbox, method);
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'signalbox: Reseller API and Customer API',
      version,
      description: description(planned, limits),
    },
    // Only the tags some operation has: Swagger UI shows an empty section for any other (Sandbox without --sandbox).
    tags: TAGS.filter((t) => Object.values(paths).some((item) => Object.values(item).some((o) => (o as { tags: string[] }).tags.includes(t.name)))),
    paths,
    components: {
      schemas: c.schemas,
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          description: 'OAuth 2.0 client credentials (RFC 6749 §4.4). Scope `reseller` for /v3, `customer` for /customer.',
          flows: {
            clientCredentials: {
              tokenUrl: '/oauth2/token',
              scopes: {
                reseller: 'The Reseller API (/v3)',
                customer: 'The Customer API (/customer)',
                analyst: 'Changing rules and running scenarios from the studio (/studio)',
              },
            },
          },
        },
        SubscriptionKey: {
          type: 'apiKey',
          in: 'header',
          name: 'Ocp-Apim-Subscription-Key',
          description: 'The Customer API subscription key (spec §5 rule 5).',
        },
        clientBasic: { type: 'http', scheme: 'basic', description: 'client_id:client_secret, for the token endpoint only.' },
      },
      parameters: {
        Requestor: {
          name: 'Requestor',
          in: 'header',
          required: true,
          schema: {
            type: 'string',
            contentEncoding: 'base64',
            contentMediaType: 'application/json',
            examples: ['eyJzYWxlc0FwcGxpY2F0aW9uIjoiV0VCX1NFIiwic2FsZXNVbml0Q29kZSI6IldFQiJ9'],
          },
          description:
            'Base64 of the JSON object `{"salesApplication":"WEB_SE","salesUnitCode":"WEB"}` (spec §2.1). Missing → 400 86002; ' +
            'not Base64 JSON or lacking a field → 400 86001; a sales application not registered for the client → 403.',
        },
        AcceptLanguage: {
          name: 'Accept-Language',
          in: 'header',
          required: false,
          schema: { type: 'string', examples: ['sv-SE', 'en-GB'] },
          description:
            'sv-SE or en-GB: the language of product summaries, passenger type descriptions and Problems. Anything else → en-GB. Echoed in Content-Language.',
        },
        Traceparent: {
          name: 'traceparent',
          in: 'header',
          required: false,
          // No pattern: W3C Trace Context has a malformed traceparent ignored (a new trace starts), never refused, so a
          // tester must not expect 400 for one.
          schema: { type: 'string' },
          description:
            'W3C Trace Context (`00-<32 hex trace-id>-<16 hex parent-id>-<2 hex flags>`): the trace-id is kept in our logs and in the traceparent we answer with. A malformed one is ignored: a new trace starts.',
        },
      },
      responses: Object.fromEntries(
        Object.entries(STATUS_TEXT).map(([status, text]) => [
          `Problem${status}`,
          {
            description: text,
            headers:
              status === '429' || status === '503'
                ? { ...RESPONSE_HEADERS, 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } } }
                : RESPONSE_HEADERS,
            content: { 'application/problem+json': { schema: ref(c, S.Problem) } },
          },
        ]),
      ),
      headers: {
        ContentLanguage: { description: 'The language of the texts in the body: sv-SE or en-GB.', schema: { type: 'string' } },
        RequestId: {
          description: 'The id of this request in our logs (an incoming X-Request-Id of up to 64 word characters is kept).',
          schema: { type: 'string' },
        },
        Traceparent: { description: 'W3C traceparent: the caller’s trace-id (or a new one) and our span id.', schema: { type: 'string' } },
        RulesRelease: {
          description:
            'The rule release that decided this answer, or that priced the booking it shows (docs/releases.md); absent when the rules the server started with decided.',
          schema: { type: 'string' },
        },
      },
    },
  };
}

function description(planned: string[], limits: DocumentOptions['limits']): string {
  return `The OSDM-style Reseller API (under \`/v3\`) and the Customer API (under \`/customer\`) of the operator, as
signalbox serves them. The operator's document decides (cited "spec §…"); where it is silent, CONTRACT.md does.

**Authentication.** \`POST /oauth2/token\` with client credentials gives a bearer token. Reseller API calls send
\`Authorization: Bearer …\` (scope \`reseller\`) and \`Requestor: <Base64 of {"salesApplication","salesUnitCode"}>\`;
Customer API calls send the token (scope \`customer\`) and \`Ocp-Apim-Subscription-Key\`.

**OSDM version.** Name it with the \`version\` parameter of \`Accept\` or \`Content-Type\`
(\`application/json; version=3.4\`, or \`application/vnd.uic.osdm+json; version=3.4\`). Without one, the sales
application's configured version applies, else 3.0.4. The Reseller API answers with the version in force in its
Content-Type. A malformed version → 400 86001; an operation that needs a higher one (cleanup: 3.4) → 406.

**Languages.** \`Accept-Language: sv-SE\` or \`en-GB\` (default); \`Content-Language\` names the one used.

**Bodies.** JSON; \`Content-Encoding: gzip\` request bodies are accepted; at most ${limits.requestBodyLimitBytes} bytes after decompression (413),
${MAX_JSON_DEPTH} levels of nesting and ${limits.requestArrayLimit} elements in any array (400); a request, body included, must arrive within
${limits.requestTimeout} (408). Answers are gzip-compressed when \`Accept-Encoding\` allows. A Problem lists at most
${limits.problemPointerLimit} pointers and then how many more there are. These limits live in rules/limits.yaml (docs/limits.md).

**Errors** are RFC 9457 Problems (\`application/problem+json\`): \`code\` (spec §7's five digits or a named code),
\`title\` and \`detail\` in the caller's language, and \`pointers[].requestPointer\` naming the field
(\`#/offers/0/offerId\`) or header (\`header:Requestor\`). A method a path does not take → 405 with \`Allow\`; a
500 names a reference and never a stack trace. The token endpoint answers RFC 6749 error bodies instead.

**Tracing.** Send a W3C \`traceparent\`; the answer's \`traceparent\` keeps the trace-id and names our span, and
\`X-Request-Id\` is the id our log lines carry.

**Responses** are described in full, field by field, from the same zod schemas the scenario runner checks every
response against (\`signalbox test\`): engine/*/response.ts, whose comments cite where our bodies differ from OSDM 3.4.

**Planned** (\`x-signalbox-status: planned\`: in CONTRACT §6, not answered yet): ${planned.length > 0 ? planned.map((k) => `\`${k}\``).join(', ') : 'none'}.`;
}
