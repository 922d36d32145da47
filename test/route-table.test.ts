import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ANY_METHODS, fastifyPath, keyOf } from '../adapters/http/operations/index.ts';
import { buildServer } from '../adapters/http/server.ts';
import { DEFAULT_OSDM_DOCUMENT, defaultOsdmConformance } from '../adapters/harness/osdm-conformance.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { studioExtension } from '../adapters/studio/routes.ts';
import { engine } from './helpers/server.ts';
import { missingOracle } from './helpers/oracle.ts';

/**
 * The route table (adapters/http/operations/, and the studio's entries in adapters/studio/routes/) is the one place
 * an operation is declared: the server's routes and GET /openapi.json are made from it, and a route outside it cannot
 * be registered. Served here whole: a sandbox with the studio, as `signalbox serve --sandbox` runs.
 */
const app = await buildServer({ engine: engine(), store: memoryStore(), sandbox: true, jwtSecret: 'table', extensions: [studioExtension({ sandbox: true })] });
await app.ready();
const { operations, operationOf, operationOfRoute } = app.routeTable;
afterAll(() => app.close());

/** `ANY` is listed under each method it answers, with `*` as `{path}` (document.ts). */
const documentKeys = (op: (typeof operations)[number]) =>
  (op.method === 'ANY' ? ANY_METHODS : [op.method]).map((method) => `${method} ${op.path.replace(/\*$/, '{path}')}`);

describe('the route table', () => {
  it('is what the server registers and what /openapi.json lists, one operation each', async () => {
    const registered = new Set(app.registeredRoutes.map((r) => operationOfRoute(r.method, r.url)));
    expect(registered.has(undefined)).toBe(false);
    expect(operations.filter((op) => !registered.has(op)).map(keyOf), 'table entries no route serves').toEqual([]);
    expect(new Set(operations.map(keyOf)).size).toBe(operations.length);

    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, { 'x-osdm-operation-ids'?: string[] }>>;
    }>();
    const listed = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op['x-osdm-operation-ids'] ?? []] as const),
    );
    expect(listed).toEqual(operations.flatMap((op) => documentKeys(op).map((key) => [key, op.osdm ?? []])));
  });

  it('refuses a route without an entry: the server cannot serve what the table does not declare', async () => {
    const other = await buildServer({ engine: engine(), store: memoryStore(), jwtSecret: 'table' });
    try {
      expect(() => other.get('/v3/bookings/:bookingId/history', async () => ({}))).toThrow(
        /GET \/v3\/bookings\/:bookingId\/history has no entry in the route table/,
      );
      // A method the table does not declare for a path it has is refused as well.
      expect(() => other.delete('/v3/bookings/:bookingId', async () => ({}))).toThrow(/no entry in the route table/);
      // Under another name for the path parameter too: the table's names are the routes' names.
      expect(() => other.get('/v3/fulfillments/:id', async () => ({}))).toThrow(/no entry in the route table/);
    } finally {
      await other.close();
    }
  });

  it('finds the operation of every request path, literal segments before parameters', () => {
    for (const op of operations) {
      const path = op.path.replace(/\{\w+\}/g, 'x-1').replace(/\*$/, 'a/b');
      expect(operationOf(op.method === 'ANY' ? 'PUT' : op.method, `${path}?q=1`), keyOf(op)).toBe(op);
      expect(operationOfRoute(op.method === 'ANY' ? 'OPTIONS' : op.method, fastifyPath(op.path)), keyOf(op)).toBe(op);
    }
    expect(operationOf('DELETE', '/v3/bookings/x-1/booked-offers/a')!.method).toBe('ANY');
    expect(operationOf('GET', '/v3/bookings/')).toBeUndefined();
    expect(operationOf('DELETE', '/v3/offers')).toBeUndefined();
  });
});

const found = defaultOsdmConformance();
const osdm =
  missingOracle('the OSDM operations of the route table', 'missing' in found ? found.missing : undefined) !== undefined
    ? undefined
    : (parse(readFileSync(DEFAULT_OSDM_DOCUMENT, 'utf8')) as { paths: Record<string, Record<string, { operationId?: string }>> });

describe.skipIf(!osdm)('the OSDM operations of the route table', () => {
  it('are operationIds of OSDM 3.4, and only Reseller API operations name one', () => {
    const ids = new Set(Object.values(osdm!.paths).flatMap((item) => Object.values(item).map((op) => op?.operationId)));
    expect(operations.flatMap((op) => (op.osdm ?? []).filter((id) => !ids.has(id)).map((id) => `${keyOf(op)}: ${id}`))).toEqual([]);
    expect(operations.filter((op) => op.osdm?.length && !op.path.startsWith('/v3/')).map(keyOf)).toEqual([]);
  });
});
