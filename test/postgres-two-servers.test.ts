import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportSkip, startPostgres, type PostgresServer } from './helpers/postgres.ts';
import { call, resellerToken, serveProcess, type Answer, type ServerProcess } from './helpers/process.ts';
import { expectThePlaceSoldOnce, firstFreePlace } from './helpers/places.ts';
import { passengers, trip, upcomingTrip } from './helpers/server.ts';

/**
 * Two `signalbox serve --store postgres://…` processes on one database (CONTRACT §1): whatever they are
 * asked at the same moment, the database holds one outcome, and both processes report that one.
 *
 * The pattern — race the same operation through both processes, then check that every answer, every
 * read from either process and the database itself agree on a single result — is the one to reuse when
 * seats and refunds exist: "never double-book a seat" (N bookings racing for the last seat: one wins)
 * and "never double-refund" (N confirmations of one refund offer: one refund) are `race()` plus the same
 * three kinds of check.
 */

const skip = reportSkip('two servers on one PostgreSQL database');

/** Fires `n` copies of an operation at once, alternating between the processes. */
async function race(servers: readonly ServerProcess[], n: number, operation: (server: ServerProcess, i: number) => Promise<Answer>) {
  return Promise.all(Array.from({ length: n }, (_, i) => operation(servers[i % servers.length]!, i)));
}

describe.skipIf(skip !== undefined)('two server processes on one PostgreSQL database', () => {
  let postgres: PostgresServer;
  let servers: ServerProcess[] = [];
  let token: string;
  // A short-hand: the reseller's call to one process.
  const on = (s: ServerProcess, method: string, path: string, body?: unknown) => call(s.base, token, method, path, body);

  beforeAll(async () => {
    postgres = await startPostgres();
    // The same JWT secret: a token from one process is valid on the other, as behind a load balancer.
    const env = { SIGNALBOX_JWT_SECRET: 'two-servers-test-secret' };
    // --sandbox: the multi-ride race sets the reseller's clock to a day its fixture pass is valid on.
    const started = await Promise.allSettled([serveProcess(postgres.url(), env, ['--sandbox']), serveProcess(postgres.url(), env, ['--sandbox'])]);
    // Keep whatever started, so afterAll stops it even when the other failed.
    servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    token = await resellerToken(servers[0]!.base);
  }, 30_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await postgres?.stop();
  }, 30_000);

  /** Looks into the database directly (a connection of its own: the crash test below kills every connection). */
  async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[]) {
    const db = new pg.Client({ connectionString: postgres.url() });
    await db.connect();
    try {
      return (await db.query<T>(sql, params)).rows;
    } finally {
      await db.end();
    }
  }

  /** Offers from one process, the provisional booking from the other: both read the same offers. */
  async function sell(externalRef: string): Promise<string> {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const offers = await on(a, 'POST', '/v3/offers', { tripSpecifications: [upcomingTrip()], anonymousPassengerSpecifications: passengers(35, 9) });
    expect(offers.status, a.stderr()).toBe(200);
    const booking = await on(b, 'POST', '/v3/booking', {
      externalRef,
      offers: [{ offerId: offers.body.offers[0].offerId, passengerRefs: ['p1', 'p2'] }],
      passengerSpecifications: [
        { externalRef: 'p1', type: 'PERSON', detail: { firstName: 'Ada', lastName: 'Lind' } },
        { externalRef: 'p2', type: 'PERSON', detail: { firstName: 'Bo', lastName: 'Lind' } },
      ],
      purchaser: { detail: { firstName: 'Ada', lastName: 'Lind', email: 'ada@example.se', phoneNumber: '+46701111111' } },
    });
    expect(booking.status, b.stderr()).toBe(200);
    return booking.body.booking.id as string;
  }

  it('concurrent confirmations through both processes confirm each booking once, with one set of fulfillments', async () => {
    const bookings = await Promise.all(Array.from({ length: 4 }, (_, i) => sell(`race-${i}`)));

    await Promise.all(
      bookings.map(async (id) => {
        // Eight confirmations at once, half per process, in both of the API's forms: the operator's
        // (202, empty body) and OSDM's (200 with the fulfillments this confirmation ended with).
        const answers = await race(servers, 8, (s, i) => on(s, 'POST', `/v3/bookings/${id}/${i % 4 < 2 ? 'fulfillments' : 'fulfillment'}`));
        for (const a of answers) expect([200, 202], JSON.stringify(a.body)).toContain(a.status);

        // 1. Every answer names the same fulfillments: no confirmation saw a result that was later overwritten.
        const named = answers.filter((a) => a.status === 200).map((a) => (a.body.fulfillments as Array<{ id: string }>).map((f) => f.id).sort());
        expect(named.length).toBeGreaterThan(0);
        for (const ids of named) expect(ids).toEqual(named[0]);

        // 2. Both processes read the same booking, confirmed, with exactly those fulfillments, and serve each ticket.
        const reads = await Promise.all(servers.map((s) => on(s, 'GET', `/v3/bookings/${id}`)));
        for (const r of reads) expect(r.status).toBe(200);
        expect(reads[1]!.body).toEqual(reads[0]!.body);
        const booking = reads[0]!.body.booking;
        expect(booking.fulfillments.map((f: { id: string }) => f.id).sort()).toEqual(named[0]);
        expect(booking.bookedOffers[0].admissions.every((a: { status: string }) => a.status === 'FULFILLED')).toBe(true);
        for (const f of booking.fulfillments as Array<{ id: string }>) {
          const tickets = await Promise.all(servers.map((s) => on(s, 'GET', `/v3/fulfillments/${f.id}`)));
          for (const t of tickets) expect(t.status).toBe(200);
          expect(tickets[1]!.body).toEqual(tickets[0]!.body);
        }

        // 3. The database: written once after the insert (version 2), and only the winner's fulfillments indexed.
        const [row] = await query<{ version: number; indexed: string[] }>(
          'SELECT b.version, array(SELECT f.id FROM fulfillments f WHERE f.booking_id = b.id ORDER BY f.id) AS indexed FROM bookings b WHERE b.id = $1',
          [id],
        );
        expect(row?.version).toBe(2);
        expect(row?.indexed).toEqual(named[0]);
      }),
    );
  }, 20_000);

  it('never double-refund: refund offers and confirmations racing through both processes refund once', async () => {
    const id = await sell('refund-race');
    const confirmed = await on(servers[0]!, 'POST', `/v3/bookings/${id}/fulfillments`);
    const all = (confirmed.body.fulfillments as Array<{ id: string }>).map((f) => f.id);

    // Eight refund offers at once: one aftersales operation at a time (spec §4.1 rule 10), so exactly one is made.
    const offers = await race(servers, 8, (s) => on(s, 'POST', `/v3/bookings/${id}/refund-offers`, { fulfillmentIds: all }));
    const made = offers.filter((a) => a.status === 200);
    expect(made, JSON.stringify(offers.map((a) => [a.status, a.body.code]))).toHaveLength(1);
    for (const a of offers.filter((x) => x.status !== 200)) expect(['X_CONCURRENT_AFTERSALES', 'X_STORE_CONFLICT']).toContain(a.body.code);
    const offerId = made[0]!.body.refundOffers[0].id as string;
    const amount = made[0]!.body.refundOffers[0].refundableAmount.amount as number;

    // Eight confirmations of it at once: every answer says CONFIRMED, and the money comes back once.
    const confirmations = await race(servers, 8, (s) => on(s, 'PATCH', `/v3/bookings/${id}/refund-offers/${offerId}`, { status: 'CONFIRMED' }));
    for (const c of confirmations) expect([200, 409], JSON.stringify(c.body)).toContain(c.status);
    expect(confirmations.some((c) => c.status === 200 && c.body.refundOffer.status === 'CONFIRMED')).toBe(true);
    const reads = await Promise.all(servers.map((s) => on(s, 'GET', `/v3/bookings/${id}`)));
    expect(reads[1]!.body).toEqual(reads[0]!.body);
    const booking = reads[0]!.body.booking;
    expect(booking.refundOffers).toHaveLength(1);
    expect(booking.refundAmount.amount).toBe(amount);
    expect(booking.fulfillments.every((f: { status: string }) => f.status === 'REFUNDED')).toBe(true);
  }, 20_000);

  it('never double-book a place: bookings racing through both processes for one place get it once', async () => {
    const [a] = servers as [ServerProcess, ServerProcess];
    const offers = await Promise.all(
      Array.from({ length: 8 }, () => on(a, 'POST', '/v3/offers', { tripSpecifications: [upcomingTrip()], anonymousPassengerSpecifications: passengers(35) })),
    );
    const first = offers[0]!.body.offers[0];
    const map = await on(
      a,
      'GET',
      `/v3/availabilities/place-map?contextType=OFFER&contextId=${first.offerId}&resourceType=RESERVATION&resourceId=${first.reservationOfferParts[0].id}`,
    );
    expect(map.status, JSON.stringify(map.body)).toBe(200);
    const wanted = firstFreePlace(map.body);

    // Eight bookings at once, half per process, every one asking for that place (spec §2.10 rule 3: at creation
    // an unavailable place gets another one and a warning).
    const answers = await race(servers, 8, (s, i) => {
      const offer = offers[i]!.body.offers[0];
      return on(s, 'POST', '/v3/booking', {
        externalRef: `seat-race-${i}`,
        offers: [
          {
            offerId: offer.offerId,
            passengerRefs: ['p1'],
            placeSelections: [
              {
                reservationId: offer.reservationOfferParts[0].id,
                tripLegCoverage: offer.reservationOfferParts[0].availablePlaces[0].tripLegCoverage,
                places: [{ ...wanted, passengerRef: 'p1' }],
              },
            ],
          },
        ],
        passengerSpecifications: [{ externalRef: 'p1', type: 'PERSON', detail: { firstName: 'Ada', lastName: 'Lind' } }],
        purchaser: { detail: { firstName: 'Ada', lastName: 'Lind', email: 'ada@example.se', phoneNumber: '+46701111111' } },
      });
    });
    expect(answers).toHaveLength(8);
    expectThePlaceSoldOnce(answers, wanted);

    // The database agrees: across what every booking on the train holds, no place appears twice.
    const rows = await query<{ coach: string; place: string; holders: number }>(
      `SELECT t.train_key, h->>'coachNumber' AS coach, h->>'placeNumber' AS place, count(*)::int AS holders
         FROM train_holdings t CROSS JOIN json_array_elements(t.data->'holdings') AS h GROUP BY 1, 2, 3 HAVING count(*) > 1`,
      [],
    );
    expect(rows).toEqual([]);
  }, 20_000);

  it("a multi-ride pass's rides are the database's: journeys racing through both processes take no more rides than it has", async () => {
    // Maria's MULTI-0001 has 7 rides and is valid to 2027-05-31 (customers.yaml): both processes' clocks for this
    // reseller are set inside that, to a fixed day, and the eight journeys go on the eight days after it, offered
    // while all rides were free.
    const maria = [{ externalRef: 'maria', type: 'PERSON', age: 40, cards: [{ type: 'TRAVEL_PASS', code: 'OPR_MULTIRIDE_10', number: 'MULTI-0001' }] }];
    for (const s of servers) expect((await on(s, 'POST', '/sandbox/clock', { now: '2026-12-01T06:00:00Z' })).status).toBe(200);
    const day = (d: number) =>
      trip('ST', `2026-12-${String(10 + d).padStart(2, '0')}T08:00:00+01:00`, `2026-12-${String(10 + d).padStart(2, '0')}T11:00:00+01:00`);
    const offerOn = async (s: ServerProcess, d: number) => {
      const offers = await on(s, 'POST', '/v3/offers', {
        tripSpecifications: [day(d)],
        anonymousPassengerSpecifications: maria,
        offerSearchCriteria: { travelClasses: ['SECOND'] },
      });
      expect(offers.status, s.stderr()).toBe(200);
      return offers.body.offers[0] as { offerId: string; admissionOfferParts: Array<{ price: { amount: number } }> };
    };
    const offers = await Promise.all(Array.from({ length: 8 }, (_, i) => offerOn(servers[i % 2]!, i + 1)));
    expect(offers.map((o) => o.admissionOfferParts[0]!.price.amount)).toEqual(Array(8).fill(0));
    const answers = await race(servers, 8, (s, i) =>
      on(s, 'POST', '/v3/booking', {
        externalRef: `ride-${i}`,
        offers: [{ offerId: offers[i]!.offerId, passengerRefs: ['maria'] }],
        passengerSpecifications: [{ externalRef: 'maria', type: 'PERSON', detail: { firstName: 'Maria', lastName: 'Nilsson' } }],
        purchaser: { detail: { firstName: 'Maria', lastName: 'Nilsson', email: 'maria.nilsson@example.se', phoneNumber: '+46703456789' } },
      }),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(7).fill(200), 409]);
    expect(answers.find((a) => a.status === 409)!.body.code).toBe('X_TRAVEL_PASS_USED_UP');
    const booked = answers.filter((a) => a.status === 200).map((a) => a.body.booking.id as string);
    await Promise.all(booked.map((id, i) => on(servers[i % 2]!, 'POST', `/v3/bookings/${id}/fulfillment`).then((a) => expect(a.status).toBe(202))));
    // Both processes read the same rides from the database: none left, and the next offer prices Maria in full.
    for (const s of servers) {
      const record = await fetch(`${s.base}/customer/contacts/email`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'ocp-apim-subscription-key': 'demo-subscription-key', 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'maria.nilsson@example.se' }),
      });
      expect(((await record.json()) as { travelPasses: Array<{ ridesLeft: number }> }).travelPasses[0]!.ridesLeft).toBe(0);
      expect((await offerOn(s, 9)).admissionOfferParts[0]!.price.amount).toBeGreaterThan(0);
    }
    for (const s of servers) await on(s, 'POST', '/sandbox/clock', { now: new Date().toISOString() });
  }, 30_000);

  it('a booking acknowledged by one process survives a PostgreSQL crash and is read by the other', async () => {
    const id = await sell('crash');
    // Immediate stop: no shutdown checkpoint, recovery replays the WAL — only what was committed survives.
    await postgres.crash();
    await postgres.restart();
    // The processes' pools lost their connections; the next request opens new ones.
    const read = await on(servers[0]!, 'GET', `/v3/bookings/${id}`);
    expect(read.status, servers[0]!.stderr()).toBe(200);
    expect(read.body.booking.externalRef).toBe('crash');
    const confirmed = await on(servers[1]!, 'POST', `/v3/bookings/${id}/fulfillments`);
    expect(confirmed.status, servers[1]!.stderr()).toBe(200);
  }, 20_000);
});
