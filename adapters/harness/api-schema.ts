import { z } from 'zod';
import { keyOf, operationOf as tableOperationOf } from '../http/operations/index.ts';
import * as S from '../http/openapi/schemas.ts';
import type { Mismatch } from './match.ts';
import { compileTest } from './schema-test.ts';

/**
 * Every response a scenario gets is checked against the API's own schema (an empty or partial body must
 * not pass a subset match): the operation of the route table (adapters/http/operations/) for the request's method and
 * path, and its answer for the status — the same zod schemas GET /openapi.json is generated from. A 4xx or 5xx is
 * a Problem (RFC 9457, CONTRACT §5), except the token endpoint's RFC 6749 error bodies. A step may name the schema
 * it expects instead (`expect: { schema: BookingResponse }`), any of the document's response components.
 */

/** What a response of one operation and status must be; `schema` undefined: an empty body. */
interface ExpectedBody {
  /** `POST /v3/offers → 200`, as the report names it. */
  label: string;
  schema: z.ZodType | undefined;
}

/** At most this many mismatches are listed per response; the rest are counted. */
const MAX_LISTED = 10;

/** The operation key (`GET /v3/bookings/{bookingId}`) a request goes to, or undefined for a path the API does not have. */
export function operationOf(method: string, path: string): string | undefined {
  const op = tableOperationOf(method, path);
  return op && keyOf(op);
}

/** The schema a response must match, or why the API has none for it. */
function expectedBody(method: string, path: string, status: number): ExpectedBody | { unknown: string } {
  const op = tableOperationOf(method, path);
  const key = op && keyOf(op);
  const label = `${key ?? `${method.toUpperCase()} ${path.split('?')[0]}`} → ${status}`;
  if (status >= 400) {
    const oauth = key === 'POST /oauth2/token' && (status === 400 || status === 401);
    return { label, schema: oauth ? S.OAuthErrorBody : S.Problem };
  }
  if (!op) return { unknown: `the API has no operation ${method.toUpperCase()} ${path.split('?')[0]}` };
  const answer = op.responses[status];
  if (!answer) {
    const declared = Object.keys(op.responses);
    return { unknown: `the API declares no ${status} answer for ${key}${declared.length ? ` (it declares ${declared.join(', ')})` : ''}` };
  }
  return { label, schema: answer.schema };
}

/** The response schemas a step may name in `expect.schema`: the document's components, by name. */
export const namedResponseSchemas: Readonly<Record<string, z.ZodType>> = Object.fromEntries(
  (Object.entries(S) as Array<[string, unknown]>).filter((e): e is [string, z.ZodType] => e[1] instanceof z.ZodType && e[0] !== 'TokenForm'),
);

/**
 * The body against the schema of its operation and status (or the one the step names): a mismatch per place
 * it breaks, each `/json/pointer: expected …, got …`, under one heading naming the operation and status.
 */
export function checkResponse(method: string, path: string, status: number, body: unknown, named?: string): Mismatch[] {
  const found = expectedBody(method, path, status);
  if ('unknown' in found) {
    if (named === undefined) return [schemaMismatch(`response does not match the API schema`, found.unknown)];
    return describeIssues(
      `response does not match the API schema ${named} for ${method.toUpperCase()} ${path.split('?')[0]} → ${status}`,
      namedResponseSchemas[named],
      body,
    );
  }
  if (named !== undefined) return describeIssues(`response does not match the API schema ${named} for ${found.label}`, namedResponseSchemas[named], body);
  return describeIssues(`response does not match the API schema for ${found.label}`, found.schema, body);
}

function describeIssues(heading: string, schema: z.ZodType | undefined, body: unknown): Mismatch[] {
  if (schema === undefined) return body === undefined ? [] : [schemaMismatch(heading, `(root): expected an empty body, got ${describe(body)}`)];
  // The compiled test answers the common case (the body conforms) without copying it; zod says where it does not.
  const test = compileTest(schema);
  if (test ? test(body) : schema.safeParse(body).success) return [];
  const result = schema.safeParse(body);
  if (result.success) return [];
  const lines = result.error.issues.flatMap((issue) => linesOf(issue, body));
  const listed = lines.slice(0, MAX_LISTED).map((line) => schemaMismatch(heading, line));
  if (lines.length > MAX_LISTED) listed.push(schemaMismatch(heading, `… and ${lines.length - MAX_LISTED} more`));
  return listed;
}

const schemaMismatch = (path: string, message: string): Mismatch => ({ path, keys: [], expected: undefined, actual: undefined, message, kind: 'schema' });

/** `/offers/0/offerId` (RFC 6901); the whole body is `(root)`. */
const pointerOf = (path: readonly PropertyKey[]) =>
  path.length === 0 ? '(root)' : path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let v = body;
  for (const p of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[p] : undefined;
  return v;
}

function describe(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (typeof v === 'object') return 'an object';
  const text = JSON.stringify(v);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

function linesOf(issue: z.core.$ZodIssue, body: unknown): string[] {
  const at = pointerOf(issue.path);
  const actual = valueAt(body, issue.path);
  const got = issue.path.length === 0 && actual === undefined ? 'an empty body' : describe(actual);
  switch (issue.code) {
    case 'invalid_type':
      return [`${at}: expected ${issue.expected}, got ${got}`];
    case 'invalid_value':
      return [`${at}: expected ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}, got ${got}`];
    case 'unrecognized_keys':
      return issue.keys.map((k) => `${pointerOf([...issue.path, k])}: not in the schema, got ${describe(valueAt(actual, [k]))}`);
    default:
      return [`${at}: ${issue.message.replace(/^Invalid input: /, '')}, got ${got}`];
  }
}
