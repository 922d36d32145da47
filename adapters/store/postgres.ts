import pg from 'pg';
import {
  decodeStoredBooking,
  RuleRelease,
  trainHoldingsOf,
  type Booking,
  type PassUse,
  type SoldPass,
  type StoredOffer,
  type TrainHoldings,
} from '../../engine/index.ts';
import { indexRowsOf } from './booking-index.ts';
import { DraftConflict, NOTHING_IN_FLIGHT, ReleaseNameTaken, StoreConflict, type Store } from './store.ts';

/**
 * The shared store: several server processes on one PostgreSQL database (CONTRACT §1, DESIGN "Stores").
 *
 * Every write is ONE SQL statement in autocommit, so it is atomic without a client-side transaction and
 * resolves only after PostgreSQL committed it. The optimistic version check happens inside the UPDATE
 * (`WHERE id = $1 AND version = $2`): of two processes that read the same version, PostgreSQL lets exactly
 * one UPDATE match (the other re-checks the row after the first commits and matches nothing), and the
 * loser gets StoreConflict — never a merge, never a lost update.
 *
 * Documents are stored as `json`, not `jsonb`: `json` keeps the text exactly as written (key order
 * included), so a booking reads back exactly as the memory and SQLite stores give it back, and it takes
 * every string JSON allows (jsonb refuses `\u0000`, which a request may well contain).
 */
/** Connections for train locks: as many bookings on different trains can be decided at once, per process. */
const TRAIN_LOCK_CONNECTIONS = 4;
/** The first key of every train lock, so that they never meet another application's advisory locks. */
const TRAIN_LOCK_SPACE = 'signalbox train';

export async function postgresStore(url: string): Promise<Store> {
  const pool = new pg.Pool({
    connectionString: url,
    connectionTimeoutMillis: 10_000,
    // "A write that resolved is committed" means durable too: a database whose default is
    // synchronous_commit=off acknowledges commits it may lose in a crash, so such sessions are raised to
    // `on` (stronger settings such as remote_apply are left as they are). The pool awaits this hook before
    // it hands the new connection out; if it fails, the connection is dropped and the query fails.
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- pg-pool awaits it; @types/pg declares it void
    onConnect: async (client) => {
      await client.query(`SELECT set_config('synchronous_commit', 'on', false) WHERE current_setting('synchronous_commit') = 'off'`);
    },
  });
  // An idle connection that dies (database restarted, network cut) is dropped by the pool; without this
  // listener the 'error' event would crash the server. The next query simply opens a new connection.
  pool.on('error', (e) => process.stderr.write(`signalbox: PostgreSQL connection lost (${e.message}); reconnecting on next use\n`));

  try {
    await createSchema(pool);
    const fsync = await pool.query<{ fsync: string }>('SHOW fsync');
    if (fsync.rows[0]?.fsync === 'off') {
      process.stderr.write('signalbox: warning: PostgreSQL runs with fsync=off; acknowledged bookings may be lost in a crash\n');
    }
  } catch (e) {
    await pool.end().catch(() => {});
    throw new Error(`cannot open the PostgreSQL store ${redact(url)}: ${(e as Error).message}`, { cause: e });
  }

  // Train locks hold a connection each for as long as a booking is decided and written; they get a pool of their
  // own, so that holders (whose work queries through `pool`) can never wait on connections their waiters hold.
  const lockPool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 10_000, max: TRAIN_LOCK_CONNECTIONS });
  lockPool.on('error', (e) => process.stderr.write(`signalbox: PostgreSQL lock connection lost (${e.message})\n`));

  const fulfillmentIds = (b: Booking) => b.fulfillments.map((f) => f.id);
  /**
   * The booking's index rows as query parameters, three per index: the keys it has entries under, their JSON, and
   * the keys it no longer has (trains it holds places on, passes in use, passes it sold).
   */
  const indexParams = (b: Booking) => {
    const rows = indexRowsOf(b);
    const keys = (entries: Array<[string, string]>) => entries.map(([key]) => key);
    const json = (entries: Array<[string, string]>) => entries.map(([, value]) => value);
    return {
      holdings: [keys(rows.holdings), json(rows.holdings), rows.freedTrains],
      passUses: [keys(rows.passUses), json(rows.passUses), rows.freedPasses],
      soldPasses: [keys(rows.soldPasses), json(rows.soldPasses), rows.freedSoldPasses],
    };
  };
  let closing: Promise<void> | undefined;

  return {
    kind: redact(url),

    async putOffers(offers: readonly StoredOffer[]) {
      if (offers.length === 0) return;
      // Last one wins within a batch, as INSERT OR REPLACE does in SQLite (ON CONFLICT may not touch a row twice).
      const unique = [...new Map(offers.map((o) => [o.offerId, o])).values()];
      // One statement for the whole batch: all offers of a response are stored, or none.
      await pool.query(
        `INSERT INTO offers (id, owner, bookable_until, data)
         SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::json[])
         ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, bookable_until = excluded.bookable_until, data = excluded.data`,
        [unique.map((o) => o.offerId), unique.map((o) => o.owner), unique.map((o) => o.preBookableUntil), unique.map((o) => JSON.stringify(o))],
      );
    },

    async getOffers(ids) {
      const out = new Map<string, StoredOffer>();
      if (ids.length === 0) return out;
      // pg parses `json` columns, so every read hands out fresh objects (values are copied, not shared).
      const { rows } = await pool.query<{ id: string; data: StoredOffer }>('SELECT id, data FROM offers WHERE id = ANY($1::text[])', [[...ids]]);
      for (const row of rows) out.set(row.id, row.data);
      return out;
    },

    async getBooking(id) {
      const { rows } = await pool.query<{ data: unknown; version: number }>('SELECT data, version FROM bookings WHERE id = $1', [id]);
      const row = rows[0];
      return row ? { booking: decodeStoredBooking(id, row.data), version: row.version } : undefined;
    },

    async insertBooking(b) {
      const { holdings, passUses, soldPasses } = indexParams(b);
      // Booking and its fulfillment index in one statement (data-modifying CTEs run to completion, atomically).
      try {
        await pool.query(
          `WITH booking AS (INSERT INTO bookings (id, owner, version, data) VALUES ($1, $2, 1, $3::json)),
           held AS (INSERT INTO train_holdings (train_key, booking_id, data) SELECT t, $1, d::json FROM unnest($5::text[], $6::text[]) AS h(t, d)
                    ON CONFLICT (train_key, booking_id) DO UPDATE SET data = excluded.data),
           passes AS (INSERT INTO pass_uses (pass, booking_id, data) SELECT p, $1, d::json FROM unnest($7::text[], $8::text[]) AS u(p, d)
                    ON CONFLICT (pass, booking_id) DO UPDATE SET data = excluded.data),
           sold AS (INSERT INTO sold_passes (key, booking_id, data) SELECT k, $1, d::json FROM unnest($9::text[], $10::text[]) AS s(k, d)
                    ON CONFLICT (key, booking_id) DO UPDATE SET data = excluded.data)
           INSERT INTO fulfillments (id, booking_id) SELECT f, $1 FROM unnest($4::text[]) AS f ON CONFLICT (id) DO NOTHING`,
          // A new booking has nothing to free: only each index's keys and JSON.
          [b.id, b.owner, JSON.stringify(b), fulfillmentIds(b), ...holdings.slice(0, 2), ...passUses.slice(0, 2), ...soldPasses.slice(0, 2)],
        );
      } catch (e) {
        const err = e as { code?: string; constraint?: string };
        if (err.code === '23505' && err.constraint === 'bookings_pkey') throw new StoreConflict(b.id);
        throw e;
      }
    },

    async updateBooking(b, version) {
      const { holdings, passUses, soldPasses } = indexParams(b);
      // The version check and the write are the same statement. The fulfillment index is written only
      // when the update matched, so a loser's fulfillment ids never become reachable.
      const { rows } = await pool.query<{ updated: number }>(
        `WITH booking AS (
           UPDATE bookings SET data = $3::json, owner = $4, version = version + 1 WHERE id = $1 AND version = $2 RETURNING id
         ), indexed AS (
           INSERT INTO fulfillments (id, booking_id) SELECT f, booking.id FROM booking CROSS JOIN unnest($5::text[]) AS f
           ON CONFLICT (id) DO NOTHING
         ), held AS (
           INSERT INTO train_holdings (train_key, booking_id, data) SELECT t, booking.id, d::json FROM booking CROSS JOIN unnest($6::text[], $7::text[]) AS h(t, d)
           ON CONFLICT (train_key, booking_id) DO UPDATE SET data = excluded.data
         ), freed AS (
           DELETE FROM train_holdings WHERE booking_id = $1 AND train_key = ANY($8::text[]) AND EXISTS (SELECT 1 FROM booking)
         ), passes AS (
           INSERT INTO pass_uses (pass, booking_id, data) SELECT p, booking.id, d::json FROM booking CROSS JOIN unnest($9::text[], $10::text[]) AS u(p, d)
           ON CONFLICT (pass, booking_id) DO UPDATE SET data = excluded.data
         ), passes_ended AS (
           DELETE FROM pass_uses WHERE booking_id = $1 AND pass = ANY($11::text[]) AND EXISTS (SELECT 1 FROM booking)
         ), sold AS (
           INSERT INTO sold_passes (key, booking_id, data) SELECT k, booking.id, d::json FROM booking CROSS JOIN unnest($12::text[], $13::text[]) AS s(k, d)
           ON CONFLICT (key, booking_id) DO UPDATE SET data = excluded.data
         ), sold_ended AS (
           DELETE FROM sold_passes WHERE booking_id = $1 AND key = ANY($14::text[]) AND EXISTS (SELECT 1 FROM booking)
         )
         SELECT count(*)::int AS updated FROM booking`,
        [b.id, version, JSON.stringify(b), b.owner, fulfillmentIds(b), ...holdings, ...passUses, ...soldPasses],
      );
      if (rows[0]?.updated !== 1) throw new StoreConflict(b.id);
    },

    async bookingOfFulfillment(id) {
      const { rows } = await pool.query<{ booking_id: string }>('SELECT booking_id FROM fulfillments WHERE id = $1', [id]);
      return rows[0]?.booking_id;
    },

    async passUses(pass) {
      const { rows } = await pool.query<{ data: PassUse[] }>('SELECT data FROM pass_uses WHERE pass = $1', [pass]);
      return rows.flatMap((r) => r.data);
    },

    async soldPasses(key) {
      const { rows } = await pool.query<{ data: SoldPass }>('SELECT data FROM sold_passes WHERE key = $1', [key]);
      return rows.map((r) => r.data);
    },

    async lockTrains(keys, work) {
      // Session advisory locks, taken in one order by every process (no deadlock), released by unlocking, or by
      // PostgreSQL itself when the connection dies (a crashed process never keeps a train locked).
      const client = await lockPool.connect();
      let broken: Error | undefined;
      try {
        for (const key of [...new Set(keys)].sort()) await client.query('SELECT pg_advisory_lock(hashtext($1), hashtext($2))', [TRAIN_LOCK_SPACE, key]);
        return await work(NOTHING_IN_FLIGHT);
      } finally {
        await client.query('SELECT pg_advisory_unlock_all()').catch((e: Error) => {
          broken = e;
        });
        client.release(broken);
      }
    },

    async holdingsOnTrain(key) {
      const { rows } = await pool.query<{ data: TrainHoldings }>('SELECT data FROM train_holdings WHERE train_key = $1', [key]);
      return rows.map((r) => r.data);
    },

    async releases() {
      const { rows } = await pool.query<{ data: unknown }>('SELECT data FROM releases');
      return rows.map((row) => RuleRelease.parse(row.data));
    },
    async putRelease(release) {
      const { rowCount } = await pool.query('INSERT INTO releases (name, data) VALUES ($1, $2::json) ON CONFLICT (name) DO NOTHING', [
        release.name,
        JSON.stringify(release),
      ]);
      if (rowCount === 0) throw new ReleaseNameTaken(release.name);
    },
    async drafts() {
      const { rows } = await pool.query<{ id: string; version: number; data: unknown }>('SELECT id, version, data FROM release_drafts');
      return rows;
    },
    async putDraft({ id, version, data }) {
      const { rowCount } =
        version === 1
          ? await pool.query('INSERT INTO release_drafts (id, version, data) VALUES ($1, 1, $2::json) ON CONFLICT (id) DO NOTHING', [id, JSON.stringify(data)])
          : await pool.query('UPDATE release_drafts SET version = $1, data = $2::json WHERE id = $3 AND version = $4', [
              version,
              JSON.stringify(data),
              id,
              version - 1,
            ]);
      if (rowCount === 0) throw new DraftConflict(id);
    },
    async reset(owner) {
      if (owner === undefined) {
        await pool.query('TRUNCATE offers, bookings, fulfillments, train_holdings, pass_uses, sold_passes');
        return;
      }
      await pool.query(
        `WITH gone AS (DELETE FROM bookings WHERE owner = $1 RETURNING id),
              f AS (DELETE FROM fulfillments WHERE booking_id IN (SELECT id FROM gone)),
              h AS (DELETE FROM train_holdings WHERE booking_id IN (SELECT id FROM gone)),
              p AS (DELETE FROM pass_uses WHERE booking_id IN (SELECT id FROM gone))
         DELETE FROM sold_passes WHERE booking_id IN (SELECT id FROM gone)`,
        [owner],
      );
    },

    // Fastify's onClose and a test may both close the store; Pool.end() may only be called once.
    close: () => (closing ??= Promise.all([pool.end(), lockPool.end()]).then(() => {})),
  };
}

/**
 * The tables, created when missing. Two processes starting at once would race in CREATE TABLE IF NOT EXISTS
 * (PostgreSQL can then fail with a duplicate pg_type row), so creation is serialised by an advisory lock.
 */
async function createSchema(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['signalbox schema']);
    const fresh = await client.query<{ present: boolean }>(`SELECT to_regclass('train_holdings') IS NOT NULL AS present`);
    await client.query(`
      CREATE TABLE IF NOT EXISTS offers (id text PRIMARY KEY, owner text NOT NULL, bookable_until timestamptz NOT NULL, data json NOT NULL);
      CREATE TABLE IF NOT EXISTS bookings (id text PRIMARY KEY, owner text NOT NULL, version integer NOT NULL, data json NOT NULL);
      CREATE TABLE IF NOT EXISTS fulfillments (id text PRIMARY KEY, booking_id text NOT NULL);
      CREATE TABLE IF NOT EXISTS train_holdings (train_key text NOT NULL, booking_id text NOT NULL, data json NOT NULL, PRIMARY KEY (train_key, booking_id));
      CREATE TABLE IF NOT EXISTS pass_uses (pass text NOT NULL, booking_id text NOT NULL, data json NOT NULL, PRIMARY KEY (pass, booking_id));
      CREATE TABLE IF NOT EXISTS sold_passes (key text NOT NULL, booking_id text NOT NULL, data json NOT NULL, PRIMARY KEY (key, booking_id));
      CREATE TABLE IF NOT EXISTS releases (name text PRIMARY KEY, data json NOT NULL);
      CREATE TABLE IF NOT EXISTS release_drafts (id text PRIMARY KEY, version integer NOT NULL, data json NOT NULL);
      DROP TABLE IF EXISTS booking_trains;
    `);
    // A database written before the holdings index existed gets it built once, from its bookings.
    if (!fresh.rows[0]?.present) {
      const { rows } = await client.query<{ id: string; data: unknown }>('SELECT id, data FROM bookings');
      for (const { id, data } of rows) {
        for (const h of trainHoldingsOf(decodeStoredBooking(id, data))) {
          await client.query('INSERT INTO train_holdings (train_key, booking_id, data) VALUES ($1, $2, $3::json) ON CONFLICT DO NOTHING', [
            h.train,
            h.bookingId,
            JSON.stringify(h),
          ]);
        }
      }
    }
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}

/** The store's name as printed at start: never the password. */
function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    if (u.searchParams.has('password')) u.searchParams.set('password', '***');
    return u.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ':***@');
  }
}
