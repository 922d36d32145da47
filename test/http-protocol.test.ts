import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { virtualClock } from '../adapters/service/clock.ts';
import { sequentialIds } from '../adapters/service/ids.ts';
import { buildServer, osdmVersionNumber } from '../adapters/http/server.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { createEngine, defaultRulesDir } from '../engine/index.ts';
import { studioExtension } from '../adapters/studio/routes.ts';
import { engine, passengers, requestorHeader, testServer, trip, resellerTokenOf } from './helpers/server.ts';

/** The HTTP protocol around the API (CONTRACT §4, §5): OSDM versions, compression, languages, Problems for everything. */

const offerBody = () => ({ tripSpecifications: [trip()], anonymousPassengerSpecifications: passengers(35) });

/** A test-only probe on /v3: what the request carries once the Requestor is read. */
function addVersionProbe(app: FastifyInstance) {
  app.get('/v3/test-only/version', { config: { notInRouteTable: true } }, async (request) => {
    await app.requestorOf(request);
    return { version: request.osdmVersion, number: osdmVersionNumber(request.osdmVersion) };
  });
}

describe('OSDM version negotiation (CONTRACT §4)', async () => {
  const server = await testServer();
  addVersionProbe(server.app);

  it('turns a version into the number the rules compare', () => {
    expect(osdmVersionNumber('3.4')).toBe(304);
    expect(osdmVersionNumber('3.0.4')).toBe(300);
    expect(osdmVersionNumber('3.10')).toBe(310);
  });

  it('without a version: the default of rules/limits.yaml, echoed in the Content-Type', async () => {
    const res = await server.reseller('POST', '/v3/offers', offerBody());
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; version=3.0.4');
    expect((await server.reseller('GET', '/v3/test-only/version')).body).toEqual({ version: '3.0.4', number: 300 });
  });

  it('reads version= from Accept', async () => {
    const res = await server.reseller('POST', '/v3/offers', offerBody(), { accept: 'application/json; version=3.4' });
    expect(res.headers['content-type']).toBe('application/json; version=3.4');
    expect((await server.reseller('GET', '/v3/test-only/version', undefined, { accept: 'application/json;version="3.4"' })).body).toEqual({
      version: '3.4',
      number: 304,
    });
  });

  it('reads version= from the Content-Type of the body, and answers in the OSDM media type when Accept asks for it', async () => {
    const fromBody = await server.reseller('POST', '/v3/offers', offerBody(), { 'content-type': 'application/vnd.uic.osdm+json; version=3.4' });
    expect(fromBody.status).toBe(200);
    expect(fromBody.headers['content-type']).toBe('application/json; version=3.4');
    const osdm = await server.reseller('POST', '/v3/offers', offerBody(), { accept: 'application/vnd.uic.osdm+json; version=3.4' });
    expect(osdm.headers['content-type']).toBe('application/vnd.uic.osdm+json; version=3.4');
  });

  it('Accept wins over Content-Type', async () => {
    const res = await server.reseller('POST', '/v3/offers', offerBody(), {
      accept: 'application/json; version=3.4',
      'content-type': 'application/json; version=3.0.4',
    });
    expect(res.headers['content-type']).toBe('application/json; version=3.4');
  });

  it('a malformed version → 400 86001 at the header', async () => {
    for (const [header, value] of [
      ['accept', 'application/json; version=latest'],
      ['accept', 'application/json; version=3'],
      ['content-type', 'application/json; version=3.4.x'],
    ] as const) {
      const res = await server.reseller('POST', '/v3/offers', offerBody(), { [header]: value });
      expect(res.status, value).toBe(400);
      expect(res.body).toMatchObject({ code: '86001', pointers: [{ requestPointer: header === 'accept' ? 'header:Accept' : 'header:Content-Type' }] });
    }
  });

  it('cleanup below 3.4 → 406 Problem saying how to ask for 3.4', async () => {
    const offers = await server.reseller('POST', '/v3/offers', offerBody());
    const booking = await server.reseller('POST', '/v3/booking', {
      externalRef: 'cleanup-406',
      offers: [{ offerId: offers.body.offers[0].offerId, passengerRefs: ['p1'] }],
      passengerSpecifications: [{ externalRef: 'p1', type: 'PERSON', age: 35, detail: { firstName: 'Anna', lastName: 'Svensson' } }],
      purchaser: { detail: { firstName: 'Anna', lastName: 'Svensson', email: 'anna.svensson@example.se', phoneNumber: '+46701234567' } },
    });
    const id = booking.body.booking.id as string;
    expect((await server.reseller('POST', `/v3/bookings/${id}/fulfillment`)).status).toBe(202);
    const refused = await server.reseller('POST', `/v3/bookings/${id}/cleanup`, undefined, { 'accept-language': 'sv-SE' });
    expect(refused.status).toBe(406);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.headers['content-language']).toBe('sv-SE');
    expect(refused.body).toMatchObject({ code: 'X_VERSION_NOT_ACCEPTABLE', status: 406 });
    expect(refused.body.detail).toContain('version=3.4');
    expect((await server.reseller('POST', `/v3/bookings/${id}/cleanup`, undefined, { accept: 'application/json; version=3.4' })).status).not.toBe(406);
  });
});

describe('a sales application with its own OSDM version (rules/sales-applications.yaml osdmVersion)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'signalbox-rules-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('applies when the request names none; a version in the request still wins', async () => {
    cpSync(defaultRulesDir(), dir, { recursive: true });
    const file = join(dir, 'sales-applications.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/(\n {2}AGENT_SE:\n)/, '$1    osdmVersion: "3.4"\n'));
    const app = await buildServer({
      engine: createEngine({ rulesDir: dir }),
      store: memoryStore(),
      clock: virtualClock(new Date('2026-11-20T10:00:00+01:00')),
      ids: sequentialIds(),
      jwtSecret: 'v',
    });
    addVersionProbe(app);
    const token = await resellerTokenOf(app);
    const probe = async (salesApplication: string, headers: Record<string, string> = {}) =>
      (
        await app.inject({
          method: 'GET',
          url: '/v3/test-only/version',
          headers: { authorization: `Bearer ${token}`, requestor: requestorHeader(salesApplication), ...headers },
        })
      ).json();
    expect(await probe('AGENT_SE')).toEqual({ version: '3.4', number: 304 });
    expect(await probe('WEB_SE')).toEqual({ version: '3.0.4', number: 300 });
    expect(await probe('AGENT_SE', { accept: 'application/json; version=3.2' })).toEqual({ version: '3.2', number: 302 });
    await app.close();
  });
});

describe('compression (CONTRACT §4)', async () => {
  const server = await testServer();

  it('gzip-compresses an answer when Accept-Encoding allows it', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/v3/offers',
      payload: offerBody(),
      headers: { authorization: `Bearer ${await server.token()}`, requestor: requestorHeader(), 'accept-encoding': 'br;q=1, gzip;q=0.8' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['vary']).toMatch(/accept-encoding/i);
    expect(res.headers['content-type']).toBe('application/json; version=3.0.4');
    expect(JSON.parse(gunzipSync(res.rawPayload).toString()).offers.length).toBeGreaterThan(0);
  });

  it('sends plain JSON without Accept-Encoding, or when gzip is refused', async () => {
    for (const encoding of [undefined, 'identity', 'gzip;q=0']) {
      const res = await server.app.inject({
        method: 'POST',
        url: '/v3/offers',
        payload: offerBody(),
        headers: { authorization: `Bearer ${await server.token()}`, requestor: requestorHeader(), ...(encoding ? { 'accept-encoding': encoding } : {}) },
      });
      expect(res.headers['content-encoding'], encoding).toBeUndefined();
      expect(res.json().offers.length).toBeGreaterThan(0);
    }
  });
});

describe('every answer names its language; every error is a Problem', async () => {
  const app = await buildServer({ engine: engine(), store: memoryStore(), jwtSecret: 'p', sandbox: true, logger: false });
  // A route that fails the way a bug would, with a message and a stack that must not leave the server.
  app.get('/test-only/boom', { config: { notInRouteTable: true } }, async () => {
    throw new Error('kaboom: secret internals at /srv/signalbox');
  });
  const token = await resellerTokenOf(app);
  const auth = { authorization: `Bearer ${token}`, requestor: requestorHeader() };
  afterAll(() => app.close());

  it.each([
    ['GET', '/health', {}, undefined, 200],
    ['GET', '/openapi.json', {}, undefined, 200],
    ['GET', '/docs', {}, undefined, 200],
    ['POST', '/oauth2/token', { 'content-type': 'application/x-www-form-urlencoded' }, 'grant_type=client_credentials', 401],
    ['GET', '/v3/nowhere', auth, undefined, 404],
    ['GET', '/v3/offers', auth, undefined, 405],
    ['DELETE', '/health', {}, undefined, 405],
    ['POST', '/v3/offers', { ...auth, 'content-type': 'text/plain' }, 'hello', 415],
    ['POST', '/v3/offers', { ...auth, 'content-type': 'application/xml' }, '<offers/>', 415],
    ['POST', '/v3/offers', { ...auth, 'content-type': 'application/json' }, JSON.stringify({ pad: 'x'.repeat(1_100_000) }), 413],
    ['GET', '/v3/bookings/%zz', auth, undefined, 400],
    ['GET', `/v3/bookings/${'X'.repeat(150)}`, auth, undefined, 404],
    ['GET', '/test-only/boom', {}, undefined, 500],
  ] as const)('%s %s → %s', async (method, url, headers, payload, status) => {
    for (const language of ['sv-SE', 'en-GB']) {
      const res = await app.inject({ method, url, headers: { ...headers, 'accept-language': language }, ...(payload !== undefined ? { payload } : {}) });
      expect(res.statusCode).toBe(status);
      expect(res.headers['content-language']).toBe(language);
      expect(res.headers['x-request-id']).toBeTruthy();
      if (status < 400 || url === '/oauth2/token') continue; // the token endpoint answers RFC 6749 bodies
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      const problem = res.json();
      expect(problem).toMatchObject({ status, type: `http://localhost/errors/${problem.code}` });
      expect(typeof problem.title).toBe('string');
      if (status === 405) expect(res.headers['allow']).toBeTruthy();
    }
  });

  it('a 405 lists the methods the path takes', async () => {
    const res = await app.inject({ method: 'PUT', url: '/v3/bookings/SB123', headers: auth });
    expect(res.statusCode).toBe(405);
    expect(res.headers['allow']).toBe('GET, HEAD, PATCH');
    expect(res.json()).toMatchObject({ code: 'X_METHOD_NOT_ALLOWED', detail: 'PUT is not allowed on /v3/bookings/SB123.' });
  });

  it('a 500 carries a reference and neither the message nor a stack', async () => {
    const res = await app.inject({ method: 'GET', url: '/test-only/boom', headers: { 'x-request-id': 'ref-4711' } });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      code: 'INTERNAL_ERROR',
      type: 'http://localhost/errors/INTERNAL_ERROR',
      title: 'Internal error',
      status: 500,
      detail: 'Something went wrong on our side; the reference is ref-4711.',
      instance: 'http://localhost/test-only/boom',
    });
    expect(res.body).not.toMatch(/kaboom|\/srv\/|stack|\bat\s+\S+\s+\(/);
  });
});

describe('Allow names exactly the methods a path answers (RFC 9110 §15.5.6)', async () => {
  const app = await buildServer({
    engine: engine(),
    store: memoryStore(),
    jwtSecret: 'p',
    sandbox: true,
    logger: false,
    extensions: [studioExtension({ sandbox: true })],
  });
  const token = await resellerTokenOf(app);
  const auth = { authorization: `Bearer ${token}`, requestor: requestorHeader() };
  afterAll(() => app.close());
  // QUERY (RFC 10008) is a method Fastify serves but light-my-request's types do not name yet.
  const every = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'QUERY', 'TRACE'] as unknown as Array<NonNullable<InjectOptions['method']>>;
  const QUERY = 'QUERY' as NonNullable<InjectOptions['method']>;

  it.each([
    ['/health', 'GET, HEAD'],
    ['/v3/offers', 'POST'],
    ['/v3/bookings/SB123', 'GET, HEAD, PATCH'],
    // Spec §4.1: nearby is "not supported": GET answers 501, no other method is taken.
    ['/v3/availabilities/nearby', 'GET, HEAD'],
    ['/v3/bookings/SB123/booked-offers/x', 'DELETE, GET, HEAD, PATCH, POST, PUT'],
    // The studio's page answers any deeper path, but not those under /studio/api/.
    ['/studio/api/scenarios/run', 'POST'],
    ['/studio/api/decisions/passengerType', 'GET, HEAD, PUT'],
  ])('%s: Allow: %s; every method it names is answered, every other one is 405 with the same Allow', async (url, allow) => {
    for (const method of every) {
      const res = await app.inject({ method, url, headers: auth });
      const where = `${method} ${url} → ${res.statusCode} ${res.body.slice(0, 200)}`;
      if (allow.split(', ').includes(method)) {
        // Answered by the route: anything but 405, and a 404 only for what the route looks up (the booking SB123).
        expect(res.statusCode, where).not.toBe(405);
        if (res.statusCode === 404 && method !== 'HEAD') expect(res.json().detail, where).not.toMatch(/route/);
      } else {
        expect(res.statusCode, where).toBe(405);
        expect(res.headers['allow'], where).toBe(allow);
        if (method !== 'HEAD') expect(res.json(), where).toMatchObject({ code: 'X_METHOD_NOT_ALLOWED' });
      }
    }
  });

  it('QUERY is refused like any method the path does not take, with or without a Content-Type', async () => {
    for (const headers of [{}, { 'content-type': 'application/json' }, { 'content-type': 'text/plain' }]) {
      const res = await app.inject({ method: QUERY, url: '/health', headers, payload: '{}' });
      expect(res.statusCode, JSON.stringify(headers)).toBe(405);
      expect(res.headers['allow']).toBe('GET, HEAD');
    }
    expect((await app.inject({ method: QUERY, url: '/nowhere' })).statusCode).toBe(404);
  });

  it('an unknown path is 404 before its body is read: a broken or oversized body changes nothing', async () => {
    for (const payload of ['{', 'x'.repeat(1_100_000)]) {
      const res = await app.inject({ method: 'POST', url: '/v3/nowhere', headers: { ...auth, 'content-type': 'application/json' }, payload });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    }
  });

  it('a GET under /studio/api/ that no endpoint takes is 404, not the page', async () => {
    const res = await app.inject({ method: 'GET', url: '/studio/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    expect((await app.inject({ method: 'GET', url: '/studio/tables/passengerType' })).headers['content-type']).toMatch(/^text\/html/);
  });
});
