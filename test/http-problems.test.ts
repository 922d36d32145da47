import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { passengers, requestorHeader, testServer, trip } from './helpers/server.ts';

/** What a reseller's broken request gets back: a Problem with a code and a pointer, never a 5xx. */
describe('Problems for bad requests', async () => {
  const server = await testServer();

  it('malformed JSON → 400 86001 as application/problem+json', async () => {
    const res = await server.reseller('POST', '/v3/offers', '{"tripSpecifications": [', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: '86001', status: 400, title: 'Validation error', pointers: [{ requestPointer: '#' }] });
  });

  it('an unknown field is named in the pointer (a typo must not pass silently)', async () => {
    const res = await server.reseller('POST', '/v3/offers', {
      tripSpecifications: [trip()],
      anonymousPassengerSpecifications: passengers(30),
      offerSearchCritera: {},
    });
    expect(res.status).toBe(400);
    expect(res.body.pointers).toContainEqual({ requestPointer: '#/offerSearchCritera', detail: 'unknown field "offerSearchCritera"' });
  });

  it('a field of the wrong type is pointed at', async () => {
    const res = await server.reseller('POST', '/v3/offers', {
      tripSpecifications: [trip()],
      anonymousPassengerSpecifications: [{ externalRef: 'p1', type: 'PERSON', age: 'forty' }],
    });
    expect(res.status).toBe(400);
    expect(res.body.pointers[0].requestPointer).toBe('#/anonymousPassengerSpecifications/0/age');
  });

  it('two vehicle numbers on a leg → 86008 at the field', async () => {
    const t = trip();
    t.legs[0]!.timedLeg.service.vehicleNumbers = ['421', '422'];
    const res = await server.reseller('POST', '/v3/offers', { tripSpecifications: [t], anonymousPassengerSpecifications: passengers(30) });
    expect(res.body).toMatchObject({ code: '86008', pointers: [{ requestPointer: '#/tripSpecifications/0/legs/0/timedLeg/service/vehicleNumbers' }] });
  });

  it('a gzip-compressed body is accepted', async () => {
    const body = gzipSync(JSON.stringify({ tripSpecifications: [trip()], anonymousPassengerSpecifications: passengers(30) }));
    const res = await server.app.inject({
      method: 'POST',
      url: '/v3/offers',
      payload: body,
      headers: {
        authorization: `Bearer ${await server.token()}`,
        requestor: requestorHeader(),
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
    });
    expect(res.statusCode).toBe(200);
  });

  it('a body beyond 1 MiB after decompression → 413', async () => {
    const bomb = gzipSync(Buffer.alloc(5 * 1024 * 1024, 32));
    const res = await server.app.inject({
      method: 'POST',
      url: '/v3/offers',
      payload: bomb,
      headers: {
        authorization: `Bearer ${await server.token()}`,
        requestor: requestorHeader(),
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('X_PAYLOAD_TOO_LARGE');
  });

  it('no Requestor header → 86002; a Requestor that is not Base64 JSON → 86001', async () => {
    expect((await server.reseller('POST', '/v3/offers', {}, { requestor: '' })).body.code).toBe('86002');
    expect((await server.reseller('POST', '/v3/offers', {}, { requestor: 'not base64 json!' })).body.code).toBe('86001');
    const noUnit = Buffer.from(JSON.stringify({ salesApplication: 'WEB_SE' })).toString('base64');
    expect((await server.reseller('POST', '/v3/offers', {}, { requestor: noUnit })).body.code).toBe('86001');
  });

  it('a sales application not registered for the client → 403', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/v3/offers',
      payload: {},
      headers: { authorization: `Bearer ${await server.token('demo-other')}`, requestor: requestorHeader('AGENT_SE') },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN');
  });

  it('a Requestor one client may send is still refused to another that sends the same header next', async () => {
    const header = requestorHeader('KIOSK_SE');
    const mine = await server.app.inject({
      method: 'POST',
      url: '/v3/offers',
      payload: {},
      headers: { authorization: `Bearer ${await server.token()}`, requestor: header },
    });
    expect(mine.json().code).not.toBe('FORBIDDEN');
    const theirs = await server.app.inject({
      method: 'POST',
      url: '/v3/offers',
      payload: {},
      headers: { authorization: `Bearer ${await server.token('demo-other')}`, requestor: header },
    });
    expect(theirs.statusCode).toBe(403);
    expect(theirs.json().code).toBe('FORBIDDEN');
  });

  it('no token → 401 with WWW-Authenticate; an unknown route → 404 Problem', async () => {
    const res = await server.app.inject({ method: 'POST', url: '/v3/offers', payload: {} });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    const missing = await server.reseller('GET', '/v3/nowhere');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('another client cannot see a booking (404, as if it did not exist)', async () => {
    const offers = await server.reseller('POST', '/v3/offers', { tripSpecifications: [trip()], anonymousPassengerSpecifications: passengers(30) });
    const booking = await server.reseller('POST', '/v3/booking', {
      externalRef: 'x',
      offers: [{ offerId: offers.body.offers[0].offerId, passengerRefs: ['p1'] }],
      passengerSpecifications: [{ externalRef: 'p1', type: 'PERSON' }],
    });
    expect(booking.status).toBe(200);
    const other = await server.app.inject({
      method: 'GET',
      url: `/v3/bookings/${booking.body.booking.id}`,
      headers: { authorization: `Bearer ${await server.token('demo-other')}`, requestor: requestorHeader() },
    });
    expect(other.statusCode).toBe(404);
  });
});

describe('OAuth token endpoint (spec §5, CONTRACT §3)', async () => {
  const server = await testServer();
  const form = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    server.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      payload: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });

  it('issues a bearer token with client_id and client_secret fields', async () => {
    const res = await form({ grant_type: 'client_credentials', client_id: 'demo-reseller', client_secret: 'demo-reseller-secret', scope: 'reseller' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toMatchObject({ token_type: 'Bearer', expires_in: 3600, ext_expires_in: 3600, access_token: expect.stringMatching(/^ey/) });
  });

  it('issues a token with HTTP Basic client authentication', async () => {
    const basic = Buffer.from('demo-reseller:demo-reseller-secret').toString('base64');
    const res = await form({ grant_type: 'client_credentials' }, { authorization: `Basic ${basic}` });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a wrong secret, another grant and a scope the client lacks, as RFC 6749 says', async () => {
    expect((await form({ grant_type: 'client_credentials', client_id: 'demo-reseller', client_secret: 'nope' })).json()).toMatchObject({
      error: 'invalid_client',
    });
    expect((await form({ grant_type: 'password', client_id: 'demo-reseller', client_secret: 'demo-reseller-secret' })).json()).toMatchObject({
      error: 'unsupported_grant_type',
    });
    const scope = await form({ grant_type: 'client_credentials', client_id: 'demo-other', client_secret: 'demo-other-secret', scope: 'customer' });
    expect(scope.statusCode).toBe(400);
    expect(scope.json().error).toBe('invalid_scope');
  });
});

/** OSDM's Problem.type is an absolute URI that, dereferenced, documents the error (CONTRACT §4c). */
describe("a Problem's type and instance", async () => {
  const server = await testServer();

  it('are absolute URIs on the server asked, and the type resolves to the error page', async () => {
    const res = await server.reseller('POST', '/v3/offers', '{"tripSpecifications": [', { 'content-type': 'application/json', host: 'sandbox.example:8443' });
    expect(res.body).toMatchObject({ type: 'http://sandbox.example:8443/errors/86001', instance: 'http://sandbox.example:8443/v3/offers' });
    const page = await server.app.inject({ method: 'GET', url: new URL(res.body.type).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('Error 86001');
    expect(page.body).toContain('HTTP status 400');
    expect(page.body).toContain('Validation error');
    expect(page.body).toContain('Valideringsfel');
  });

  it('the page names the rule rows that reject with the code; JSON on request; an unknown code is a 404 Problem', async () => {
    const page = await server.app.inject({ method: 'GET', url: '/errors/86005', headers: { accept: 'application/json' } });
    expect(page.json()).toMatchObject({
      code: '86005',
      status: 400,
      texts: { 'en-GB': { title: 'Gender place property required' }, 'sv-SE': { title: 'Könsplacering krävs' } },
      raisedBy: expect.arrayContaining([expect.objectContaining({ at: expect.stringMatching(/^rules\/night-gender\.yaml:\d+/) })]),
    });
    const unknown = await server.app.inject({ method: 'GET', url: '/errors/99999' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
  });
});
