import { aftersales } from './aftersales.ts';
import { availabilities } from './availability.ts';
import { booking } from './booking.ts';
import { customer } from './customer.ts';
import { fulfillment } from './fulfillment.ts';
import { oauth } from './oauth.ts';
import { offers } from './offers.ts';
import type { Method, Operation } from './operation.ts';
import { sandbox } from './sandbox.ts';
import { service } from './service.ts';

export { ANY_METHODS, keyOf, sandboxOnly, type Access, type Operation, type Response } from './operation.ts';

/**
 * The route table: every operation of the HTTP API, once, in the order GET /openapi.json lists them. A new
 * operation is an entry in one of these files (or a new file for a new area); register.ts serves it, the document
 * and the scenario coverage matrix follow, and a route registered without an entry stops the server from starting.
 * A wing served beside the API (the studio, adapters/studio/routes.ts) brings its own entries: the server's table
 * is this one with theirs after it (`routeTable`).
 */
export const operations: readonly Operation[] = [
  ...service,
  ...oauth,
  ...offers,
  ...booking,
  ...fulfillment,
  ...aftersales,
  ...availabilities,
  ...customer,
  ...sandbox,
];

/** `/v3/bookings/{bookingId}` → `/v3/bookings/:bookingId` (Fastify's form; a trailing `*` stays). */
export const fastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

interface Compiled {
  op: Operation;
  pattern: RegExp;
  specificity: number;
}

/** `{param}` matches one non-empty segment, a trailing `*` any rest; a trailing slash is ignored as the server ignores it. */
function compile(op: Operation): Compiled {
  const source = op.path
    .split('/')
    .map((s) => (s === '*' ? '.+' : s.startsWith('{') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  // Literal segments before `{param}` and `*`, a method before ANY: `/v3/availabilities/nearby` is not `{id}`.
  const specificity = op.path.split('/').filter((s) => s && !s.startsWith('{') && s !== '*').length * 2 - (op.method === 'ANY' ? 1 : 0);
  return { op, pattern: new RegExp(`^${source}/?$`), specificity };
}

/** The operations one server serves, and how a request or a route finds its own among them. */
export interface RouteTable {
  readonly operations: readonly Operation[];
  /** The operation a request (`POST`, `/v3/bookings/SB1/fulfillment?x=1`) goes to; undefined for a path the table does not have. */
  readonly operationOf: (method: string, path: string) => Operation | undefined;
  /** The operation a Fastify route (`GET`, `/v3/bookings/:bookingId`) serves; HEAD is GET's twin. */
  readonly operationOfRoute: (method: string, url: string) => Operation | undefined;
}

/** The API's operations followed by those of the wings a server adds (`buildServer`'s `extensions`). */
export function routeTable(operations: readonly Operation[]): RouteTable {
  let compiled: Compiled[] | undefined;
  /** Paths repeat (in-process ids count from 1 in every scenario): each is looked up once. */
  const seen = new Map<string, Operation | undefined>();
  return {
    operations,
    operationOf(method, path) {
      const m = method.toUpperCase();
      const bare = path.split('?')[0]!;
      const key = `${m} ${bare}`;
      if (seen.has(key)) return seen.get(key);
      compiled ??= operations.map(compile).sort((a, b) => b.specificity - a.specificity);
      const found = compiled.find(
        (c) => (c.op.method === m || c.op.method === 'ANY') && c.pattern.test(bare) && !(c.op.notUnder && bare.startsWith(c.op.notUnder)),
      )?.op;
      if (seen.size >= 10_000) seen.clear();
      seen.set(key, found);
      return found;
    },
    operationOfRoute(method, url) {
      const path = url.replace(/\/+$/, '') || '/';
      const asMethod = (method === 'HEAD' ? 'GET' : method) as Method;
      return operations.find((op) => fastifyPath(op.path) === path && (op.method === asMethod || op.method === 'ANY'));
    },
  };
}

/** The API's own table: what a server without wings serves, and what the scenario coverage counts. */
export const apiTable = routeTable(operations);
export const { operationOf, operationOfRoute } = apiTable;
