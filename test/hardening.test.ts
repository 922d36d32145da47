import { connect, type AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { SignJWT } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { sandboxClock, virtualClock } from '../adapters/service/clock.ts';
import { sequentialIds } from '../adapters/service/ids.ts';
import { buildServer } from '../adapters/http/server.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { createEngine } from '../engine/index.ts';
import { rawRequest } from './helpers/raw-http.ts';
import { engine, passengers, requestorHeader, trip } from './helpers/server.ts';

/**
 * Malformed, hostile and abusive input that once crashed the process, answered 5xx, amplified a small request
 * into a huge answer, or held a connection forever. Each answer must be a 4xx (or 408/429) and the process must
 * keep serving. docs/limits.md lists the limits these tests hold the server to.
 */
const JWT_SECRET = 'hardening-test-secret';
const app = await buildServer({
  engine: engine(),
  store: memoryStore(),
  clock: virtualClock(new Date('2026-11-20T10:00:00+01:00')),
  ids: sequentialIds(),
  sandbox: true,
  jwtSecret: JWT_SECRET,
});
await app.listen({ host: '127.0.0.1', port: 0 });
const port = (app.server.address() as AddressInfo).port;
afterAll(() => app.close());

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const tokenOf = async (client = 'demo-reseller') =>
  (
    await app.inject({
      method: 'POST',
      url: '/oauth2/token',
      headers: form,
      payload: `grant_type=client_credentials&client_id=${client}&client_secret=${client}-secret`,
    })
  ).json().access_token as string;
const token = await tokenOf();
const asReseller = { authorization: `Bearer ${token}`, requestor: requestorHeader(), 'content-type': 'application/json' };
const offerBody = { tripSpecifications: [trip()], anonymousPassengerSpecifications: passengers(35) };

const raw = (text: string | Buffer) => rawRequest(port, text);

/** A booking of the demo reseller, made once through the API. */
let booked: string | undefined;
async function confirmedBooking(): Promise<string> {
  if (booked) return booked;
  const offers = (await app.inject({ method: 'POST', url: '/v3/offers', headers: asReseller, payload: offerBody })).json();
  const offerId = offers.offers[0].offerId as string;
  const booking = await app.inject({
    method: 'POST',
    url: '/v3/bookings',
    headers: asReseller,
    payload: {
      externalRef: 'mine',
      offers: [{ offerId, passengerRefs: ['p1'] }],
      passengerSpecifications: [{ externalRef: 'p1', type: 'PERSON', age: 35, detail: { firstName: 'Anna', lastName: 'Svensson' } }],
      purchaser: { detail: { firstName: 'Anna', lastName: 'Svensson', email: 'anna@example.se', phoneNumber: '+46701234567' } },
    },
  });
  booked = booking.json().booking.id as string;
  const { 'content-type': _, ...noBody } = asReseller;
  expect((await app.inject({ method: 'POST', url: `/v3/bookings/${booked}/fulfillment`, headers: noBody })).statusCode).toBe(202);
  return booked;
}

/**
 * The process still serves: no error went unheard (in production it would have ended the process), and a fresh
 * /health answers after the event loop has had time to deliver any stray stream error.
 */
const unheard: Error[] = [];
const hear = (e: Error) => {
  unheard.push(e);
};
process.on('uncaughtException', hear);
afterAll(() => {
  process.off('uncaughtException', hear);
});
async function stillServing() {
  await new Promise((r) => setTimeout(r, 50));
  expect(unheard.map((e) => `${(e as NodeJS.ErrnoException).code}: ${e.message}`)).toEqual([]);
  expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
}

describe('broken gzip request bodies (the stream error is handled where the stream is)', () => {
  it('a GET whose body claims gzip but is not: answered, and the process lives on', async () => {
    const res = await raw('GET /health HTTP/1.1\r\nHost: x\r\nContent-Encoding: gzip\r\nContent-Length: 1\r\n\r\nx');
    expect(res.status).toBe(200); // /health never reads its body
    await stillServing();
  });

  it('a gzip body that inflates past the limit and then turns out broken: 413, and the process lives on', async () => {
    const cut = gzipSync(Buffer.alloc(4 * 1024 * 1024, 'a')).subarray(0, 3279);
    const head = `POST /oauth2/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Encoding: gzip\r\nContent-Length: ${cut.length}\r\nConnection: close\r\n\r\n`;
    const res = await raw(Buffer.concat([Buffer.from(head), cut]));
    expect(res.status).toBe(413);
    await stillServing();
  });

  it('a gzip body with garbage after the stream, or cut short, on a route that reads it: 400 Problem', async () => {
    const good = gzipSync(Buffer.from(JSON.stringify(offerBody)));
    for (const body of [Buffer.concat([good, Buffer.from('garbage')]), good.subarray(0, good.length - 6), Buffer.from('not gzip at all')]) {
      const res = await app.inject({ method: 'POST', url: '/v3/offers', headers: { ...asReseller, 'content-encoding': 'gzip' }, payload: body });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: '86001' });
    }
    await stillServing();
  });
});

describe('a small request cannot make a huge answer', () => {
  it('250,000 empty passengers: a short Problem at the array, no passenger validated', async () => {
    const body = JSON.stringify({ tripSpecifications: [trip()], anonymousPassengerSpecifications: Array.from({ length: 250_000 }, () => ({})) });
    const res = await app.inject({ method: 'POST', url: '/v3/offers', headers: asReseller, payload: body });
    expect(res.json()).toMatchObject({ status: 400, code: '86001', pointers: [{ requestPointer: '#/anonymousPassengerSpecifications' }] });
    expect(res.body.length).toBeLessThan(2_000);
  });

  it('too many passengers, trips or legs are refused by count, whatever the elements hold', async () => {
    const tooMany = await app.inject({
      method: 'POST',
      url: '/v3/offers',
      headers: asReseller,
      payload: { tripSpecifications: [trip()], anonymousPassengerSpecifications: Array.from({ length: 10 }, () => ({})) },
    });
    expect(tooMany.json()).toMatchObject({ status: 400, code: '86003' });
    const trips = await app.inject({
      method: 'POST',
      url: '/v3/offers',
      headers: asReseller,
      payload: { tripSpecifications: Array.from({ length: 7 }, () => ({})), anonymousPassengerSpecifications: passengers(35) },
    });
    expect(trips.json()).toMatchObject({ status: 400, code: '86001', pointers: [{ requestPointer: '#/tripSpecifications' }] });
  });

  it('500,000 fulfillment ids, or 1,000 of the wrong type: a short Problem', async () => {
    const bookingId = await confirmedBooking();
    for (const length of [500_000, 1_000]) {
      const body = JSON.stringify({ fulfillmentIds: Array.from({ length }, () => 1) });
      const res = await app.inject({ method: 'POST', url: `/v3/bookings/${bookingId}/refund-offers`, headers: asReseller, payload: body });
      expect(res.statusCode).toBe(400);
      expect(res.body.length).toBeLessThan(5_000);
    }
  });

  it('a Problem lists at most 20 pointers (rules/limits.yaml) and says how many more there are', async () => {
    const body = {
      tripSpecifications: [trip()],
      anonymousPassengerSpecifications: Array.from({ length: 9 }, () => ({ externalRef: 1, type: 2, age: 'x', cards: 3, extra1: 1, extra2: 2 })),
    };
    const res = await app.inject({ method: 'POST', url: '/v3/offers', headers: asReseller, payload: body });
    expect(res.statusCode).toBe(400);
    const pointers = res.json().pointers as Array<{ requestPointer: string; detail?: string }>;
    expect(pointers).toHaveLength(21);
    expect(pointers.at(-1)).toMatchObject({ requestPointer: '#', detail: expect.stringMatching(/\b\d+ more\b/) });
  });

  it('any array beyond the request array limit is refused at the array, before its elements are read', async () => {
    const body = { ...offerBody, offerSearchCriteria: { travelClasses: Array.from({ length: 5000 }, () => 'SECOND') } };
    const res = await app.inject({ method: 'POST', url: '/v3/offers', headers: asReseller, payload: body });
    expect(res.json()).toMatchObject({ status: 400, code: '86001', pointers: [{ requestPointer: '#/offerSearchCriteria/travelClasses' }] });
  });
});

describe('the token endpoint refuses what it cannot use with an RFC 6749 answer, never a 5xx', () => {
  const post = (payload: string, headers: Record<string, string> = form) => app.inject({ method: 'POST', url: '/oauth2/token', headers, payload });

  it('client ids that name Object.prototype members are unknown clients', async () => {
    for (const id of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      const res = await post(`grant_type=client_credentials&client_id=${id}&client_secret=x`);
      expect(res.statusCode, id).toBe(401);
      expect(res.json()).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
    }
  });

  it('Basic credentials with malformed percent-encoding → 401 invalid_client', async () => {
    const res = await post('grant_type=client_credentials', { ...form, authorization: 'Basic JXp6Ong=' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('a JSON body, or any type but a form, → 400 invalid_request (CONTRACT §3)', async () => {
    for (const [type, body] of [
      ['application/json', JSON.stringify({ grant_type: 'client_credentials', client_id: 'demo-reseller', client_secret: 'demo-reseller-secret' })],
      ['application/json', JSON.stringify({ grant_type: 'client_credentials', client_id: 'demo-reseller', client_secret: 7, scope: ['reseller'] })],
      ['text/plain', 'grant_type=client_credentials'],
      ['application/xml', '<a/>'],
    ] as const) {
      const res = await post(body, { 'content-type': type });
      expect(res.statusCode, `${type} ${body}`).toBe(400);
      expect(res.json()).toMatchObject({ error: 'invalid_request' });
    }
  });

  it('a form field given twice is refused, not joined into an array', async () => {
    const res = await post('grant_type=client_credentials&client_id=demo-reseller&client_secret=demo-reseller-secret&scope=reseller&scope=customer');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('wrong secrets are hashed off the event loop: it keeps turning while they are checked', async () => {
    // Counted in turns of the event loop, not in milliseconds: hashed on the loop, six secrets leave it a handful
    // of turns in all; hashed on the thread pool, tens of thousands.
    let turns = 0;
    let done = false;
    const spin = () => {
      turns++;
      if (!done) setImmediate(spin);
    };
    setImmediate(spin);
    const attempts = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        app.inject({
          method: 'POST',
          url: '/oauth2/token',
          headers: form,
          payload: `grant_type=client_credentials&client_id=nobody-${i}&client_secret=wrong`,
          remoteAddress: `10.1.0.${i}`,
        }),
      ),
    );
    done = true;
    expect(attempts.map((res) => res.statusCode)).toEqual(Array(6).fill(401));
    expect(turns).toBeGreaterThan(100);
  });

  it('wrong secrets are answered 429 with Retry-After once a client has tried too often, right ones still work elsewhere', async () => {
    let last = await post('grant_type=client_credentials&client_id=demo-other&client_secret=wrong');
    for (let i = 0; i < 40 && last.statusCode !== 429; i++) last = await post('grant_type=client_credentials&client_id=demo-other&client_secret=wrong');
    expect(last.statusCode).toBe(429);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect(last.json()).toMatchObject({ error: 'invalid_request' });
    // Another client from another address is untouched.
    const other = await app.inject({
      method: 'POST',
      url: '/oauth2/token',
      headers: form,
      payload: 'grant_type=client_credentials&client_id=demo-reseller&client_secret=demo-reseller-secret',
      remoteAddress: '10.0.0.9',
    });
    expect(other.statusCode).toBe(200);
  });
});

describe('ids from outside are never looked up on a plain object', () => {
  it('a path starting with // is a Problem on this server: 404, instance on this host, never another one', async () => {
    for (const path of ['//[', '//evil.example/x']) {
      const res = await raw(`GET ${path} HTTP/1.1\r\nHost: signalbox.test\r\n\r\n`);
      expect(res.status, path).toBe(404);
      const problem = JSON.parse(res.body);
      expect(problem.code).toBe('RESOURCE_NOT_FOUND');
      expect(new URL(problem.instance).host).toBe('signalbox.test');
      expect(problem.instance).toBe(`http://signalbox.test${path}`);
    }
  });

  it('GET /v3/coach-layouts/constructor → 404', async () => {
    for (const id of ['constructor', '__proto__', 'toString']) {
      const res = await app.inject({ method: 'GET', url: `/v3/coach-layouts/${id}`, headers: asReseller });
      expect(res.statusCode, id).toBe(404);
    }
  });

  it('a token whose sub is __proto__ or constructor reads nothing → 401', async () => {
    for (const sub of ['__proto__', 'constructor']) {
      const forged = await new SignJWT({ scope: 'reseller customer' })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer('signalbox')
        .setSubject(sub)
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(JWT_SECRET));
      const res = await app.inject({
        method: 'POST',
        url: '/customer/contacts/email',
        headers: { authorization: `Bearer ${forged}`, 'ocp-apim-subscription-key': 'demo-subscription-key', 'content-type': 'application/json' },
        payload: { email: 'anna.svensson@example.se' },
      });
      expect(res.statusCode, sub).toBe(401);
    }
  });

  it('a token without exp → 401', async () => {
    const forever = await new SignJWT({ scope: 'reseller' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('signalbox')
      .setSubject('demo-reseller')
      .sign(new TextEncoder().encode(JWT_SECRET));
    const res = await app.inject({ method: 'POST', url: '/v3/offers', headers: { ...asReseller, authorization: `Bearer ${forever}` }, payload: offerBody });
    expect(res.statusCode).toBe(401);
  });
});

describe('bodies of the wrong shape on routes that take a body', () => {
  it('booked-offers with "offers": "AAAA" → the 501 every booked-offers call gets, not a 500', async () => {
    const res = await app.inject({
      method: 'POST',
      url: `/v3/bookings/${await confirmedBooking()}/booked-offers`,
      headers: asReseller,
      payload: { offers: 'AAAA' },
    });
    expect(res.json()).toMatchObject({ status: 501, code: 'X_NOT_SUPPORTED' });
  });

  it('PATCH on-hold-offer with the body true → 400', async () => {
    const res = await app.inject({ method: 'PATCH', url: `/v3/bookings/${await confirmedBooking()}/on-hold-offer/x`, headers: asReseller, payload: 'true' });
    expect(res.json()).toMatchObject({ status: 400, code: '86001' });
  });
});

describe('the sandbox clock refuses instants and durations it cannot hold, and keeps its time', () => {
  it.each([{ now: '2026-12-01T08:00:00+25:00' }, { now: '2026-02-30T25:61:00+01:00' }, { advance: 'PT999999999999999999S' }, { advance: 'P99999999Y' }])(
    '%j → 400, the clock unchanged, offers still answer',
    async (change) => {
      const asClient = { authorization: asReseller.authorization };
      const before = (await app.inject({ method: 'GET', url: '/sandbox/clock', headers: asClient })).json().now;
      const res = await app.inject({ method: 'POST', url: '/sandbox/clock', headers: { ...asClient, 'content-type': 'application/json' }, payload: change });
      expect(res.json()).toMatchObject({ status: 400, code: '86001' });
      expect((await app.inject({ method: 'GET', url: '/sandbox/clock', headers: asClient })).json().now).toBe(before);
      expect((await app.inject({ method: 'POST', url: '/v3/offers', headers: asReseller, payload: offerBody })).statusCode).toBe(200);
    },
  );
});

describe('a trickling body', () => {
  it('is ended with 408 once the request timeout (rules/limits.yaml) has passed; other clients are served meanwhile', async () => {
    const base = createEngine();
    const quick = createEngine({ rules: { ...base.rules, limits: { ...base.rules.limits, requestTimeout: 'PT1S' } } });
    const server = await buildServer({ engine: quick, store: memoryStore(), jwtSecret: JWT_SECRET });
    await server.listen({ host: '127.0.0.1', port: 0 });
    try {
      const trickle = new Promise<string>((resolve) => {
        const socket = connect((server.server.address() as AddressInfo).port, '127.0.0.1', () => {
          socket.write('POST /oauth2/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ng');
        });
        let out = '';
        socket.on('data', (d: Buffer) => {
          out += d.toString();
        });
        socket.on('error', () => undefined);
        socket.on('close', () => resolve(out));
      });
      expect((await server.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
      const out = await trickle;
      expect(out).toMatch(/^HTTP\/1\.1 408/);
      expect(out).toContain('application/problem+json');
    } finally {
      await server.close();
    }
  });
});

describe('the sandbox clock frozen and resumed where it is', () => {
  it('{"freeze": true} stops it, {"freeze": false} lets it run again from there', async () => {
    const live = await buildServer({ engine: createEngine(), store: memoryStore(), clock: sandboxClock(), sandbox: true, jwtSecret: JWT_SECRET });
    const asClient = { authorization: asReseller.authorization };
    const read = async () => (await live.inject({ method: 'GET', url: '/sandbox/clock', headers: asClient })).json().now as string;
    const change = (payload: unknown) =>
      live.inject({ method: 'POST', url: '/sandbox/clock', headers: { ...asClient, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
    await change({ now: '2026-11-20T10:00:00+01:00', freeze: true });
    const frozen = await change({ freeze: true });
    expect(frozen.statusCode).toBe(200);
    expect(frozen.json()).toEqual({ now: '2026-11-20T09:00:00.000Z', frozen: true });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await read()).toBe('2026-11-20T09:00:00.000Z');
    const resumed = await change({ freeze: false });
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json()).toMatchObject({ frozen: false });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(Date.parse(await read())).toBeGreaterThan(Date.parse('2026-11-20T09:00:00.000Z'));
    await live.close();
  });
});
