import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { DecisionTrace, Requestor } from '../../../engine/index.ts';
import type { Service } from '../../service/service.ts';

/**
 * One operation of the HTTP API, declared once: what GET /openapi.json says of it, the OSDM operations it stands
 * for, and (`handle`) what the server does. The registrar (register.ts) turns the entries into Fastify routes, the
 * OpenAPI document (openapi/document.ts) is generated from them, and the scenario coverage matrix counts them.
 */
export type Access =
  | 'public' // no credentials
  | 'client' // the token endpoint: client credentials (HTTP Basic or form fields)
  | 'reseller' // Bearer token with scope reseller + Requestor header
  | 'customer' // Bearer token with scope customer + Ocp-Apim-Subscription-Key
  | 'sandbox' // no credentials; only with `signalbox serve --sandbox`
  | 'sandbox-client' // Bearer token of any scope, the control acting for its client only; only with --sandbox
  | 'bearer' // Bearer token of any scope: what it answers depends on the client (the studio's request journal)
  | 'analyst'; // Bearer token with scope analyst: changing rules and running scenarios from the studio (adapters/studio)

/** Whether an operation exists only on a sandbox (`signalbox serve --sandbox`, CONTRACT §8). */
export const sandboxOnly = (access: Access): boolean => access === 'sandbox' || access === 'sandbox-client';

type Tag = 'OAuth' | 'Offers' | 'Booking' | 'Fulfillment' | 'Aftersales' | 'Availability' | 'Customer API' | 'Sandbox' | 'Studio' | 'Service';

/** `ANY`: every method of ANY_METHODS gets the same answer. */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ANY';

/**
 * The methods an `ANY` operation answers, each listed in GET /openapi.json. Any other method (OPTIONS, QUERY, TRACE)
 * is 405 with `Allow` there as on every path, so that `Allow` and the document say what the route answers.
 */
export const ANY_METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'] as const;

/** A successful answer as the document describes it. */
export interface Response {
  description: string;
  /** The body; absent for an empty one. The answer's serializer is chosen by this schema (register.ts). */
  schema?: z.ZodType;
  /** Defaults to application/json. */
  contentType?: string;
}

export interface Operation<P extends string = string> {
  method: Method;
  /** OpenAPI path template (`/v3/bookings/{bookingId}`); a `*` at the end is any rest of the path. */
  path: P;
  /**
   * A trailing `*` that does not reach under this prefix (`/studio/api/`): there the route passes the request on
   * (reply.callNotFound()), so a path no other route takes is 404, or 405 with an `Allow` that leaves this one out.
   */
  notUnder?: string;
  summary: string;
  /** Where the behaviour is decided: `spec §4.1`, `CONTRACT §6`. */
  section: string;
  tag: Tag;
  access: Access;
  description?: string;
  /** The body the service validates (named in document.ts to become a component). */
  request?: { schema: z.ZodType; required?: boolean; contentType?: string };
  query?: Record<string, { description: string; required?: boolean; schema?: z.ZodType }>;
  /** The successful answers. The Problems follow from `access` and the shape (document.ts); `problems` adds the specific ones. */
  responses: Record<number, Response>;
  problems?: Record<number, string>;
  /** The operationIds of OSDM 3.4 (`createOffers`) this operation stands for; none for our own. */
  osdm?: readonly string[];
  /**
   * The service call and how its result becomes the answer. Absent: the route is registered by hand (the token
   * endpoint, token.ts, with body parsers and RFC 6749 errors of its own), or not at all yet (published as planned).
   */
  handle?: Handler<P>;
}

/** The parameter names of a path template: `/v3/bookings/{bookingId}/passengers/{passengerId}` → `bookingId | passengerId`. */
type ParamsOf<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamsOf<Rest> : never;

/** What a handler gets: the request's parts, the service, and the Requestor (Reseller API only). */
interface Call<P extends string = string> {
  request: FastifyRequest;
  /** The path's parameters, by the names of the operation's path template. */
  params: Readonly<Record<ParamsOf<P>, string>>;
  query: unknown;
  /** As received (parsed JSON, undefined for none): the service validates it. */
  body: unknown;
  service: Service;
  /** The Requestor of a Reseller API call, checked before the body was read (register.ts). */
  requestor: () => Promise<Requestor>;
  /** The client of the request's token (any scope): a sandbox control acts for it. */
  client: () => Promise<string>;
}

/** What a handler answers; register.ts writes it. */
export interface Answer {
  /**
   * The entry's success status comes from its `responses` (`successStatus`); a handler names one only where the
   * entry lists several 2xx answers, and then another of those.
   */
  status?: number;
  /** Undefined: an empty body. */
  body?: unknown;
  /** The engine's decision traces behind the answer (kept on the request for scenario failures and /sandbox/traces). */
  traces?: readonly DecisionTrace[];
  /** A Content-Type other than JSON's. */
  type?: string;
  /** Headers of this answer besides those every answer gets (caching, a page's Content-Security-Policy). */
  headers?: Readonly<Record<string, string>>;
  /** The rule release that decided the answer (docs/releases.md), named in its Rules-Release header. */
  release?: string;
}

export type Handler<P extends string = string> = (call: Call<P>) => Promise<Answer>;

/** An entry of the table, its handler typed by its path: a parameter the path does not name does not compile. */
export const operation = <const P extends string>(op: Operation<P>): Operation => op;

/** `GET /v3/bookings/{bookingId}`: how tests, examples.json and reports name an operation. */
export const keyOf = (op: Pick<Operation, 'method' | 'path'>) => `${op.method} ${op.path}`;

/** A successful JSON answer. */
export const json = (description: string, schema: z.ZodType): Response => ({ description, schema });
export const noContent: Response = { description: 'Done; empty body.' };

/** The header that names the rule release behind an answer (docs/releases.md); absent when the rules the server started with decided. */
export const RULES_RELEASE_HEADER = 'Rules-Release';

/** What the service decided: its value, its traces and the rule release that decided it. */
interface ServiceResult {
  value: unknown;
  traces: readonly DecisionTrace[];
  release?: string;
}
/** The release of a result, when one decided it. */
export const releaseOf = (result: { release?: string }): { release?: string } => (result.release === undefined ? {} : { release: result.release });

/** A decided result as the answer: its value is the body, its traces and release are kept. */
export const decided = (result: ServiceResult): Answer => ({ body: result.value, traces: result.traces, ...releaseOf(result) });

/** A decided result answered without a body (a deletion, a cleanup): only its traces and release are kept. */
export const bodiless = (result: Omit<ServiceResult, 'value'>): Answer => ({ traces: result.traces, ...releaseOf(result) });

/**
 * The status of an entry's successful answer: its 2xx response, the lowest where it lists several (a handler names
 * another of those in its answer), or 200 for an entry that lists none (it only ever refuses).
 */
export function successStatus(op: Pick<Operation, 'responses'>): number {
  const statuses = Object.keys(op.responses)
    .map(Number)
    .filter((s) => s >= 200 && s < 300)
    .sort((a, b) => a - b);
  return statuses[0] ?? 200;
}
