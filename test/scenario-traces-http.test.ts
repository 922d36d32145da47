import { describe, expect, it } from 'vitest';
import { buildServer } from '../adapters/http/server.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { engine, requestorHeader, testServer, trip } from './helpers/server.ts';

/** GET /sandbox/traces/{requestId}: the rule traces behind a recent response, for `signalbox test --target`. */
describe('traces over HTTP in sandbox mode', () => {
  const tooMany = {
    tripSpecifications: [trip()],
    anonymousPassengerSpecifications: Array.from({ length: 10 }, (_, i) => ({ externalRef: `p${i}`, type: 'PERSON', age: 30 + i })),
  };

  it('serves the traces of a refused request by its x-request-id', async () => {
    const server = await testServer();
    const refused = await server.reseller('POST', '/v3/offers', tooMany);
    expect(refused.status).toBe(400);
    const id = String(refused.headers['x-request-id']);
    const res = await server.app.inject({ method: 'GET', url: `/sandbox/traces/${id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      requestId: id,
      traces: [
        {
          decision: 'offerRequestLimits',
          facts: { passengerCount: 10 },
          fired: [{ row: 'too-many-passengers', at: expect.stringMatching(/^rules\/offer-request-limits\.yaml:\d+:\d+$/) }],
        },
      ],
    });
  });

  it('keeps a request the caller named by its own x-request-id, and an empty list when no decision was made', async () => {
    const server = await testServer();
    await server.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'my-health-check' } });
    expect((await server.app.inject({ method: 'GET', url: '/sandbox/traces/my-health-check' })).json()).toEqual({ requestId: 'my-health-check', traces: [] });
  });

  it('forgets the oldest beyond the last 500 requests', async () => {
    const server = await testServer();
    for (let i = 0; i <= 500; i++) await server.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': `r${i}` } });
    const oldest = await server.app.inject({ method: 'GET', url: '/sandbox/traces/r0' });
    expect(oldest.statusCode).toBe(404);
    expect(oldest.json()).toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    expect((await server.app.inject({ method: 'GET', url: '/sandbox/traces/r1' })).statusCode).toBe(200);
  });

  it('does not exist without --sandbox', async () => {
    const app = await buildServer({ engine: engine(), store: memoryStore(), jwtSecret: 'x' });
    const res = await app.inject({ method: 'GET', url: '/sandbox/traces/anything', headers: { requestor: requestorHeader() } });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toContain('route');
  });
});
