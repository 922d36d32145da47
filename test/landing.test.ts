import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_SECRETS } from '../adapters/harness/demo-secrets.ts';
import { buildServer } from '../adapters/http/server.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { engine } from './helpers/server.ts';

/** GET / is where a newcomer lands: what this is, where the docs are, and on a sandbox how to get in. */
const sandbox = await buildServer({ engine: engine(), store: memoryStore(), sandbox: true, demoSecrets: DEMO_SECRETS, jwtSecret: 'l' });
const plain = await buildServer({ engine: engine(), store: memoryStore(), jwtSecret: 'l' });
afterAll(async () => {
  await sandbox.close();
  await plain.close();
});

describe('GET /', () => {
  it('is a page linking the docs, the OpenAPI document and the health check, with the demo credentials on a sandbox', async () => {
    const res = await sandbox.inject({ method: 'GET', url: '/', headers: { accept: 'text/html,*/*' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    for (const href of ['/docs', '/openapi.json', '/health']) expect(res.body).toContain(`<a href="${href}">`);
    expect(res.body).not.toContain('/studio'); // no studio route here
    expect(res.body).toContain('client <code>demo-reseller</code>, secret <code>demo-reseller-secret</code>');
    expect(res.body).toContain('Requestor: eyJzYWxlc0FwcGxpY2F0aW9uIjoiV0VCX1NFIiwic2FsZXNVbml0Q29kZSI6IldFQiJ9');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('shows no credentials on a server that is not a sandbox', async () => {
    const res = await plain.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<a href="/docs">');
    expect(res.body).not.toMatch(/secret|Demo credentials/);
  });

  it('answers the same links as JSON to a caller asking for JSON', async () => {
    const res = await sandbox.inject({ method: 'GET', url: '/', headers: { accept: 'application/json' } });
    expect(res.json()).toMatchObject({
      name: 'signalbox',
      sandbox: true,
      links: expect.arrayContaining([{ href: '/docs', title: expect.any(String) }]),
      demo: { clients: expect.arrayContaining([{ id: 'demo-reseller', secret: 'demo-reseller-secret' }]) },
    });
  });
});

describe('GET /openapi.json for /docs', () => {
  const operations = async (app: typeof plain) => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, unknown>>;
      tags: Array<{ name: string }>;
    }>();
    return { doc, keys: Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`)) };
  };

  it('lists an operation every method answers alike under each of those methods, and only those', async () => {
    const { keys } = await operations(plain);
    expect(keys.filter((k) => k.includes('/booked-offers/{path}'))).toEqual(
      ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'].map((m) => `${m} /v3/bookings/{bookingId}/booked-offers/{path}`),
    );
    expect(keys.filter((k) => k.endsWith('/availabilities/nearby'))).toEqual(['GET /v3/availabilities/nearby']);
  });

  it('has a Sandbox section only on a sandbox', async () => {
    expect((await operations(plain)).doc.tags.map((t) => t.name)).not.toContain('Sandbox');
    expect((await operations(sandbox)).doc.tags.map((t) => t.name)).toContain('Sandbox');
  });
});
