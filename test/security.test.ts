import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { SignJWT } from 'jose';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { virtualClock } from '../adapters/service/clock.ts';
import { sequentialIds } from '../adapters/service/ids.ts';
import { buildServer } from '../adapters/http/server.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { engine, passengers, requestorHeader, trip } from './helpers/server.ts';

/**
 * What a hostile or broken client can do to the HTTP adapter. Every attempt gets a 4xx Problem: none
 * reaches the engine (an engine that counts its calls shows it), none gets a 5xx, and the process keeps serving.
 */
const JWT_SECRET = 'security-test-secret';

const calls: string[] = [];
/** The real engine, counting every call but the Problem renderer. */
const spy = new Proxy(engine(), {
  get(target, property, receiver) {
    const value = Reflect.get(target, property, receiver) as unknown;
    if (typeof value !== 'function' || property === 'problem') return value;
    return (...args: unknown[]) => {
      calls.push(String(property));
      return (value as (...a: unknown[]) => unknown).apply(target, args);
    };
  },
});

const app = await buildServer({
  engine: spy,
  store: memoryStore(),
  clock: virtualClock(new Date('2026-11-20T10:00:00+01:00')),
  ids: sequentialIds(),
  jwtSecret: JWT_SECRET,
});
await app.listen({ host: '127.0.0.1', port: 0 });
const port = (app.server.address() as AddressInfo).port;
afterAll(() => app.close());

const tokenOf = async (client: string, scope?: string) => {
  const payload = `grant_type=client_credentials&client_id=${client}&client_secret=${client}-secret${scope ? `&scope=${scope}` : ''}`;
  return (await app.inject({ method: 'POST', url: '/oauth2/token', payload, headers: { 'content-type': 'application/x-www-form-urlencoded' } })).json()
    .access_token as string;
};
const resellerToken = await tokenOf('demo-reseller');
const otherToken = await tokenOf('demo-other');
const offerBody = { tripSpecifications: [trip()], anonymousPassengerSpecifications: passengers(35) };

type Headers = Record<string, string>;
async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Headers, payload?: string | Buffer | object) {
  const res = await app.inject({ method, url, headers, ...(payload !== undefined ? { payload: payload as string } : {}) });
  return { status: res.statusCode, headers: res.headers, body: res.body ? res.json() : undefined };
}
const asReseller = (extra: Headers = {}): Headers => ({ authorization: `Bearer ${resellerToken}`, requestor: requestorHeader(), ...extra });

/** A request over a raw socket, for what no well-behaved client library would send. */
function raw(text: string | Buffer): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(text));
    let out = '';
    socket.on('data', (d: Buffer) => {
      out += d.toString('latin1');
    });
    socket.on('error', (e: NodeJS.ErrnoException) => ((e.code === 'ECONNRESET' || e.code === 'EPIPE') && out ? undefined : reject(e)));
    socket.on('close', () => {
      const [head = '', body = ''] = out.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), head, body });
    });
  });
}

/** Every case: a 4xx Problem, the engine untouched. */
function expectRefused(res: { status: number; headers?: Record<string, unknown>; body?: any }, status: number, code?: string) {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ status, ...(code ? { code } : {}) });
  expect(calls).toEqual([]);
}

beforeEach(() => {
  calls.length = 0;
});

describe('tokens', () => {
  const sign = (claims: Record<string, unknown>, secret = JWT_SECRET, expires: string | number = '1h') =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('signalbox')
      .setSubject('demo-reseller')
      .setIssuedAt()
      .setExpirationTime(expires)
      .sign(new TextEncoder().encode(secret));
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

  it('no token, a Basic one, or garbage → 401 with WWW-Authenticate: Bearer', async () => {
    for (const authorization of [
      undefined,
      'Basic ZGVtby1yZXNlbGxlcjpkZW1vLXJlc2VsbGVyLXNlY3JldA==',
      'Bearer',
      'Bearer not.a.jwt',
      `Bearer ${'x'.repeat(8000)}`,
    ]) {
      const res = await call('POST', '/v3/offers', { requestor: requestorHeader(), ...(authorization ? { authorization } : {}) }, offerBody);
      expectRefused(res, 401, 'UNAUTHORIZED');
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
  });

  it('an expired token → 401 saying so', async () => {
    const expired = await sign({ scope: 'reseller' }, JWT_SECRET, Math.floor(Date.now() / 1000) - 60);
    const res = await call('POST', '/v3/offers', asReseller({ authorization: `Bearer ${expired}` }), offerBody);
    expectRefused(res, 401, 'UNAUTHORIZED');
    expect(res.body.detail).toContain('expired');
  });

  it('a tampered token (payload changed, signature kept) → 401', async () => {
    const [header, , signature] = resellerToken.split('.');
    const forged = `${header}.${b64({ iss: 'signalbox', sub: 'demo-other', scope: 'reseller customer', exp: 4102444800 })}.${signature}`;
    expectRefused(await call('POST', '/v3/offers', asReseller({ authorization: `Bearer ${forged}` }), offerBody), 401, 'UNAUTHORIZED');
  });

  it('alg: none → 401', async () => {
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ iss: 'signalbox', sub: 'demo-reseller', scope: 'reseller', exp: 4102444800 })}.`;
    expectRefused(await call('POST', '/v3/offers', asReseller({ authorization: `Bearer ${none}` }), offerBody), 401, 'UNAUTHORIZED');
  });

  it('signed with another key, or naming an unknown client → 401', async () => {
    expectRefused(
      await call('POST', '/v3/offers', asReseller({ authorization: `Bearer ${await sign({ scope: 'reseller' }, 'another-key')}` }), offerBody),
      401,
      'UNAUTHORIZED',
    );
    const ghost = await new SignJWT({ scope: 'reseller' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('signalbox')
      .setSubject('ghost')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(JWT_SECRET));
    expectRefused(await call('POST', '/v3/offers', asReseller({ authorization: `Bearer ${ghost}` }), offerBody), 401, 'UNAUTHORIZED');
  });

  it('a valid token without the scope → 403', async () => {
    const customerOnly = await tokenOf('demo-reseller', 'customer');
    expectRefused(await call('POST', '/v3/offers', asReseller({ authorization: `Bearer ${customerOnly}` }), offerBody), 403, 'FORBIDDEN');
    const resellerOnly = await tokenOf('demo-reseller', 'reseller');
    const lookup = await call(
      'POST',
      '/customer/contacts/email',
      { authorization: `Bearer ${resellerOnly}`, 'ocp-apim-subscription-key': 'demo-subscription-key' },
      { email: 'anna.svensson@example.se' },
    );
    expectRefused(lookup, 403, 'FORBIDDEN');
  });

  it('an unauthenticated caller cannot make the server read a body: 401 before 413 or 400', async () => {
    const bomb = gzipSync(Buffer.alloc(5 * 1024 * 1024, 32));
    expectRefused(await call('POST', '/v3/offers', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, bomb), 401, 'UNAUTHORIZED');
    expectRefused(await call('POST', '/v3/offers', { 'content-type': 'application/json' }, '{"broken'), 401, 'UNAUTHORIZED');
  });
});

describe('isolation between clients', () => {
  it("another client's booking, its fulfillments and its passengers are 404, exactly like ids that do not exist", async () => {
    const offers = await call('POST', '/v3/offers', asReseller({ 'content-type': 'application/json' }), offerBody);
    const booking = await call('POST', '/v3/booking', asReseller({ 'content-type': 'application/json' }), {
      externalRef: 'mine',
      offers: [{ offerId: offers.body.offers[0].offerId, passengerRefs: ['p1'] }],
      passengerSpecifications: [{ externalRef: 'p1', type: 'PERSON', age: 35, detail: { firstName: 'Anna', lastName: 'Svensson' } }],
      purchaser: { detail: { firstName: 'Anna', lastName: 'Svensson', email: 'anna.svensson@example.se', phoneNumber: '+46701234567' } },
    });
    const id = booking.body.booking.id as string;
    const passengerId = booking.body.booking.passengers[0].id as string;
    expect((await call('POST', `/v3/bookings/${id}/fulfillment`, asReseller())).status).toBe(202);
    const fulfillmentId = (await call('GET', `/v3/bookings/${id}`, asReseller())).body.booking.fulfillments[0].id as string;
    calls.length = 0;

    const other = { authorization: `Bearer ${otherToken}`, requestor: requestorHeader(), 'content-type': 'application/json' };
    const attempts: Array<[string, 'GET' | 'POST' | 'PATCH', string, object?]> = [
      ['booking', 'GET', `/v3/bookings/${id}`],
      ['booking', 'POST', `/v3/bookings/${id}/fulfillment`],
      ['booking', 'POST', `/v3/bookings/${id}/fulfillments`],
      [
        'booking',
        'PATCH',
        `/v3/bookings/${id}/purchaser`,
        { detail: { firstName: 'Eve', lastName: 'Evil', email: 'eve@example.se', phoneNumber: '+46700000000' } },
      ],
      ['booking', 'GET', `/v3/bookings/${id}/passengers/${passengerId}`],
      ['fulfillment', 'GET', `/v3/fulfillments/${fulfillmentId}`],
    ];
    for (const [resource, method, url, body] of attempts) {
      const foreign = await call(method, url, other, body);
      const missing = await call(method, url.replace(id, 'SBNOSUCH1').replace(fulfillmentId, 'no-such-fulfillment'), other, body);
      expect(foreign.status, url).toBe(404);
      expect(foreign.body.code).toBe('RESOURCE_NOT_FOUND');
      expect(foreign.body.title).toBe(missing.body.title);
      expect(foreign.body.detail).toBe(`No ${resource} with id ${resource === 'fulfillment' ? fulfillmentId : id} exists.`);
    }
    expect(calls).toEqual([]);
    // …and the owner still sees it unchanged.
    expect((await call('GET', `/v3/bookings/${id}`, asReseller())).body.booking.purchaser.detail.firstName).toBe('Anna');
  });
});

describe('bodies', () => {
  const json = asReseller({ 'content-type': 'application/json' });

  it('more than 1 MiB → 413, plain or gzip-compressed', async () => {
    expectRefused(await call('POST', '/v3/offers', json, JSON.stringify({ ...offerBody, padding: 'x'.repeat(1024 * 1024) })), 413, 'X_PAYLOAD_TOO_LARGE');
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024, 32));
    expect(bomb.length).toBeLessThan(100 * 1024);
    expectRefused(await call('POST', '/v3/offers', { ...json, 'content-encoding': 'gzip' }, bomb), 413, 'X_PAYLOAD_TOO_LARGE');
  });

  it('deeply nested JSON → 400, not a stack overflow', async () => {
    const bodies = [
      '['.repeat(100_000) + ']'.repeat(100_000),
      '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000),
      JSON.stringify({ ...offerBody, tripSearchCriteria: JSON.parse('['.repeat(65) + ']'.repeat(65)) }),
      '['.repeat(200_000), // unbalanced as well
    ];
    for (const body of bodies) {
      const res = await call('POST', '/v3/offers', json, body);
      expectRefused(res, 400, '86001');
      expect(res.body.detail).toContain('deeper than 64 levels');
    }
    const customer = await call(
      'POST',
      '/customer/contacts/email',
      { authorization: `Bearer ${resellerToken}`, 'ocp-apim-subscription-key': 'demo-subscription-key', 'content-type': 'application/json' },
      '['.repeat(100_000),
    );
    expectRefused(customer, 400, '86001');
    // Nesting within the limit inside a field OSDM allows and the operator ignores is fine.
    expect(
      (await call('POST', '/v3/offers', json, JSON.stringify({ ...offerBody, tripSearchCriteria: JSON.parse('['.repeat(50) + ']'.repeat(50)) }))).status,
    ).toBe(200);
    expect(calls).toContain('decideOffers');
  });

  it('a body that is not JSON → 415', async () => {
    for (const type of ['text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded']) {
      expectRefused(await call('POST', '/v3/offers', asReseller({ 'content-type': type }), 'a=1'), 415, 'X_UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('a GET with a body: the body is ignored, never a 5xx', async () => {
    const res = await call('GET', '/v3/bookings/SBNOSUCH1', json, '{"broken');
    expectRefused(res, 404, 'RESOURCE_NOT_FOUND');
    const health = await raw('GET /health HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 8\r\nConnection: close\r\n\r\n{"brok":');
    expect(health.status).toBe(200);
  });
});

describe('headers', () => {
  it('a Requestor with a bare CR or LF never reaches the server: 400 Problem from the HTTP parser', async () => {
    for (const evil of ['e30=\nX-Injected: 1', 'e30=\rX-Injected: 1', 'e30=\r X-Injected: 1']) {
      const res = await raw(
        `POST /v3/offers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${resellerToken}\r\nRequestor: ${evil}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
      );
      expect(res.status, JSON.stringify(evil)).toBe(400);
      expect(res.head).toMatch(/content-type: application\/problem\+json/i);
      expect(res.head).not.toMatch(/X-Injected/i);
      expect(JSON.parse(res.body)).toMatchObject({ code: '86001', status: 400 });
    }
    expect(calls).toEqual([]);
  });

  it('CR LF ends the Requestor (what follows is another header): the Requestor is judged alone, nothing is echoed', async () => {
    const res = await raw(
      `POST /v3/offers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${resellerToken}\r\nRequestor: e30=\r\nX-Injected: 1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
    expect(res.status).toBe(400);
    expect(res.head).not.toMatch(/X-Injected/i);
    expect(JSON.parse(res.body)).toMatchObject({ code: '86001', pointers: [{ requestPointer: 'header:Requestor' }] });
    // CR LF inside the decoded JSON stays data: an unknown sales application, answered in the JSON body only.
    const encoded = Buffer.from(JSON.stringify({ salesApplication: 'WEB_SE\r\nX-Injected: 1', salesUnitCode: 'x' })).toString('base64');
    const forbidden = await call('POST', '/v3/offers', asReseller({ requestor: encoded, 'content-type': 'application/json' }), offerBody);
    expectRefused(forbidden, 403, 'FORBIDDEN');
    expect(Object.keys(forbidden.headers).filter((h) => /injected/i.test(h))).toEqual([]);
  });

  it('a huge Requestor → 400 Problem: refused by length, or by the HTTP parser beyond 16 KiB', async () => {
    const long = Buffer.from(JSON.stringify({ salesApplication: 'WEB_SE', salesUnitCode: 'x'.repeat(6000) })).toString('base64');
    const res = await call('POST', '/v3/offers', asReseller({ requestor: long, 'content-type': 'application/json' }), offerBody);
    expectRefused(res, 400, '86001');
    expect(res.body.pointers).toEqual([{ requestPointer: 'header:Requestor' }]);
    const huge = await raw(`POST /v3/offers HTTP/1.1\r\nHost: x\r\nRequestor: ${'A'.repeat(100_000)}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
    expect(huge.status).toBe(400);
    expect(JSON.parse(huge.body)).toMatchObject({ code: '86001' });
    expect(calls).toEqual([]);
  });

  it('a Requestor of nested JSON, or of the wrong shape → 86001', async () => {
    for (const requestor of [
      Buffer.from('['.repeat(1000) + ']'.repeat(1000)).toString('base64'),
      Buffer.from('{"salesApplication":{"$gt":""},"salesUnitCode":"x"}').toString('base64'),
      Buffer.from('"WEB_SE"').toString('base64'),
    ]) {
      expectRefused(await call('POST', '/v3/offers', asReseller({ requestor, 'content-type': 'application/json' }), offerBody), 400, '86001');
    }
  });
});

describe('methods', () => {
  it('a method a path does not take → 405 Problem with Allow; an unknown path → 404 Problem', async () => {
    for (const method of ['PUT', 'PROPFIND', 'TRACE', 'OPTIONS', 'MKCOL']) {
      const res = await raw(`${method} /v3/offers HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(res.status, method).toBe(405);
      expect(res.head).toMatch(/allow: POST/i);
      expect(JSON.parse(res.body)).toMatchObject({ code: 'X_METHOD_NOT_ALLOWED', status: 405 });
    }
    const unknown = await raw('PROPFIND /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
  });

  it('a method HTTP does not know → 400 Problem', async () => {
    for (const method of ['FOO', 'GETT', 'BREW']) {
      const res = await raw(`${method} /v3/offers HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(res.status, method).toBe(400);
      expect(res.head).toMatch(/Content-Language: en-GB/);
      expect(JSON.parse(res.body)).toMatchObject({ code: '86001', status: 400 });
    }
    expect(calls).toEqual([]);
  });
});

describe('after all that', () => {
  it('the server still serves', async () => {
    expect((await raw('GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).body).toBe(`{"status":"ok","node":"${process.version}"}`);
  });
});
