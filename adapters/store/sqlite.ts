import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Booking } from '../../engine/index.ts';
import { offerCache } from './offer-cache.ts';
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
  `);
  const offers = offerCache();
  const selectBooking = db.prepare<[string], { data: string; version: number }>('SELECT data, version FROM bookings WHERE id = ?');
  const insertBooking = db.prepare('INSERT INTO bookings (id, owner, version, data) VALUES (?, ?, 1, ?)');
  const updateBooking = db.prepare('UPDATE bookings SET data = ?, version = version + 1 WHERE id = ? AND version = ?');
  const indexFulfillment = db.prepare('INSERT OR IGNORE INTO fulfillments (id, booking_id) VALUES (?, ?)');
  const selectFulfillment = db.prepare<[string], { booking_id: string }>('SELECT booking_id FROM fulfillments WHERE id = ?');
  const index = (b: Booking) => { for (const f of b.fulfillments) indexFulfillment.run(f.id, b.id); };

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
    async putOffers(list) { offers.put(list); },
    async getOffers(ids) { return offers.get(ids); },
    async getBooking(id) {
      const row = selectBooking.get(id);
      return row ? { booking: JSON.parse(row.data) as Booking, version: row.version } : undefined;
    },
    async insertBooking(b) { insert(b); },
    async updateBooking(b, version) { update(b, version); },
    async bookingOfFulfillment(id) { return selectFulfillment.get(id)?.booking_id; },
    async reset() { offers.clear(); db.exec('DELETE FROM bookings; DELETE FROM fulfillments;'); },
    async close() { db.close(); },
  };
}
