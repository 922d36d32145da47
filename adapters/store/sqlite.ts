import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { trainHoldingsOf, trainKeysOfBooking, type Booking, type StoredOffer, type TrainHoldings } from '../../engine/index.ts';
import { decodeBooking, encodeBooking } from './booking-rows.ts';
import { StoreConflict, type Store } from './store.ts';

/** How long a quote is kept: far beyond its 30 minutes of bookability (CONTRACT §4a), then swept. */
const OFFERS_KEPT_MS = 4 * 60 * 60 * 1000;
/** Quote writes between two sweeps of old quotes. */
const SWEEP_EVERY = 1000;

type Write = { booking: Booking; version?: number; done: () => void; failed: (e: unknown) => void };

/**
 * The embedded default store: one SQLite file in WAL mode with synchronous=FULL, so a booking that was
 * acknowledged survives a crash of the process or the machine.
 *
 * Group commit: better-sqlite3 is synchronous, so every fsync stops the whole process. Booking writes that
 * arrive while the event loop is busy are queued and committed together, in one transaction with one fsync,
 * at the end of the loop's turn (setImmediate); each write's promise resolves only after that commit, so
 * "acknowledged" still means "on disk". Each write keeps its own verdict inside the batch: an insert of an
 * existing id or an update at a stale version fails alone (StoreConflict) and writes nothing.
 */
export function sqliteStore(path: string): Store {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  const fresh = !db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'train_holdings'").get();
  db.exec(`
    CREATE TABLE IF NOT EXISTS bookings (id TEXT PRIMARY KEY, owner TEXT NOT NULL, version INTEGER NOT NULL, data BLOB NOT NULL);
    CREATE TABLE IF NOT EXISTS fulfillments (id TEXT PRIMARY KEY, booking_id TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS train_holdings (train_key TEXT NOT NULL, booking_id TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (train_key, booking_id));
    DROP TABLE IF EXISTS booking_trains;
  `);
  // Offers are quotes, not bookings: they live in the same file through a second connection that does not
  // wait for the disk (synchronous=OFF), written behind in batches, so an offers request never stalls on an
  // fsync; a crash may lose the newest quotes, never a booking. Quotes older than OFFERS_KEPT_MS are swept.
  db.exec('CREATE TABLE IF NOT EXISTS offer_quotes (id TEXT PRIMARY KEY, stored_at INTEGER NOT NULL, data TEXT NOT NULL)');
  const quotes = path === ':memory:' ? db : new Database(path);
  if (quotes !== db) quotes.pragma('synchronous = OFF');
  quotes.pragma('busy_timeout = 5000');
  const insertOffer = quotes.prepare('INSERT OR REPLACE INTO offer_quotes (id, stored_at, data) VALUES (?, ?, ?)');
  const selectOffer = quotes.prepare<[string], { data: string }>('SELECT data FROM offer_quotes WHERE id = ?');
  const sweepOffers = quotes.prepare('DELETE FROM offer_quotes WHERE stored_at < ?');
  const selectBooking = db.prepare<[string], { data: Buffer | string; version: number }>('SELECT data, version FROM bookings WHERE id = ?');
  const insertBooking = db.prepare('INSERT INTO bookings (id, owner, version, data) VALUES (?, ?, 1, ?)');
  const updateBooking = db.prepare('UPDATE bookings SET data = ?, version = version + 1 WHERE id = ? AND version = ?');
  const indexFulfillment = db.prepare('INSERT OR IGNORE INTO fulfillments (id, booking_id) VALUES (?, ?)');
  const selectFulfillment = db.prepare<[string], { booking_id: string }>('SELECT booking_id FROM fulfillments WHERE id = ?');
  const putHoldings = db.prepare('INSERT OR REPLACE INTO train_holdings (train_key, booking_id, data) VALUES (?, ?, ?)');
  const dropHoldings = db.prepare('DELETE FROM train_holdings WHERE train_key = ? AND booking_id = ?');
  const selectHoldings = db.prepare<[string], { data: string }>('SELECT data FROM train_holdings WHERE train_key = ?');

  /** The fulfillment index and what the booking holds per train: one row per train it holds places on. */
  const index = (b: Booking) => {
    for (const f of b.fulfillments) indexFulfillment.run(f.id, b.id);
    const held = new Map(trainHoldingsOf(b).map((h) => [h.train, h]));
    for (const key of trainKeysOfBooking(b)) {
      const h = held.get(key);
      if (h) putHoldings.run(key, b.id, JSON.stringify(h));
      else dropHoldings.run(key, b.id);
    }
  };
  // A file written before the holdings index existed gets it built once, from its bookings.
  if (fresh) {
    db.transaction(() => {
      for (const row of db.prepare<[], { data: Buffer | string }>('SELECT data FROM bookings').iterate()) index(decodeBooking(row.data));
    })();
  }

  /** Applies one queued write inside the batch's transaction; its verdict is kept for after the commit. */
  const apply = (w: Write): StoreConflict | undefined => {
    const b = w.booking;
    if (w.version === undefined) {
      try {
        insertBooking.run(b.id, b.owner, encodeBooking(b));
      } catch (e) {
        if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return new StoreConflict(b.id);
        throw e;
      }
    } else if (updateBooking.run(encodeBooking(b), b.id, w.version).changes !== 1) {
      return new StoreConflict(b.id);
    }
    index(b);
    return undefined;
  };
  let queue: Write[] = [];
  const commitBatch = db.transaction((batch: Write[]) => batch.map(apply));
  let closed = false;
  const flush = () => {
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    let verdicts: Array<StoreConflict | undefined>;
    try {
      verdicts = commitBatch(batch);
    } catch (e) {
      // The transaction rolled back as a whole (disk full, I/O error): nothing of the batch is stored.
      for (const w of batch) w.failed(e);
      return;
    }
    batch.forEach((w, i) => (verdicts[i] ? w.failed(verdicts[i]) : w.done()));
  };
  const write = (booking: Booking, version?: number) => new Promise<void>((done, failed) => {
    if (closed) throw new Error(`the store ${path} is closed`);
    if (queue.length === 0) setImmediate(flush);
    queue.push({ booking, ...(version === undefined ? {} : { version }), done, failed });
  });

  // Quotes waiting to be written, readable meanwhile.
  let pendingQuotes = new Map<string, string>();
  let quotesSinceSweep = 0;
  const writeQuotes = quotes.transaction((batch: Map<string, string>) => {
    const now = Date.now();
    for (const [id, data] of batch) insertOffer.run(id, now, data);
    quotesSinceSweep += batch.size;
    if (quotesSinceSweep >= SWEEP_EVERY) {
      quotesSinceSweep = 0;
      sweepOffers.run(now - OFFERS_KEPT_MS);
    }
  });
  let quotesScheduled = false;
  const flushQuotes = () => {
    quotesScheduled = false;
    if (closed || pendingQuotes.size === 0) return;
    try {
      writeQuotes(pendingQuotes);
      pendingQuotes = new Map();
    } catch (e) {
      // Quotes stay readable from memory; the next batch tries again. Never a crash from a timer.
      process.stderr.write(`signalbox: could not write offers to ${path}: ${(e as Error).message}\n`);
    }
  };

  return {
    kind: `sqlite:${path}`,
    async putOffers(list) {
      if (list.length === 0) return;
      if (!quotesScheduled) {
        quotesScheduled = true;
        setImmediate(flushQuotes);
      }
      for (const o of list) pendingQuotes.set(o.offerId, JSON.stringify(o));
    },
    async getOffers(ids) {
      const out = new Map<string, StoredOffer>();
      for (const id of ids) {
        const data = pendingQuotes.get(id) ?? selectOffer.get(id)?.data;
        if (data) out.set(id, JSON.parse(data) as StoredOffer);
      }
      return out;
    },
    async getBooking(id) {
      const row = selectBooking.get(id);
      return row ? { booking: decodeBooking(row.data), version: row.version } : undefined;
    },
    insertBooking: (b) => write(b),
    updateBooking: (b, version) => write(b, version),
    async bookingOfFulfillment(id) { return selectFulfillment.get(id)?.booking_id; },
    async holdingsOnTrain(key) { return selectHoldings.all(key).map((row) => JSON.parse(row.data) as TrainHoldings); },
    async reset() {
      pendingQuotes.clear();
      db.exec('DELETE FROM offer_quotes; DELETE FROM bookings; DELETE FROM fulfillments; DELETE FROM train_holdings;');
    },
    async close() {
      flush();
      flushQuotes();
      closed = true;
      if (quotes !== db) quotes.close();
      db.close();
    },
  };
}
