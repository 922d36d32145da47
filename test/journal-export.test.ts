import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRules } from '../engine/index.ts';
import { replayJournal } from '../adapters/analysis/replay.ts';
import { readJournal } from '../adapters/http/journal-file.ts';
import { studioExtension } from '../adapters/studio/routes.ts';
import { analystAuthorization, passengers, testServer, trip, type TestServer } from './helpers/server.ts';

/**
 * GET /studio/api/journal/export (docs/replay.md): a sandbox's latest requests as a journal file, read as the journal
 * is read, which `signalbox replay` runs again.
 */
let server: TestServer;
let app: FastifyInstance;

const exported = async (authorization: string) => {
  const res = await app.inject({ method: 'GET', url: '/studio/api/journal/export', headers: { authorization } });
  expect(res.statusCode, res.body).toBe(200);
  return res;
};

beforeAll(async () => {
  server = await testServer({ extensions: [studioExtension({ sandbox: true, scenarios: [] })] });
  app = server.app;
  const offers = await server.reseller('POST', '/v3/offers', { tripSpecifications: [trip()], anonymousPassengerSpecifications: passengers(40, 9) });
  expect(offers.status).toBe(200);
  // Half an hour later, on the sandbox clock: the journal keeps the instant each request was decided at.
  server.clock.advance!('PT30M');
  const booking = await server.reseller('POST', '/v3/bookings', {
    externalRef: 'export',
    offers: [{ offerId: offers.body.offers[0].offerId, passengerRefs: ['p1', 'p2'] }],
    passengerSpecifications: [
      { externalRef: 'p1', type: 'PERSON', detail: { firstName: 'Olle', lastName: 'Persson' } },
      { externalRef: 'p2', type: 'PERSON', detail: { firstName: 'Lisa', lastName: 'Persson' } },
    ],
    purchaser: { detail: { firstName: 'Olle', lastName: 'Persson', email: 'olle.persson@example.se', phoneNumber: '+46709876543' } },
  });
  expect(booking.status, JSON.stringify(booking.body)).toBe(200);
  const read = await server.reseller('GET', `/v3/bookings/${booking.body.booking.id as string}`);
  expect(read.status).toBe(200);
});
afterAll(() => app.close());

describe('the journal exported as a file', () => {
  it('is JSON Lines, oldest first, each request with its instant, client, headers and answer, and no credential', async () => {
    const res = await exported(`Bearer ${await server.token()}`);
    expect(res.headers['content-type']).toMatch(/^application\/jsonl/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="journal.jsonl"');
    const { records, problems } = readJournal(res.body, 'export');
    expect(problems).toEqual([]);
    expect(records.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /oauth2/token',
      'POST /v3/offers',
      'POST /v3/bookings',
      expect.stringMatching(/^GET \/v3\/bookings\//),
    ]);
    expect(records[1]).toMatchObject({ at: '2026-11-20T09:00:00.000Z', client: 'demo-reseller', response: { status: 200 } });
    expect(records[2]!.at).toBe('2026-11-20T09:30:00.000Z');
    expect(Object.keys(records[1]!.headers).sort()).toEqual(['content-type', 'requestor']);
    expect(res.body.match(/demo-reseller-secret|"access_token":"ey|authorization|Bearer ey/i)).toBeNull();
  });

  it("masks an analyst's export as the journal is masked", async () => {
    const { body } = await exported(await analystAuthorization(app));
    expect(body).toContain('"POST","url":"/v3/bookings"');
    expect(body.match(/Olle|olle\.persson@example\.se/)).toBeNull();
  });

  it('replays on the rules it was recorded with as it was answered: no change, every status as recorded', async () => {
    const { records } = readJournal((await exported(`Bearer ${await server.token()}`)).body, 'export');
    const rules = loadRules();
    const report = await replayJournal(records, rules, rules, { names: { a: 'rules', b: 'rules' }, examples: 5 });
    expect(report.journal).toEqual({ requests: 4, replayed: 3, skipped: { 'token-requests': 1 } });
    expect(report.asRecorded).toEqual({ a: 3, b: 3 });
    expect(report.changed).toBe(0);
  });
});
