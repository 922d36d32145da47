import { afterAll, describe, expect, it } from 'vitest';
import { buildServer } from '../adapters/http/server.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { engine, testServer } from './helpers/server.ts';

/**
 * Faults on demand (X-Sandbox-Fault, docs/api-and-integration.md#faults-on-demand). The scenarios under
 * scenarios/faults/ show each fault as an integrator meets it; here what they cannot: a production server ignores
 * the header, /openapi.json documents it where it applies, and a delay really delays.
 */
const sandbox = await testServer();
const production = await buildServer({ engine: engine(), store: memoryStore(), jwtSecret: 'p' });
afterAll(async () => {
  await sandbox.app.close();
  await production.close();
});

const parameters = (doc: any, path: string, method: string): Array<{ name: string; description?: string }> => doc.paths[path][method].parameters;

describe('X-Sandbox-Fault', () => {
  it('is ignored by a server without --sandbox, as the operator would ignore it', async () => {
    const res = await production.inject({ method: 'GET', url: '/health', headers: { 'x-sandbox-fault': 'unavailable' } });
    expect(res.statusCode).toBe(200);
    const unauthenticated = await production.inject({ method: 'GET', url: '/v3/bookings/x', headers: { 'x-sandbox-fault': 'unavailable' } });
    expect(unauthenticated.statusCode).toBe(401);
    const doc = (await production.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(JSON.stringify(doc)).not.toContain('"name":"X-Sandbox-Fault"');
    expect(doc.paths['/v3/offers'].post.responses['503']).toBeUndefined();
  });

  it('is documented on a sandbox, with the faults of each operation and the 503 of the Reseller API', async () => {
    const doc = (await sandbox.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const fault = (path: string, method: string) => parameters(doc, path, method).find((p) => p.name === 'X-Sandbox-Fault')?.description ?? '';
    expect(fault('/v3/booking', 'post')).toContain('`place-taken`');
    expect(fault('/v3/bookings/{bookingId}', 'patch')).toContain('`place-taken`');
    expect(fault('/v3/bookings/{bookingId}/fulfillment', 'post')).toMatch(/`price-changed;percent=N` \(-99…1000; 10 when left out\)/);
    expect(fault('/v3/bookings/{bookingId}/fulfillment', 'post')).toContain('`technical-failure`');
    expect(fault('/v3/offers', 'post')).not.toContain('place-taken');
    expect(fault('/v3/offers', 'post')).toContain('`unavailable;retry-after=N`');
    expect(fault('/customer/contacts/email', 'post')).not.toContain('unavailable');
    expect(fault('/customer/contacts/email', 'post')).toContain('`delay;ms=N` (0…10000)');
    expect(doc.paths['/v3/offers'].post.responses['503']).toBeDefined();
    expect(doc.paths['/customer/contacts/email'].post.responses['503']).toBeUndefined();
  });

  it('delay answers no sooner than asked', async () => {
    const started = performance.now();
    const res = await sandbox.app.inject({ method: 'GET', url: '/health', headers: { 'x-sandbox-fault': 'delay;ms=200' } });
    expect(res.statusCode).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('a header given twice counts as one list', async () => {
    const res = await sandbox.app.inject({
      method: 'GET',
      url: '/v3/bookings/x',
      headers: { 'x-sandbox-fault': ['delay;ms=1', 'unavailable;retry-after=7'] },
    });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('7');
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});
