import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { RuleRelease, trainHoldingsOf, type Booking, type PassUse, type SoldPass, type StoredOffer, type TrainHoldings } from '../../engine/index.ts';
import { indexRowsOf } from './booking-index.ts';
import { decodeBooking, LEVEL, TEXT_UP_TO } from './booking-rows.ts';
import { quotesFile } from './sqlite-quotes.ts';
import { inTransaction } from './sqlite-transaction.ts';
import { DraftConflict, ReleaseNameTaken, StoreConflict, type Store } from './store.ts';

/** Bookings kept as the JSON text last written: a sale's next requests read the booking just written. */
const RECENT_BOOKINGS = 1000;

/** A booking write as the writer thread takes it (adapters/store/sqlite-writer.cjs). */
interface BookingWrite {
  id: string;
  owner: string;
  version?: number;
  json: string;
  fulfillmentIds: string[];
  /** [train key, TrainHoldings JSON] for each train the booking holds places on. */
  holdings: Array<[string, string]>;
  /** Trains the booking touched and holds nothing on any more. */
  freed: string[];
  /** [pass, PassUse[] JSON] for each travel pass the booking's admissions use now. */
  passUses: Array<[string, string]>;
  /** Passes the booking's admissions were paid with and use no more. */
  passesFreed: string[];
  /** [key, SoldPass JSON] for the pass the booking sold, while it is valid. */
  soldPasses: Array<[string, string]>;
  /** Keys of a pass the booking sold and that is no more (refunded). */
  soldPassesFreed: string[];
}

type WriterMessage =
  { kind: 'written'; results: Array<[number, 'ok' | 'conflict' | 'failed', string?]> } | { kind: 'reset-done'; id: number } | { kind: 'closed' };

/** A booking and its index rows: fulfillments, what it holds per train, what each of its travel passes pays for. */
function writeOf(b: Booking, version?: number): BookingWrite {
  const rows = indexRowsOf(b);
  return {
    id: b.id,
    owner: b.owner,
    ...(version === undefined ? {} : { version }),
    json: JSON.stringify(b),
    fulfillmentIds: b.fulfillments.map((f) => f.id),
    holdings: rows.holdings,
    freed: rows.freedTrains,
    passUses: rows.passUses,
    passesFreed: rows.freedPasses,
    soldPasses: rows.soldPasses,
    soldPassesFreed: rows.freedSoldPasses,
  };
}

/**
 * The embedded default store: one SQLite file in WAL mode with synchronous=FULL, so a booking that was
 * acknowledged survives a crash of the process or the machine.
 *
 * Reads and offer quotes run on the serving thread; booking writes on a writer thread of their own
 * (sqlite-writer.cjs), which commits the writes that queue up while it is busy in one transaction with one fsync
 * (group commit) and answers each only after that commit, so "acknowledged" still means "on disk", and no request
 * waits behind another's fsync. Each write keeps its own verdict inside a batch: an insert of an existing id or an
 * update at a stale version fails alone (StoreConflict) and writes nothing. One process owns the file (CONTRACT
 * §1: several processes share PostgreSQL, not SQLite).
 */
export interface SqliteOptions {
  /**
   * Other processes read this file too (`serve --workers N`): a quote is committed before putOffers returns, so a
   * booking another process serves right after finds it. Alone, quotes are written after the answer.
   */
  shared?: boolean;
}

export function sqliteStore(path: string, options: SqliteOptions = {}): Store {
  if (path === ':memory:' || path === '') throw new Error('the SQLite store needs a file; for a store in memory use --store memory');
  mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path);
  // Waiting for a lock comes first: setting WAL needs one, and another process (a worker) may be opening the file.
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA journal_mode = WAL');
  const fresh = !db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'train_holdings'").get();
  db.exec(`
    CREATE TABLE IF NOT EXISTS bookings (id TEXT PRIMARY KEY, owner TEXT NOT NULL, version INTEGER NOT NULL, data BLOB NOT NULL);
    CREATE TABLE IF NOT EXISTS fulfillments (id TEXT PRIMARY KEY, booking_id TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS train_holdings (train_key TEXT NOT NULL, booking_id TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (train_key, booking_id));
    CREATE TABLE IF NOT EXISTS pass_uses (pass TEXT NOT NULL, booking_id TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (pass, booking_id));
    CREATE TABLE IF NOT EXISTS sold_passes (key TEXT NOT NULL, booking_id TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (key, booking_id));
    CREATE TABLE IF NOT EXISTS releases (name TEXT PRIMARY KEY, data TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS release_drafts (id TEXT PRIMARY KEY, version INTEGER NOT NULL, data TEXT NOT NULL);
    DROP TABLE IF EXISTS offer_quotes;
    DROP TABLE IF EXISTS booking_trains;
  `);
  // A file written before the holdings index existed gets it built once, from its bookings (before any writer runs).
  if (fresh) {
    const put = db.prepare('INSERT OR REPLACE INTO train_holdings (train_key, booking_id, data) VALUES (?, ?, ?)');
    db.exec('PRAGMA synchronous = FULL');
    inTransaction(db, () => {
      for (const row of db.prepare('SELECT id, data FROM bookings').iterate() as Iterable<{ id: string; data: Uint8Array | string }>) {
        for (const h of trainHoldingsOf(decodeBooking(row.id, row.data))) put.run(h.train, h.bookingId, JSON.stringify(h));
      }
    });
  }
  // Offers are quotes, not bookings: a file of their own beside the bookings (adapters/store/sqlite-quotes.ts).
  const quotes = quotesFile(`${path}-offers`);
  // node:sqlite types a row as any SQL values by column name: each read below says which columns it selected.
  const selectBooking = db.prepare('SELECT data, version FROM bookings WHERE id = ?');
  const selectVersion = db.prepare('SELECT version FROM bookings WHERE id = ?');
  const selectFulfillment = db.prepare('SELECT booking_id FROM fulfillments WHERE id = ?');
  const selectHoldings = db.prepare('SELECT data FROM train_holdings WHERE train_key = ?');
  const selectPassUses = db.prepare('SELECT data FROM pass_uses WHERE pass = ?');
  const selectSoldPasses = db.prepare('SELECT data FROM sold_passes WHERE key = ?');
  const selectReleases = db.prepare('SELECT data FROM releases');
  // Releases are rare writes, made on this connection: SQLite waits for the writer thread's lock (busy_timeout).
  const insertRelease = db.prepare('INSERT INTO releases (name, data) VALUES (?, ?) ON CONFLICT (name) DO NOTHING');
  const selectDrafts = db.prepare('SELECT id, version, data FROM release_drafts');
  const insertDraft = db.prepare('INSERT INTO release_drafts (id, version, data) VALUES (?, 1, ?) ON CONFLICT (id) DO NOTHING');
  const updateDraft = db.prepare('UPDATE release_drafts SET version = ?, data = ? WHERE id = ? AND version = ?');

  const writer = new Worker(new URL('./sqlite-writer.cjs', import.meta.url), { workerData: { path, level: LEVEL, textUpTo: TEXT_UP_TO } });
  let broken: Error | undefined;
  let nextId = 0;
  const pending = new Map<number, { done: () => void; failed: (e: Error) => void; bookingId: string }>();
  const resets = new Map<number, () => void>();
  // Quotes of this turn of the event loop, written together at its end and readable meanwhile.
  let pendingQuotes = new Map<string, string>();
  let quotesScheduled = false;
  // Shared: the callers of this turn's putOffers, answered once their batch is committed.
  let quotesWritten: PromiseWithResolvers<void> | undefined;
  const flushQuotes = () => {
    quotesScheduled = false;
    const callers = quotesWritten;
    quotesWritten = undefined;
    if (pendingQuotes.size === 0 || !quotes.isOpen) return callers?.resolve();
    try {
      quotes.write(pendingQuotes);
      pendingQuotes = new Map();
      callers?.resolve();
    } catch (e) {
      // They stay readable from memory and go with the next batch; a timer never crashes the server.
      process.stderr.write(`signalbox: could not write offers to ${path}: ${(e as Error).message}\n`);
      callers?.reject(new Error(`could not write offers to ${path}: ${(e as Error).message}`));
    }
  };
  let closed: (() => void) | undefined;

  writer.on('message', (m: WriterMessage) => {
    if (m.kind === 'written') {
      for (const [id, verdict, message] of m.results) {
        const p = pending.get(id);
        pending.delete(id);
        if (!p) continue;
        if (verdict === 'ok') p.done();
        else if (verdict === 'conflict') p.failed(new StoreConflict(p.bookingId));
        else p.failed(new Error(`could not write to ${path}: ${message}`));
      }
    } else if (m.kind === 'reset-done') {
      resets.get(m.id)?.();
      resets.delete(m.id);
    } else if (m.kind === 'closed') closed?.();
  });
  const fail = (e: Error) => {
    broken = e;
    for (const p of pending.values()) p.failed(e);
    pending.clear();
    for (const r of resets.values()) r();
    resets.clear();
    closed?.();
  };
  writer.on('error', (e: Error) => fail(new Error(`the SQLite writer of ${path} stopped: ${e.message}`)));
  writer.on('exit', () => fail(broken ?? new Error(`the SQLite writer of ${path} has exited`)));

  // The bookings this handle last committed, as the JSON text it wrote: while the file still holds that version, a
  // read is a JSON.parse of it, without reading and inflating the row (a sale's next requests read the booking just
  // written). A failed write drops its booking's entry. Text, not objects: readers get copies (the store contract).
  const recent = new Map<string, { json: string; version: number }>();
  const remember = (id: string, json: string, version: number) => {
    recent.delete(id); // re-inserted at the end: the oldest write goes first
    recent.set(id, { json, version });
    if (recent.size > RECENT_BOOKINGS) recent.delete(recent.keys().next().value!);
  };
  // The writes of one turn of the event loop go to the writer thread in one message, at the turn's end: each message
  // wakes the thread (and its answer this one), which costs more than the copy of the write itself.
  let outbox: Array<{ id: number; booking: BookingWrite }> = [];
  const post = () => {
    if (outbox.length === 0) return;
    writer.postMessage({ kind: 'write', writes: outbox });
    outbox = [];
  };
  const write = (b: Booking, version?: number) =>
    new Promise<void>((done, failed) => {
      if (broken) return failed(broken);
      const id = ++nextId;
      const booking = writeOf(b, version);
      pending.set(id, {
        done: () => {
          remember(b.id, booking.json, (version ?? 0) + 1);
          done();
        },
        failed: (e) => {
          recent.delete(b.id);
          failed(e);
        },
        bookingId: b.id,
      });
      if (outbox.length === 0) setImmediate(post);
      outbox.push({ id, booking });
    });

  return {
    kind: `sqlite:${path}`,
    async putOffers(list) {
      if (list.length === 0) return;
      for (const o of list) pendingQuotes.set(o.offerId, JSON.stringify(o));
      if (!quotesScheduled) {
        quotesScheduled = true;
        setImmediate(flushQuotes);
      }
      if (options.shared) return (quotesWritten ??= Promise.withResolvers()).promise;
    },
    async getOffers(ids) {
      const out = new Map<string, StoredOffer>();
      for (const id of ids) {
        const data = pendingQuotes.get(id) ?? quotes.read(id);
        if (data) out.set(id, JSON.parse(data) as StoredOffer);
      }
      return out;
    },
    async getBooking(id) {
      const known = recent.get(id);
      // Another handle on the file may have written since: the text serves only while the file holds its version.
      if (known && (selectVersion.get(id) as { version: number } | undefined)?.version === known.version)
        // The text this process wrote from the engine's booking: read back as it is, not checked again.
        return { booking: JSON.parse(known.json) as Booking, version: known.version };
      const row = selectBooking.get(id) as { data: Uint8Array | string; version: number } | undefined;
      return row ? { booking: decodeBooking(id, row.data), version: row.version } : undefined;
    },
    insertBooking: (b) => write(b),
    updateBooking: (b, version) => write(b, version),
    async bookingOfFulfillment(id) {
      return (selectFulfillment.get(id) as { booking_id: string } | undefined)?.booking_id;
    },
    async holdingsOnTrain(key) {
      return (selectHoldings.all(key) as Array<{ data: string }>).map((row) => JSON.parse(row.data) as TrainHoldings);
    },
    async passUses(pass) {
      return (selectPassUses.all(pass) as Array<{ data: string }>).flatMap((row) => JSON.parse(row.data) as PassUse[]);
    },
    async soldPasses(key) {
      return (selectSoldPasses.all(key) as Array<{ data: string }>).map((row) => JSON.parse(row.data) as SoldPass);
    },
    async releases() {
      return (selectReleases.all() as Array<{ data: string }>).map((row) => RuleRelease.parse(JSON.parse(row.data)));
    },
    async putRelease(release) {
      if (insertRelease.run(release.name, JSON.stringify(release)).changes === 0) throw new ReleaseNameTaken(release.name);
    },
    async drafts() {
      return (selectDrafts.all() as Array<{ id: string; version: number; data: string }>).map((row) => ({ ...row, data: JSON.parse(row.data) as unknown }));
    },
    async putDraft({ id, version, data }) {
      const written = version === 1 ? insertDraft.run(id, JSON.stringify(data)) : updateDraft.run(version, JSON.stringify(data), id, version - 1);
      if (written.changes === 0) throw new DraftConflict(id);
    },
    async reset(owner) {
      if (broken) throw broken;
      if (owner === undefined) {
        pendingQuotes.clear();
        quotes.clear();
      }
      const id = ++nextId;
      await new Promise<void>((resolve) => {
        resets.set(id, resolve);
        post(); // the writes queued before the reset go first
        writer.postMessage({ kind: 'reset', id, ...(owner !== undefined ? { owner } : {}) });
      });
      recent.clear(); // after the writes queued before the reset have settled
    },
    async close() {
      if (!broken) {
        // The writer commits what it has, closes its connections and answers; then the thread ends.
        await new Promise<void>((resolve) => {
          closed = resolve;
          post();
          writer.postMessage({ kind: 'close' });
        });
        broken = new Error(`the store ${path} is closed`);
      }
      await writer.terminate();
      flushQuotes();
      quotes.close();
      db.close();
    },
  };
}
