import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectThePlaceSoldOnce, firstFreePlace } from './helpers/places.ts';
import { reportSkip, startPostgres, type PostgresServer } from './helpers/postgres.ts';
import { call, resellerToken, serveProcess, type ServerProcess } from './helpers/process.ts';
import { passengers, upcomingTrip } from './helpers/server.ts';

/**
 * `signalbox serve --workers 2`: two processes behind one port (node:cluster) on one store. Whichever worker a
 * request reaches, no place is sold twice, a quote made on one is booked on the other, every acknowledged booking
 * is read through either, and a kill -9 of the primary or of a worker loses no acknowledged booking. Concurrency
 * comes from requests fired together; nothing here waits for a time to pass.
 */

const dir = mkdtempSync(join(tmpdir(), 'signalbox-workers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { SIGNALBOX_JWT_SECRET: 'workers-test-secret' };

/** The workers' pids that logged a request (JSON lines on a pipe carry the pid of the process writing them). */
function servingPids(server: ServerProcess): Set<number> {
  const pids = new Set<number>();
  for (const line of server.stdout().split('\n')) {
    if (!line.startsWith('{')) continue;
    const l = JSON.parse(line) as { pid: number; reqId?: string };
    if (l.reqId !== undefined) pids.add(l.pid);
  }
  return pids;
}

const bookingBody = (offer: { offerId: string }, externalRef: string, extra: Record<string, unknown> = {}) => ({
  externalRef,
  offers: [{ offerId: offer.offerId, passengerRefs: ['p1'], ...extra }],
  passengerSpecifications: [{ externalRef: 'p1', type: 'PERSON', detail: { firstName: 'Ada', lastName: 'Lind' } }],
  purchaser: { detail: { firstName: 'Ada', lastName: 'Lind', email: 'ada@example.se', phoneNumber: '+46701111111' } },
});

/** Offers, then a booking of the first, each on a connection of its own: in turn, they reach both workers. */
async function sell(base: string, token: string, externalRef: string, signal?: AbortSignal) {
  const offers = await call(
    base,
    token,
    'POST',
    '/v3/offers',
    { tripSpecifications: [upcomingTrip()], anonymousPassengerSpecifications: passengers(35) },
    signal,
  );
  expect(offers.status, JSON.stringify(offers.body)).toBe(200);
  return call(base, token, 'POST', '/v3/booking', bookingBody(offers.body.offers[0], externalRef), signal);
}

/**
 * Eight bookings at once, each on its own quote, all asking for one place (spec §2.10 rule 3: an unavailable place
 * gets another one): one gets it, all get different places. Then every booking is read back eight times at once.
 */
async function raceForOnePlace(server: ServerProcess, token: string): Promise<string[]> {
  const on = (method: string, path: string, body?: unknown) => call(server.base, token, method, path, body);
  const offers = await Promise.all(
    Array.from({ length: 8 }, () => on('POST', '/v3/offers', { tripSpecifications: [upcomingTrip()], anonymousPassengerSpecifications: passengers(35) })),
  );
  for (const o of offers) expect(o.status, JSON.stringify(o.body)).toBe(200);
  const first = offers[0]!.body.offers[0];
  const map = await on(
    'GET',
    `/v3/availabilities/place-map?contextType=OFFER&contextId=${first.offerId}&resourceType=RESERVATION&resourceId=${first.reservationOfferParts[0].id}`,
  );
  expect(map.status, JSON.stringify(map.body)).toBe(200);
  const wanted = firstFreePlace(map.body);
  const answers = await Promise.all(
    offers.map((o, i) => {
      const offer = o.body.offers[0];
      return on(
        'POST',
        '/v3/booking',
        bookingBody(offer, `seat-race-${i}`, {
          placeSelections: [
            {
              reservationId: offer.reservationOfferParts[0].id,
              tripLegCoverage: offer.reservationOfferParts[0].availablePlaces[0].tripLegCoverage,
              places: [{ ...wanted, passengerRef: 'p1' }],
            },
          ],
        }),
      );
    }),
  );
  expect(answers).toHaveLength(8);
  expectThePlaceSoldOnce(answers, wanted);

  const ids = answers.map((x) => x.body.booking.id as string);
  const reads = await Promise.all(ids.flatMap((id) => Array.from({ length: 8 }, () => on('GET', `/v3/bookings/${id}`))));
  for (const r of reads) expect(r.status, JSON.stringify(r.body)).toBe(200);
  return ids;
}

describe('serve --workers 2 on SQLite', () => {
  const path = join(dir, 'race.db');
  let server: ServerProcess;
  let token: string;
  beforeAll(async () => {
    server = await serveProcess(`sqlite:${path}`, env, ['--workers', '2'], { quiet: false });
    token = await resellerToken(server.base);
  }, 30_000);
  afterAll(async () => server?.stop(), 30_000);

  it('sells a place once, whichever worker each booking reaches, and both workers read every booking', async () => {
    await raceForOnePlace(server, token);
    expect(servingPids(server).size, server.stdout()).toBe(2);
    // The file agrees: across what every booking on the train holds, no place appears twice.
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      const twice = db
        .prepare(
          `SELECT t.train_key, json_extract(h.value, '$.coachNumber') AS coach, json_extract(h.value, '$.placeNumber') AS place, count(*) AS holders
             FROM train_holdings t, json_each(t.data, '$.holdings') h GROUP BY 1, 2, 3 HAVING count(*) > 1`,
        )
        .all();
      expect(twice).toEqual([]);
    } finally {
      db.close();
    }
  }, 60_000);

  it('books a quote on whichever worker the booking reaches', async () => {
    const sales = await Promise.all(Array.from({ length: 12 }, (_, i) => sell(server.base, token, `quote-${i}`)));
    for (const s of sales) expect(s.status, JSON.stringify(s.body)).toBe(200);
  }, 60_000);
});

describe('serve --workers 2 on SQLite under kill -9', () => {
  /**
   * Sales fired `parallel` at a time until `stop()` says so; the ids of those acknowledged. A client gives up on a
   * sale as a till would: a connection node:cluster's primary hands to a worker at the instant it is killed is never
   * answered nor closed (docs/operating.md, "A worker that dies"), and would hold its lane for ever.
   */
  function load(base: string, token: string, parallel: number) {
    const acknowledged: string[] = [];
    let running = true;
    let reached: (() => void) | undefined;
    let goal = Infinity;
    const loop = async (lane: number) => {
      for (let i = 0; running; i++) {
        try {
          const res = await sell(base, token, `load-${lane}-${i}`, AbortSignal.timeout(20_000));
          if (res.status === 200) acknowledged.push(res.body.booking.id as string);
        } catch {
          // A connection cut by the kill, or given up on: not acknowledged.
        }
        if (acknowledged.length >= goal) reached?.();
      }
    };
    const lanes = Promise.all(Array.from({ length: parallel }, (_, lane) => loop(lane).catch(() => {})));
    return {
      acknowledged,
      /** Resolves once `n` sales more than now are acknowledged. */
      after: (n: number) =>
        new Promise<void>((resolve) => {
          goal = acknowledged.length + n;
          reached = resolve;
        }),
      stop: async () => {
        running = false;
        await lanes;
      },
    };
  }

  async function readAll(base: string, ids: readonly string[]) {
    const token = await resellerToken(base);
    const reads = await Promise.all(ids.map((id) => call(base, token, 'GET', `/v3/bookings/${id}`)));
    for (const [i, r] of reads.entries()) expect(r.status, `${ids[i]}: ${JSON.stringify(r.body)}`).toBe(200);
  }

  it('kill -9 of the primary mid-load: every acknowledged booking is read after a restart', async () => {
    const path = join(dir, 'kill-primary.db');
    const first = await serveProcess(`sqlite:${path}`, env, ['--workers', '2']);
    const token = await resellerToken(first.base);
    const running = load(first.base, token, 6);
    await running.after(10);
    process.kill(first.pid, 'SIGKILL');
    await first.exited;
    await running.stop();
    expect(running.acknowledged.length).toBeGreaterThanOrEqual(10);

    const port = Number(new URL(first.base).port);
    // The workers end with their primary; the port is free again once they have.
    const second = await serveProcess(`sqlite:${path}`, env, ['--workers', '2'], { port });
    try {
      await readAll(second.base, running.acknowledged);
    } finally {
      await second.stop();
    }
  }, 90_000);

  it('kill -9 of a worker mid-load: the primary starts another, and every acknowledged booking is read', async () => {
    const path = join(dir, 'kill-worker.db');
    const server = await serveProcess(`sqlite:${path}`, env, ['--workers', '2'], { quiet: false });
    try {
      const token = await resellerToken(server.base);
      const running = load(server.base, token, 6);
      await running.after(10);
      const victim = [...servingPids(server)].find((pid) => pid !== server.pid)!;
      expect(victim).toBeDefined();
      process.kill(victim, 'SIGKILL');
      // Sales go on through the other worker and the new one.
      await running.after(10);
      await running.stop();
      expect(server.stdout()).toContain('worker died: starting another');
      await readAll(server.base, running.acknowledged);
    } finally {
      await server.stop();
    }
  }, 90_000);
});

const skip = reportSkip('serve --workers 2 on PostgreSQL');

describe.skipIf(skip !== undefined)('serve --workers 2 on PostgreSQL', () => {
  let postgres: PostgresServer;
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
    await postgres?.stop();
  }, 30_000);

  it('sells a place once, whichever worker each booking reaches, and both workers read every booking', async () => {
    server = await serveProcess(postgres.url(), env, ['--workers', '2'], { quiet: false });
    const token = await resellerToken(server.base);
    await raceForOnePlace(server, token);
    expect(servingPids(server).size, server.stdout()).toBe(2);
    const db = new pg.Client({ connectionString: postgres.url() });
    await db.connect();
    try {
      const { rows } = await db.query(
        `SELECT t.train_key, h->>'coachNumber' AS coach, h->>'placeNumber' AS place, count(*)::int AS holders
           FROM train_holdings t CROSS JOIN json_array_elements(t.data->'holdings') AS h GROUP BY 1, 2, 3 HAVING count(*) > 1`,
      );
      expect(rows).toEqual([]);
    } finally {
      await db.end();
    }
    const sales = await Promise.all(Array.from({ length: 8 }, (_, i) => sell(server!.base, token, `pg-quote-${i}`)));
    for (const s of sales) expect(s.status, JSON.stringify(s.body)).toBe(200);
  }, 60_000);
});

describe('serve --workers refuses what one process owns', () => {
  const serve = (...args: string[]) => spawnSync(process.execPath, ['bin/signalbox.js', 'serve', '--port', '0', ...args], { encoding: 'utf8' });
  it('the memory store and a sandbox run one worker; asked for more, serve says why and exits 2', () => {
    const memory = serve('--store', 'memory', '--workers', '2');
    expect(memory.status).toBe(2);
    expect(memory.stderr).toContain('memory store lives in one process');
    const sandbox = serve('--store', `sqlite:${join(dir, 'sandbox.db')}`, '--sandbox', '--workers', '2');
    expect(sandbox.status).toBe(2);
    expect(sandbox.stderr).toContain('cannot run a sandbox');
    expect(serve('--workers', 'two').status).toBe(2);
  }, 60_000); // three CLI processes, each loading the CLI's sources
});
