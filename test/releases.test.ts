import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { RuleRelease } from '../engine/index.ts';
import { releaseCommand } from '../adapters/cli/release.ts';
import { newRelease } from '../adapters/service/new-release.ts';
import { inProcess, live } from '../adapters/harness/targets.ts';
import { runScenario } from '../adapters/harness/runner.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { sqliteStore } from '../adapters/store/sqlite.ts';
import type { Store } from '../adapters/store/store.ts';
import { DEMO_SECRETS } from '../adapters/harness/demo-secrets.ts';
import { engine, testServer, trip, type TestServer } from './helpers/server.ts';

/**
 * Rule releases (docs/releases.md): the release in force at a request's instant prices new offers, a booking keeps
 * the release of its offer, and a release stored by one process goes live in another at its instant.
 */

const dir = mkdtempSync(join(tmpdir(), 'signalbox-releases-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.app.close()));
});
const serve = async (store: Store, start: string) => {
  const server = await testServer({ store, start });
  servers.push(server);
  return server;
};

/** The working copy with the high-speed base fare set to `base` öre: a fare change. */
function fareRelease(name: string, effectiveFrom: string, base: number): RuleRelease {
  const sources = engine().rules.sources.map((s) =>
    s.file.endsWith('/tariff.yaml') ? { ...s, text: s.text.replace(/ST: \{ base: \d+,/, `ST: { base: ${base},`) } : s,
  );
  const made = newRelease({ name, effectiveFrom, createdBy: 'analyst-a', createdOn: new Date('2026-11-28T09:00:00Z') }, sources);
  if ('problems' in made) throw new Error(made.problems.join('\n'));
  return made.release;
}

const offersRequest = {
  tripSpecifications: [trip('ST', '2026-12-14T08:00:00+01:00', '2026-12-14T11:00:00+01:00')],
  anonymousPassengerSpecifications: [{ externalRef: 'p1', type: 'PERSON', age: 35 }],
  offerSearchCriteria: { currency: 'SEK', travelClasses: ['SECOND'], flexibilities: ['FULL_FLEXIBLE'] },
};
/** The first offer at the server's clock: its id, its price and the release its answer names. */
async function firstOffer(server: TestServer) {
  const res = await server.reseller('POST', '/v3/offers', offersRequest);
  expect(res.status).toBe(200);
  const offer = res.body.offers[0];
  return { id: offer.offerId as string, price: offer.offerSummary.minimalPrice.amount as number, release: res.headers['rules-release'] };
}

describe('the release in force at the instant of the request prices new offers', () => {
  it('compares instants, not their text: 2026-12-12T23:00:00Z is in force at 2026-12-13T00:00+01:00, not a millisecond before', async () => {
    const store = memoryStore();
    // As text, "2026-12-13T00:30+02:00" sorts after "2026-12-12T23:00:00Z"; as instants it is half an hour earlier.
    await store.putRelease(fareRelease('early', '2026-12-13T00:30+02:00', 10400));
    await store.putRelease(fareRelease('fares-2027', '2026-12-12T23:00:00Z', 10900));
    const server = await serve(store, '2026-12-12T22:29:59.999Z');

    const before = await firstOffer(server);
    expect(before.release).toBeUndefined(); // the rules the server started with
    server.clock.set!(new Date('2026-12-12T22:30:00Z'));
    const early = await firstOffer(server);
    expect(early.release).toBe('early');
    server.clock.set!(new Date('2026-12-13T00:59:59.999+02:00'));
    expect((await firstOffer(server)).release).toBe('early');
    server.clock.set!(new Date('2026-12-13T00:00+01:00'));
    const after = await firstOffer(server);
    expect(after.release).toBe('fares-2027');
    // Each base fare rise shows in the price (times the product's and passenger's factors).
    expect(before.price).toBeLessThan(early.price);
    expect(early.price).toBeLessThan(after.price);

    // The traces name the release whose rows decided.
    const traces = (await server.app.inject({ method: 'GET', url: `/sandbox/traces/${await lastRequestId(server)}` })).json().traces;
    expect(traces.length).toBeGreaterThan(0);
    expect(traces.every((t: { release?: string; file: string }) => t.release === 'fares-2027' && t.file.startsWith('releases/fares-2027/'))).toBe(true);
  });

  it('without releases, answers carry no Rules-Release header and traces name none', async () => {
    const server = await serve(memoryStore(), '2026-12-13T10:00+01:00');
    const res = await server.reseller('POST', '/v3/offers', offersRequest);
    expect(res.headers['rules-release']).toBeUndefined();
    const traces = (await server.app.inject({ method: 'GET', url: `/sandbox/traces/${res.headers['x-request-id'] as string}` })).json().traces;
    expect(traces.some((t: object) => 'release' in t)).toBe(false);
  });
});

/** The x-request-id of a fresh offers request (the traces endpoint wants one). */
async function lastRequestId(server: TestServer): Promise<string> {
  const res = await server.reseller('POST', '/v3/offers', offersRequest);
  return res.headers['x-request-id'] as string;
}

async function book(server: TestServer, offerId: string) {
  return server.reseller('POST', '/v3/booking', {
    externalRef: `release-${offerId}`,
    offers: [{ offerId, passengerRefs: ['p1'] }],
    passengerSpecifications: [{ externalRef: 'p1', type: 'PERSON', age: 35, detail: { firstName: 'Anna', lastName: 'Svensson' } }],
    purchaser: { detail: { firstName: 'Anna', lastName: 'Svensson', contact: { email: 'anna.svensson@example.se', phoneNumber: '+46701234567' } } },
  });
}

describe('a booking keeps the release of its offer; processes sharing a store agree', () => {
  it('a booking stored before releases existed still loads, and the rules the server started with go on deciding it', async () => {
    const file = join(dir, 'before-releases.db');
    const first = await serve(sqliteStore(file), '2026-12-12T23:30+01:00');
    const offer = await firstOffer(first);
    const booked = await book(first, offer.id);
    expect(booked.status).toBe(200);
    const bookingId = booked.body.booking.id as string;
    await first.app.close();
    servers.splice(servers.indexOf(first), 1);

    // A release comes into force; the stored booking has no release field (as every booking stored before them).
    const store = sqliteStore(file);
    await store.putRelease(fareRelease('fares-2027', '2026-12-13T00:00+01:00', 10900));
    const second = await serve(store, '2026-12-13T00:10+01:00');
    const read = await second.reseller('GET', `/v3/bookings/${bookingId}`);
    expect(read.status).toBe(200);
    expect(read.headers['rules-release']).toBeUndefined();
    const confirmed = await second.reseller('POST', `/v3/bookings/${bookingId}/fulfillments`);
    expect(confirmed.status).toBe(200);
    expect(confirmed.headers['rules-release']).toBeUndefined();
    const fulfillmentIds = confirmed.body.fulfillments.map((f: { id: string }) => f.id);
    const refund = await second.reseller('POST', `/v3/bookings/${bookingId}/refund-offers`, { fulfillmentIds });
    expect(refund.body.refundOffers[0].refundableAmount.amount).toBe(offer.price);
    // A new offer meanwhile is the release's.
    expect((await firstOffer(second)).release).toBe('fares-2027');
  });

  it('a second server on the same SQLite file sees a release the first stored: at once for an offer it priced, at the next poll for new offers', async () => {
    const file = join(dir, 'two-servers.db');
    const a = await serve(sqliteStore(file), '2026-12-13T08:00+01:00');
    const b = await serve(sqliteStore(file), '2026-12-13T08:00+01:00');
    const stop = b.app.service.releases.poll(20);
    try {
      expect((await firstOffer(b)).release).toBeUndefined();
      // What `signalbox release create` does: the release goes into the store, whichever process serves.
      await a.app.service.store.putRelease(fareRelease('fares-2027', '2026-12-13T00:00+01:00', 10900));
      await a.app.service.releases.refresh();
      const priced = await firstOffer(a);
      expect(priced.release).toBe('fares-2027');

      // b books a's offer before its own poll has run: the booking names a release b reads at once.
      const booked = await book(b, priced.id);
      expect(booked.status).toBe(200);
      expect(booked.headers['rules-release']).toBe('fares-2027');
      expect(booked.body.booking.provisionalPrice.amount).toBe(priced.price);

      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await firstOffer(b)).release).toBe('fares-2027');
    } finally {
      stop();
    }
  });
  it('a booking naming a release its server cannot load is refused X_RELEASE_UNAVAILABLE, not decided with other rules', async () => {
    const store = memoryStore();
    const server = await serve(store, '2026-12-12T23:30+01:00');
    const booked = await book(server, (await firstOffer(server)).id);
    const bookingId = booked.body.booking.id as string;
    const stored = (await store.getBooking(bookingId))!;
    await store.updateBooking({ ...stored.booking, release: 'fares-gone' }, stored.version);
    const read = await server.reseller('GET', `/v3/bookings/${bookingId}`);
    expect(read.status).toBe(500);
    expect(read.body).toMatchObject({ code: 'X_RELEASE_UNAVAILABLE', detail: expect.stringContaining('fares-gone') });
  });
});

describe('making a release', () => {
  it('refuses rules that do not compile, with check’s file:line:col problems under the release’s name', () => {
    const sources = engine().rules.sources.map((s) => (s.file.endsWith('/tariff.yaml') ? { ...s, text: s.text.replace('roundTo: 100', 'roundTo: many') } : s));
    const made = newRelease({ name: 'broken', effectiveFrom: '2026-12-13T00:00+01:00', createdBy: 'analyst-a', createdOn: new Date() }, sources);
    expect('problems' in made && made.problems.join('\n')).toMatch(/^releases\/broken\/tariff\.yaml:\d+:\d+: /m);
  });

  it('refuses an effective instant without an offset', () => {
    const made = newRelease({ name: 'no-offset', effectiveFrom: '2026-12-13T00:00', createdBy: 'analyst-a', createdOn: new Date() }, engine().rules.sources);
    expect('problems' in made && made.problems[0]).toMatch(/^effectiveFrom: an ISO 8601 date-time with offset/);
  });
});

/** `signalbox release …` as typed: its exit code and what it wrote. */
async function release(...args: string[]) {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((t) => ((out += String(t)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((t) => ((err += String(t)), true));
  try {
    return { code: await releaseCommand(args), out, err };
  } finally {
    vi.restoreAllMocks();
  }
}

describe('signalbox release', () => {
  it('creates a release of rules/ in the store, refuses its name a second time, and lists it in the order of the instants', async () => {
    const store = `sqlite:${join(dir, 'cli.db')}`;
    const made = await release('create', 'fares-2027', '--effective-from', '2026-12-13T00:00+01:00', '--store', store, '--reason', 'timetable change');
    expect(made).toMatchObject({ code: 0, out: expect.stringMatching(/^release fares-2027: \d+ rule files, in force from 2026-12-13T00:00\+01:00/) });
    const again = await release('create', 'fares-2027', '--effective-from', '2027-01-01T00:00+01:00', '--store', store);
    expect(again).toMatchObject({ code: 1, err: expect.stringContaining('a release named fares-2027 exists already') });
    // Its files come back out as a rules folder, for test --rules DIR --coverage, diff and replay.
    const out = join(dir, 'exported');
    expect(await release('export', 'fares-2027', '--out', out, '--store', store)).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^release fares-2027: \d+ rule files written to /),
    });
    expect(readFileSync(join(out, 'tariff.yaml'), 'utf8')).toBe(readFileSync('rules/tariff.yaml', 'utf8'));
    expect(await release('export', 'fares-2099', '--out', out, '--store', store)).toMatchObject({
      code: 1,
      err: expect.stringContaining('no release named fares-2099'),
    });
    expect((await release('create', 'earlier', '--effective-from', '2026-12-12T22:00:00Z', '--store', store)).code).toBe(0);

    const listed = await release('list', '--store', store, '--json');
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.out) as Array<{ name: string; effectiveFrom: string; reason?: string; files: number }>;
    expect(rows.map((r) => [r.name, r.effectiveFrom, r.reason])).toEqual([
      ['earlier', '2026-12-12T22:00:00Z', undefined],
      ['fares-2027', '2026-12-13T00:00+01:00', 'timetable change'],
    ]);
    expect(rows[0]!.files).toBe(engine().rules.sources.length);
  });

  it('refuses an instant without an offset, creating nothing', async () => {
    const store = `sqlite:${join(dir, 'cli-refused.db')}`;
    const refused = await release('create', 'fares-2027', '--effective-from', '2026-12-13T00:00', '--store', store);
    expect(refused).toMatchObject({ code: 1, err: expect.stringContaining('effectiveFrom: an ISO 8601 date-time with offset') });
    expect((await release('list', '--store', store)).out).toMatch(/^no releases in sqlite:/);
  });
});

describe('scenarios with releases of their own', () => {
  it('are skipped against a live server, saying why', async () => {
    const result = await runScenario('scenarios/releases/fare-change-at-timetable-change.yaml', live('http://127.0.0.1:9'), { secrets: DEMO_SECRETS });
    expect(result.skipped).toMatch(/declares rule releases, which only an in-process run makes/);
    expect(result.steps).toEqual([]);
  });

  it('run again in-process on a server that holds their releases and nothing of the run before', async () => {
    const target = inProcess(engine());
    const file = 'scenarios/releases/fare-change-at-timetable-change.yaml';
    const first = await runScenario(file, target, { secrets: DEMO_SECRETS });
    const again = await runScenario(file, target, { secrets: DEMO_SECRETS });
    expect(first.passed, JSON.stringify(first.problems)).toBe(true);
    expect(again.passed, JSON.stringify(again.steps.find((s) => !s.passed))).toBe(true);
    expect(again.steps.map((s) => s.response)).toEqual(first.steps.map((s) => s.response));
    // A scenario without releases on the same target is decided by the rules the run started with.
    const plain = await runScenario('scenarios/offers/family-discount.yaml', target, { secrets: DEMO_SECRETS });
    expect(plain.passed, JSON.stringify(plain.steps.find((s) => !s.passed))).toBe(true);
  });
});
