import { describe, expect, it } from 'vitest';
import examples from '../adapters/http/openapi/examples.json' with { type: 'json' };
import type { Examples } from '../adapters/http/openapi/document.ts';
import { checkResponse } from '../adapters/harness/api-schema.ts';
import { defaultOsdmConformance } from '../adapters/harness/osdm-conformance.ts';
import { testServer } from './helpers/server.ts';
import { missingOracle } from './helpers/oracle.ts';

/**
 * The examples GET /openapi.json shows (and /docs prefills "Try it out" with) are real scenario traffic
 * (`signalbox examples`); each must still fit the schema it illustrates. A failure here after a change to an
 * answer's shape: run `npx signalbox examples` and commit adapters/http/openapi/examples.json.
 */
const all = Object.entries(examples as Examples);
const REFRESH = 'stale example: run `npx signalbox examples` and commit adapters/http/openapi/examples.json';

describe('the examples of GET /openapi.json', () => {
  it('cover the main Reseller API operations', () => {
    for (const key of [
      'POST /v3/offers',
      'POST /v3/bookings',
      'GET /v3/bookings/{bookingId}',
      'POST /v3/bookings/{bookingId}/fulfillments',
      'POST /v3/bookings/{bookingId}/refund-offers',
      'POST /v3/bookings/{bookingId}/exchange-operations',
      'GET /v3/fulfillments/{fulfillmentId}',
    ]) {
      expect(Object.keys(examples), key).toContain(key);
      expect((examples as Examples)[key]!.responses['200'], key).toBeDefined();
    }
  });

  it.each(all)('%s: every answer fits its schema', (key, { responses }) => {
    const [method, path] = key.split(' ') as [string, string];
    for (const [status, body] of Object.entries(responses)) {
      expect(
        checkResponse(method, path, Number(status), body).map((m) => m.message),
        `${REFRESH} (${status})`,
      ).toEqual([]);
    }
  });

  const osdm = defaultOsdmConformance();
  missingOracle('the OSDM check of the OpenAPI examples', 'missing' in osdm ? osdm.missing : undefined);
  it.skipIf('missing' in osdm)('the Reseller API answers fit OSDM 3.4 too, apart from the listed deviations', () => {
    const check = osdm as Exclude<typeof osdm, { missing: string }>;
    const broken = all.flatMap(([key, { responses }]) => {
      const [method, path] = key.split(' ') as [string, string];
      return Object.entries(responses).flatMap(([status, body]) =>
        check.check(method === 'ANY' ? 'GET' : method, path, Number(status), body).violations.map((v) => `${key} ${status} ${v.pointer}: ${v.message}`),
      );
    });
    expect(broken).toEqual([]);
  });

  it('are in the document: the request prefills "Try it out", the answers are shown', async () => {
    const server = await testServer();
    const doc = (await server.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const offers = doc.paths['/v3/offers'].post;
    expect(offers.requestBody.content['application/json'].example).toEqual((examples as Examples)['POST /v3/offers']!.request);
    expect(offers.responses['200'].content['application/json'].example.offers[0].offerId).toEqual(expect.any(String));
    expect(offers.responses['400'].content['application/problem+json'].example.code).toBe('86001');
  });
});
