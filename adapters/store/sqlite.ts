import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Booking, StoredOffer } from '../../engine/index.ts';
import { trainKeysOfBooking } from '../../engine/seats/train.ts';

/** How long a quote is kept: far beyond its 30 minutes of bookability (CONTRACT §4a), then swept. */
const OFFERS_KEPT_MS = 4 * 60 * 60 * 1000;
import { StoreConflict, type Store } from './store.ts';

/**
 * The embedded default store: one SQLite file in WAL mode with synchronous=FULL, so a booking that was
 * acknowledged survives a crash of the process or the machine.
 */
export function sqliteStore(path: string): Store {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.exec(`
    CREATE TABLE IF NOT EXISTS bookings (id TEXT PRIMARY KEY, owner TEXT NOT NULL, version INTEGER NOT NULL, data TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS fulfillments (id TEXT PRIMARY KEY, booking_id TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS booking_trains (train_key TEXT NOT NULL, booking_id TEXT NOT NULL, PRIMARY KEY (train_key, booking_id));
  `);
  // Offers are quotes, not bookings: they live in the same file through a second connection that does not
  // wait for the disk (synchronous=OFF), so an offers request never stalls on an fsync; a crash may lose
  // the newest quotes, never a booking. Quotes older than OFFERS_KEPT_MS are swept now and then.
  db.exec('CREATE TABLE IF NOT EXISTS offer_quotes (id TEXT PRIMARY KEY, stored_at INTEGER NOT NULL, data TEXT NOT NULL)');
  const quotes = path === ':memory:' ? db : new Database(path);
  if (quotes !== db) quotes.pragma('synchronous = OFF');
  quotes.pragma('busy_timeout = 5000');
  const insertOffer = quotes.prepare('INSERT OR REPLACE INTO offer_quotes (id, stored_at, data) VALUES (?, ?, ?)');
  const selectOffer = quotes.prepare<[string], { data: string }>('SELECT data FROM offer_quotes WHERE id = ?');
  const sweepOffers = quotes.prepare('DELETE FROM offer_quotes WHERE stored_at < ?');
  let putsSinceSweep = 0;
  const putOffers = quotes.transaction((list: readonly StoredOffer[]) => {
    const now = Date.now();
    for (const o of list) insertOffer.run(o.offerId, now, JSON.stringify(o));
    if (++putsSinceSweep >= 1000) {
      putsSinceSweep = 0;
      sweepOffers.run(now - OFFERS_KEPT_MS);
    }
  });
  const selectBooking = db.prepare<[string], { data: string; version: number }>('SELECT data, version FROM bookings WHERE id = ?');
  const insertBooking = db.prepare('INSERT INTO bookings (id, owner, version, data) VALUES (?, ?, 1, ?)');
  const updateBooking = db.prepare('UPDATE bookings SET data = ?, version = version + 1 WHERE id = ? AND version = ?');
  const indexFulfillment = db.prepare('INSERT OR IGNORE INTO fulfillments (id, booking_id) VALUES (?, ?)');
  const selectFulfillment = db.prepare<[string], { booking_id: string }>('SELECT booking_id FROM fulfillments WHERE id = ?');
  const indexTrain = db.prepare('INSERT OR IGNORE INTO booking_trains (train_key, booking_id) VALUES (?, ?)');
  const selectOnTrain = db.prepare<[string], { data: string }>('SELECT b.data FROM booking_trains t JOIN bookings b ON b.id = t.booking_id WHERE t.train_key = ?');
  const index = (b: Booking) => {
    for (const f of b.fulfillments) indexFulfillment.run(f.id, b.id);
    for (const key of trainKeysOfBooking(b)) indexTrain.run(key, b.id);
  };

  const insert = db.transaction((b: Booking) => {
    try {
      insertBooking.run(b.id, b.owner, JSON.stringify(b));
    } catch (e) {
      if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw new StoreConflict(b.id);
      throw e;
    }
    index(b);
  });
  const update = db.transaction((b: Booking, version: number) => {
    if (updateBooking.run(JSON.stringify(b), b.id, version).changes !== 1) throw new StoreConflict(b.id);
    index(b);
  });

  return {
    kind: `sqlite:${path}`,
    // Offers are quotes, not bookings: a durable commit per offer request would stall every other request.
    async putOffers(list) { putOffers(list); },
    async getOffers(ids) {
      const out = new Map<string, StoredOffer>();
      for (const id of ids) {
        const row = selectOffer.get(id);
        if (row) out.set(id, JSON.parse(row.data) as StoredOffer);
      }
      return out;
    },
    async getBooking(id) {
      const row = selectBooking.get(id);
      return row ? { booking: JSON.parse(row.data) as Booking, version: row.version } : undefined;
    },
    async insertBooking(b) { insert(b); },
    async updateBooking(b, version) { update(b, version); },
    async bookingOfFulfillment(id) { return selectFulfillment.get(id)?.booking_id; },
    async bookingsOnTrain(key) { return selectOnTrain.all(key).map((row) => JSON.parse(row.data) as Booking); },
    async reset() { db.exec('DELETE FROM offer_quotes; DELETE FROM bookings; DELETE FROM fulfillments; DELETE FROM booking_trains;'); },
    async close() {
      if (quotes !== db) quotes.close();
      db.close();
    },
  };
}
