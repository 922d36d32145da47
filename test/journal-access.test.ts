import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SECRETS } from '../adapters/harness/demo-secrets.ts';
import { studioExtension } from '../adapters/studio/routes.ts';
import { requestorHeader, testServer, trip } from './helpers/server.ts';

/**
 * Who reads the sandbox's request journal (GET /studio/api/journal, docs/studio.md). It holds every client's
 * requests and answers, personal data included: a client reads only the requests it authenticated; an analyst
 * reads them all with the personal data masked, unless the operator started the server with --journal-personal-data.
 */
const apps: FastifyInstance[] = [];

async function sandbox(options: { journalPersonalData?: boolean } = {}) {
  const { app } = await testServer({ ...options, extensions: [studioExtension({ sandbox: true, scenarios: [] })] });
  apps.push(app);
  return app;
}
afterAll(async () => {
  for (const app of apps) await app.close();
});

async function bearer(app: FastifyInstance, client: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/oauth2/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `grant_type=client_credentials&client_id=${client}&client_secret=${DEMO_SECRETS[client]!}`,
  });
  expect(res.statusCode, res.body).toBe(200);
  return `Bearer ${res.json().access_token as string}`;
}

/** Anna Svensson of rules/customers.yaml, as the Customer API answers her, and the identity number she is looked up by. */
const ANNA = ['Anna', 'Svensson', 'anna.svensson@example.se', '+46701234567', '1000000001', '198001011234'];
/** The passenger and purchaser demo-other books. */
const OLLE = ['Olle', 'Persson', 'olle.persson@example.se', '+46709876543', '1990-05-17'];

/** demo-reseller looks Anna up by her identity number; demo-other books a journey for Olle. */
async function traffic(app: FastifyInstance) {
  const reseller = await bearer(app, 'demo-reseller');
  const lookup = await app.inject({
    method: 'POST',
    url: '/customer/contacts/ssn',
    headers: { authorization: reseller, 'ocp-apim-subscription-key': 'demo-subscription-key', 'content-type': 'application/json' },
    payload: { ssn: '198001011234' },
  });
  expect(lookup.statusCode, lookup.body).toBe(200);
  const other = { authorization: await bearer(app, 'demo-other'), requestor: requestorHeader(), 'content-type': 'application/json' };
  const offers = await app.inject({
    method: 'POST',
    url: '/v3/offers',
    headers: other,
    payload: { tripSpecifications: [trip()], anonymousPassengerSpecifications: [{ externalRef: 'p1', type: 'PERSON', dateOfBirth: '1990-05-17' }] },
  });
  expect(offers.statusCode, offers.body).toBe(200);
  const booking = await app.inject({
    method: 'POST',
    url: '/v3/bookings',
    headers: other,
    payload: {
      externalRef: 'olle',
      offers: [{ offerId: offers.json().offers[0].offerId, passengerRefs: ['p1'] }],
      passengerSpecifications: [{ externalRef: 'p1', type: 'PERSON', detail: { firstName: 'Olle', lastName: 'Persson' } }],
      purchaser: { detail: { firstName: 'Olle', lastName: 'Persson', email: 'olle.persson@example.se', phoneNumber: '+46709876543' } },
    },
  });
  expect(booking.statusCode, booking.body).toBe(200);
}

type Entry = { method: string; url: string; client?: string };
const journalOf = (app: FastifyInstance, authorization?: string) =>
  app.inject({ method: 'GET', url: '/studio/api/journal', ...(authorization ? { headers: { authorization } } : {}) });
const urls = (entries: Entry[]) => entries.map((e) => `${e.method} ${e.url}`);

describe('the request journal', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await sandbox();
    await traffic(app);
  });

  it('answers 401 without a valid token, and says nothing of what it holds', async () => {
    for (const authorization of [undefined, 'Bearer not-a-token']) {
      const res = await journalOf(app, authorization);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
      for (const personal of [...ANNA, ...OLLE]) expect(res.body).not.toContain(personal);
    }
  });

  it("shows a client only the requests it authenticated: demo-other never sees demo-reseller's look-up, nor the other way round", async () => {
    const other = await journalOf(app, await bearer(app, 'demo-other'));
    expect(other.statusCode).toBe(200);
    expect(urls(other.json().entries)).toEqual(['POST /oauth2/token', 'POST /v3/bookings', 'POST /v3/offers', 'POST /oauth2/token']);
    expect(other.body).toContain('olle.persson@example.se'); // its own data, as it sent them
    for (const personal of ANNA) expect(other.body).not.toContain(personal);

    const reseller = await journalOf(app, await bearer(app, 'demo-reseller'));
    expect(urls(reseller.json().entries)).toEqual(['POST /oauth2/token', 'POST /customer/contacts/ssn', 'POST /oauth2/token']);
    expect(reseller.body).toContain('anna.svensson@example.se');
    for (const personal of OLLE) expect(reseller.body).not.toContain(personal);
  });

  it("shows an analyst every client's requests, each naming its client, with names, e-mails, phone numbers, identity and member numbers and dates of birth masked", async () => {
    const res = await journalOf(app, await bearer(app, 'demo-analyst'));
    expect(res.statusCode).toBe(200);
    const entries = res.json().entries as Entry[];
    expect(urls(entries)).toEqual(expect.arrayContaining(['POST /customer/contacts/ssn', 'POST /v3/offers', 'POST /v3/bookings']));
    expect(entries.find((e) => e.url === '/customer/contacts/ssn')?.client).toBe('demo-reseller');
    expect(entries.find((e) => e.url === '/v3/bookings')?.client).toBe('demo-other');
    for (const personal of [...ANNA, ...OLLE]) expect(res.body, personal).not.toContain(personal);
    // What is not personal stays readable: the booking's id, its prices, the trace.
    const booking = entries.find((e) => e.url === '/v3/bookings') as unknown as { response: { body: { booking: { id: string } } } };
    expect(booking.response.body.booking.id).toMatch(/\w/);
  });
});

describe('the request journal of a server started with --journal-personal-data', () => {
  it('shows an analyst the personal data unmasked', async () => {
    const app = await sandbox({ journalPersonalData: true });
    await traffic(app);
    const res = await journalOf(app, await bearer(app, 'demo-analyst'));
    expect(res.statusCode).toBe(200);
    for (const personal of [...ANNA, ...OLLE]) expect(res.body, personal).toContain(personal);
  });
});
