import type { AddressInfo } from 'node:net';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openApiDocument } from '../adapters/http/openapi/document.ts';
import { keyOf, operationOfRoute, operations } from '../adapters/http/operations/index.ts';
import { buildServer } from '../adapters/http/server.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { studioExtension } from '../adapters/studio/routes.ts';
import { OfferCollectionRequest } from '../engine/model/osdm/offer-request.ts';
import { engine, requestorHeader } from './helpers/server.ts';
import { loadRules } from '../engine/index.ts';

/** GET /openapi.json and GET /docs (CONTRACT §2). */

const sandboxApp = await buildServer({ engine: engine(), store: memoryStore(), sandbox: true, jwtSecret: 'o' });
const plainApp = await buildServer({ engine: engine(), store: memoryStore(), jwtSecret: 'o' });
await sandboxApp.ready();
afterAll(async () => {
  await sandboxApp.close();
  await plainApp.close();
});

const documentOf = async (app = sandboxApp) => (await app.inject({ method: 'GET', url: '/openapi.json' })).json<Record<string, any>>();
const doc = await documentOf();
const operationsOf = (d: Record<string, any>) =>
  Object.entries(d['paths'] as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
  );

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc['openapi']).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('covers the Reseller API paths of CONTRACT §6, built or planned', () => {
    const contract = [
      'POST /v3/offers',
      'POST /v3/booking',
      'POST /v3/bookings',
      'GET /v3/bookings/{}',
      'PATCH /v3/bookings/{}',
      'GET /v3/bookings/{}/passengers/{}',
      'PATCH /v3/bookings/{}/passengers/{}',
      'GET /v3/bookings/{}/purchaser',
      'PATCH /v3/bookings/{}/purchaser',
      'POST /v3/bookings/{}/fulfillment',
      'POST /v3/bookings/{}/fulfillments',
      'GET /v3/fulfillments/{}',
      'POST /v3/bookings/{}/refund-offers',
      'GET /v3/bookings/{}/refund-offers/{}',
      'PATCH /v3/bookings/{}/refund-offers/{}',
      'DELETE /v3/bookings/{}/refund-offers/{}',
      'POST /v3/bookings/{}/release-offers',
      'GET /v3/bookings/{}/release-offers/{}',
      'PATCH /v3/bookings/{}/release-offers/{}',
      'DELETE /v3/bookings/{}/release-offers/{}',
      'POST /v3/bookings/{}/on-hold-offer',
      'PATCH /v3/bookings/{}/on-hold-offer/{}',
      'DELETE /v3/bookings/{}/on-hold-offer/{}',
      'POST /v3/bookings/{}/exchange-offers',
      'POST /v3/bookings/{}/exchange-operations',
      'GET /v3/bookings/{}/exchange-operations/{}',
      'PATCH /v3/bookings/{}/exchange-operations/{}',
      'DELETE /v3/bookings/{}/exchange-operations/{}',
      'POST /v3/bookings/{}/cleanup',
      'GET /v3/availabilities',
      'GET /v3/availabilities/preferences',
      'GET /v3/availabilities/place-map',
      'GET /v3/coach-layouts/{}',
      'GET /v3/availabilities/nearby',
      'POST /customer/contacts/email',
      'POST /customer/contacts/prio-number',
      'POST /customer/contacts/ssn',
      'POST /customer/contracts/contract-number',
      'POST /oauth2/token',
      'GET /openapi.json',
      'GET /docs',
      'GET /health',
    ];
    const documented = new Set(operationsOf(doc).map(({ key }) => key.replace(/\{\w+\}/g, '{}')));
    expect(contract.filter((k) => !documented.has(k))).toEqual([]);
  });

  it('marks what CONTRACT §6 names but no route answers yet as planned; leaves the sandbox out without --sandbox', async () => {
    const nothingBuilt = openApiDocument({ routes: [{ method: 'GET', url: '/health' }], version: 'test', limits: loadRules().limits });
    const all = operationsOf(nothingBuilt);
    expect(all.find((o) => o.key === 'GET /health')!.op['x-signalbox-status']).toBeUndefined();
    expect(all.find((o) => o.key === 'POST /v3/offers')!.op['x-signalbox-status']).toBe('planned');
    expect(all.filter((o) => o.key.includes('/sandbox/'))).toEqual([]);
    for (const { key, op } of operationsOf(doc)) {
      const registered = sandboxApp.registeredRoutes.some((r) => {
        const served = operationOfRoute(r.method, r.url);
        return served && `${r.method} ${served.path.replace(/\*$/, '{path}')}` === key;
      });
      if (!registered) expect(op['x-signalbox-status'], key).toBe('planned');
    }
    expect(operationsOf(doc).some((o) => o.key === 'POST /sandbox/clock')).toBe(true);
    expect(operationsOf(await documentOf(plainApp)).filter((o) => o.key.includes('/sandbox/'))).toEqual([]);
  });

  it('takes request bodies from the zod schemas', () => {
    const schemas = doc['components']['schemas'];
    const fromZod = z.toJSONSchema(OfferCollectionRequest, { io: 'input', unrepresentable: 'any' }) as Record<string, any>;
    expect(Object.keys(schemas.OfferCollectionRequest.properties)).toEqual(Object.keys(fromZod['properties']));
    expect(schemas.OfferCollectionRequest.required).toEqual(fromZod['required']);
    expect(schemas.OfferCollectionRequest.additionalProperties).toBe(false);
    expect(schemas.BookingRequest.properties.passengerSpecifications.items).toEqual({ $ref: '#/components/schemas/PassengerSpecification' });
    expect(schemas.PassengerSpecification.properties.detail).toEqual({ $ref: '#/components/schemas/PassengerDetail' });
    const body = (key: string) => {
      const [m, p] = key.split(' ') as [string, string];
      return doc['paths'][p][m.toLowerCase()].requestBody;
    };
    expect(body('POST /v3/offers').content['application/json'].schema).toEqual({ $ref: '#/components/schemas/OfferCollectionRequest' });
    expect(body('POST /v3/booking').content['application/vnd.uic.osdm+json'].schema).toEqual({ $ref: '#/components/schemas/BookingRequest' });
    expect(body('POST /customer/contacts/email').content['application/json'].schema).toEqual({ $ref: '#/components/schemas/EmailLookupRequest' });
    expect(body('POST /oauth2/token').content['application/x-www-form-urlencoded'].schema).toEqual({ $ref: '#/components/schemas/TokenForm' });
    expect(body('POST /sandbox/clock').content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ClockChange' });
  });

  it('answers every error as a Problem', () => {
    expect(doc['components']['schemas']['Problem'].required).toEqual(['code', 'type', 'title', 'status', 'detail']);
    for (const { key, op } of operationsOf(doc)) {
      for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
        if (Number(status) < 400 || key === 'POST /oauth2/token') continue;
        const resolved = response.$ref ? doc['components']['responses'][response.$ref.split('/').pop()] : response;
        expect(resolved.content['application/problem+json'].schema, `${key} ${status}`).toEqual({ $ref: '#/components/schemas/Problem' });
      }
    }
  });

  it('describes every success body in full, from the engine response schemas', () => {
    const schemas = doc['components']['schemas'];
    const resolve = (s: any) => (s.$ref ? schemas[s.$ref.split('/').pop()] : s);
    for (const { key, op } of operationsOf(doc)) {
      for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
        if (Number(status) >= 400 || !response.content) continue;
        for (const [type, media] of Object.entries(response.content as Record<string, any>)) {
          if (!type.includes('json')) continue;
          const body = resolve(media.schema);
          expect(body.type, `${key} ${status}`).toBe('object');
          expect(Object.keys(body.properties ?? {}).length, `${key} ${status} names its fields`).toBeGreaterThan(0);
          expect(body.additionalProperties, `${key} ${status} says no other field comes`).toBe(false);
        }
      }
    }
    expect(schemas.BookingResponse.properties.booking).toEqual({ $ref: '#/components/schemas/Booking' });
    expect(schemas.Booking.required).toEqual(expect.arrayContaining(['id', 'bookingCode', 'passengers', 'bookedOffers', 'provisionalPrice', 'fulfillments']));
    expect(schemas.Price.required).toEqual(['currency', 'amount', 'scale']);
    expect(schemas.Offer.properties.admissionOfferParts.items).toEqual({ $ref: '#/components/schemas/AdmissionOfferPart' });
    expect(doc['info']['description']).not.toMatch(/loosely|top level only/i);
  });

  it('declares the security schemes: OAuth 2.0 client credentials, the subscription key; the Requestor is a header parameter', () => {
    const schemes = doc['components']['securitySchemes'];
    expect(schemes.oauth2.flows.clientCredentials).toMatchObject({
      tokenUrl: '/oauth2/token',
      scopes: { reseller: expect.any(String), customer: expect.any(String) },
    });
    expect(schemes.SubscriptionKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'Ocp-Apim-Subscription-Key' });
    expect(doc['paths']['/v3/offers'].post.security).toEqual([{ oauth2: ['reseller'] }]);
    expect(doc['paths']['/customer/contacts/ssn'].post.security).toEqual([{ oauth2: ['customer'], SubscriptionKey: [] }]);
  });

  it('documents the 429 of too many wrong subscription keys on every Customer API operation, with its Retry-After', () => {
    const customerPaths = Object.keys(doc['paths']).filter((p) => p.startsWith('/customer/'));
    expect(customerPaths).toHaveLength(4);
    for (const path of customerPaths) expect(doc['paths'][path].post.responses['429'], path).toEqual({ $ref: '#/components/responses/Problem429' });
    expect(doc['components']['responses']['Problem429'].description).toContain('X_TOO_MANY_ATTEMPTS');
    expect(doc['components']['responses']['Problem429'].headers['Retry-After']).toBeDefined();
  });

  it('has operations a route could match (no stray paths)', () => {
    for (const op of operations) expect(keyOf(op)).toMatch(/^(GET|POST|PATCH|PUT|DELETE|ANY) \/[\w/{}.*-]*$/);
  });
});

describe('GET /docs', () => {
  it('loads Swagger UI from this server only: every script and style it names is served here', async () => {
    await plainApp.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(plainApp.server.address() as AddressInfo).port}`;
    const page = await fetch(`${base}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toMatch(/https?:|\*/);
    const html = await page.text();
    const refs = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThanOrEqual(3);
    expect(html).not.toMatch(/https?:\/\//);
    for (const ref of refs) {
      expect(ref, ref).toMatch(/^\/[^/]/); // same origin
      const res = await fetch(`${base}${ref}`);
      expect(res.status, ref).toBe(200);
      expect(res.headers.get('content-type'), ref).toMatch(/^(text\/javascript|text\/css|image\/png)/);
      expect((await res.arrayBuffer()).byteLength, ref).toBeGreaterThan(100);
    }
    // The page's script asks for the document by a relative URL, served here too.
    const init = await (await fetch(`${base}/docs/signalbox-docs.js`)).text();
    expect(init).toContain("url: '/openapi.json'");
    expect(init).toContain('validatorUrl: null');
    expect((await fetch(`${base}/openapi.json`)).status).toBe(200);
    expect((await fetch(`${base}/docs/package.json`)).status).toBe(404);
    expect((await fetch(`${base}/docs/..%2Fpackage.json`)).status).toBe(404);
  });

  it('sends the bundle gzip-compressed', async () => {
    const res = await plainApp.inject({ method: 'GET', url: '/docs/swagger-ui-bundle.js', headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.rawPayload.length).toBeLessThan(1_000_000);
  });
});

/**
 * What a tester that reads the document (a property-based OpenAPI tester) expects of each answer: a status the
 * operation lists, and a body its schema describes.
 */
describe('GET /openapi.json says what each route answers', async () => {
  const app = await buildServer({
    engine: engine(),
    store: memoryStore(),
    sandbox: true,
    jwtSecret: 'o',
    extensions: [studioExtension({ sandbox: true, scenarios: ['scenarios/offers/passenger-types.yaml'] })],
  });
  afterAll(() => app.close());
  const studioDoc = await documentOf(app);
  const token = (
    await app.inject({
      method: 'POST',
      url: '/oauth2/token',
      headers: {
        authorization: `Basic ${Buffer.from('demo-reseller:demo-reseller-secret').toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'grant_type=client_credentials',
    })
  ).json().access_token as string;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const bodyFits = (schema: object, body: unknown) => {
    const validate = ajv.compile({ ...schema, components: studioDoc['components'] });
    return validate(body) ? [] : validate.errors;
  };

  it('lists every operation under an id of its own', () => {
    const ids = operationsOf(studioDoc).map(({ op }) => op.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it.each([
    '/studio/api/decisions',
    '/studio/api/decisions/passengerType',
    '/studio/api/errors',
    '/studio/api/mode',
    '/studio/api/scenarios',
    '/studio/api/trips',
  ])('GET %s: the answer fits its documented schema', async (url) => {
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    const path = url.replace('/passengerType', '/{decision}');
    const schema = studioDoc['paths'][path].get.responses['200'].content['application/json'].schema;
    expect(bodyFits(schema, res.json())).toEqual([]);
  });

  it.each([
    ['GET', '/errors/NO_SUCH_CODE', 404, undefined, undefined],
    ['GET', '/errors/%zz', 400, undefined, undefined],
    ['GET', '/docs/no-such-file.js', 404, undefined, undefined],
    ['GET', '/sandbox/traces/no-such-request', 404, undefined, undefined],
    ['GET', '/studio/api/decisions/noSuchDecision', 404, undefined, undefined],
    ['POST', '/studio/api/decisions/noSuchDecision/explain', 404, 'application/json', '{"facts":{}}'],
    ['POST', '/studio/api/offers', 415, 'text/plain', 'x'],
    ['POST', '/sandbox/reset', 400, 'application/json', '{'],
    ['PUT', '/sandbox/bookings/SBNOSUCH/after-sales-override', 404, 'application/json', '{"afterSalesOverride":true}'],
    ['GET', '/studio/api/seats?contextType=BOOKING&contextId=NOPE', 404, undefined, undefined],
    ['DELETE', '/v3/bookings/SB1/refund-offers/R1', 415, 'text/plain', 'x'],
    // A Content-Type Fastify cannot parse: on the token endpoint, 400 invalid_request like any other one (RFC 6749).
    ['POST', '/oauth2/token', 400, '\u00ff/\u00ff', 'grant_type=client_credentials'],
    ['GET', '/v3/availabilities?contextType=BOOKING&contextId=NOPE&resourceType=RESERVATION&resourceId=R', 404, undefined, undefined],
  ] as const)('%s %s → %s, a status the document lists for it', async (method, url, status, type, payload) => {
    const headers = {
      ...(url.startsWith('/v3/') ? { authorization: `Bearer ${token}`, requestor: requestorHeader() } : {}),
      // The sandbox's reset acts for the caller's client.
      ...(url.startsWith('/sandbox/reset') ? { authorization: `Bearer ${token}` } : {}),
      ...(type ? { 'content-type': type } : {}),
    };
    const res = await app.inject({ method, url, headers, ...(payload !== undefined ? { payload } : {}) });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(status);
    const path = app.routeTable.operationOf(method, url)!.path.replace(/\*$/, '{path}');
    expect(Object.keys(studioDoc['paths'][path][method.toLowerCase()].responses), `${method} ${path}`).toContain(String(status));
  });

  it('keeps the minLength of query parameters: an empty id is refused, as documented', async () => {
    const parameters = studioDoc['paths']['/v3/availabilities'].get.parameters as Array<{ name: string; schema: { minLength?: number } }>;
    for (const name of ['contextId', 'resourceType', 'resourceId']) expect(parameters.find((p) => p.name === name)!.schema.minLength, name).toBe(1);
    const res = await app.inject({
      method: 'GET',
      url: '/v3/availabilities?contextType=BOOKING&contextId=&resourceType=RESERVATION&resourceId=R',
      headers: { authorization: `Bearer ${token}`, requestor: requestorHeader() },
    });
    expect(res.statusCode).toBe(400);
  });

  it('documents the Requestor as a required header, its absence as 400 86002 and not as a missing credential (spec §2.1, §7)', async () => {
    const offers = studioDoc['paths']['/v3/offers'].post;
    expect(offers.parameters).toContainEqual({ $ref: '#/components/parameters/Requestor' });
    expect(studioDoc['components']['parameters']['Requestor']).toMatchObject({ name: 'Requestor', in: 'header', required: true });
    expect(studioDoc['components']['securitySchemes']['Requestor']).toBeUndefined();
    expect(JSON.stringify(offers.security)).not.toContain('Requestor');
    expect(offers.responses['400'].description).toContain('86002');
    const res = await app.inject({
      method: 'POST',
      url: '/v3/offers',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: '86002' });
  });

  it('documents traceparent without a pattern: a malformed one is ignored (W3C Trace Context), never a 400', async () => {
    expect(studioDoc['components']['parameters']['Traceparent'].schema).toEqual({ type: 'string' });
    const res = await app.inject({ method: 'GET', url: '/health', headers: { traceparent: 'not-a-traceparent' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['traceparent']).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
  });
});
