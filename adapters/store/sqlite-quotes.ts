import { DatabaseSync } from 'node:sqlite';
import { inTransaction } from './sqlite-transaction.ts';
import { OFFERS_KEPT_MS } from './store.ts';

/**
 * About how many bytes of quotes a process keeps in the quotes file before it forgets the oldest: more than the
 * memory store's ring (disk is cheaper than memory), and bounded, because in a file that only grows every quote
 * cost more to write the larger the file became (docs/performance.md). With several workers on one file, each
 * forgets what is older than its own last `MAX_QUOTE_BYTES`, so the file holds about that much per worker.
 */
const MAX_QUOTE_BYTES = 256 * 1024 * 1024;
/** The quotes are forgotten in this many steps: each step deletes about a 256th of them, a short pause at most. */
const STEPS = 256;

interface Mark {
  /** When the quote with this row id was written (the real clock). */
  at: number;
  rowid: number | bigint;
}

/**
 * The SQLite store's quotes: offers are quotes, not bookings, so they live in a file of their own beside the
 * bookings, written in batches without waiting for the disk (a crash may lose the newest quotes, never a booking).
 * A file of their own, because SQLite lets one connection write a file at a time: quotes written into the bookings'
 * file would wait for the writer thread's fsyncs.
 *
 * Rows are appended in the order they are written (SQLite gives each the next row id), so what is forgotten is always
 * the oldest rows, a range of row ids: the file's pages are then reused for new quotes instead of the file growing,
 * and no index on the time is needed. A quote is forgotten once it is older than OFFERS_KEPT_MS or once this process
 * has written `maxBytes` of newer ones. Offer ids are time-ordered UUIDs (`adapters/service/ids.ts`), so the id
 * index too is written at its end.
 */
export function quotesFile(path: string, maxBytes = MAX_QUOTE_BYTES) {
  const db = new DatabaseSync(path);
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = OFF');
  db.exec('CREATE TABLE IF NOT EXISTS offer_quotes (id TEXT PRIMARY KEY, stored_at INTEGER NOT NULL, data TEXT NOT NULL)');
  // Files written by earlier versions found old quotes by this index.
  db.exec('DROP INDEX IF EXISTS offer_quotes_stored_at');
  const select = db.prepare('SELECT data FROM offer_quotes WHERE id = ?');
  const insert = db.prepare('INSERT OR REPLACE INTO offer_quotes (id, stored_at, data) VALUES (?, ?, ?)');
  const forget = db.prepare('DELETE FROM offer_quotes WHERE rowid <= ?');
  const stepBytes = Math.max(1, Math.floor(maxBytes / STEPS));

  // The newest row of an earlier run (or of another worker) marks everything before it as written by then.
  const newest = db.prepare('SELECT rowid, stored_at FROM offer_quotes ORDER BY rowid DESC LIMIT 1').get() as { rowid: number; stored_at: number } | undefined;
  /** Oldest first: one mark per step's worth of quotes written. */
  const marks: Mark[] = newest ? [{ at: newest.stored_at, rowid: newest.rowid }] : [];
  /** The last batch written. */
  let last: Mark | undefined = marks[0];
  let bytesSinceMark = 0;

  return {
    /** Writes a batch of quotes (id → JSON text) in one transaction, and forgets old ones when a step is full. */
    write(batch: ReadonlyMap<string, string>) {
      inTransaction(db, () => {
        const at = Date.now();
        // After a pause longer than quotes are kept, everything written before it goes at once.
        if (last && last.at < at - OFFERS_KEPT_MS) {
          forget.run(last.rowid);
          marks.length = 0;
        }
        let rowid: number | bigint = 0;
        for (const [id, data] of batch) {
          rowid = insert.run(id, at, data).lastInsertRowid;
          bytesSinceMark += data.length;
        }
        last = { at, rowid };
        if (bytesSinceMark < stepBytes) return;
        bytesSinceMark = 0;
        marks.push(last);
        let upTo: Mark | undefined;
        while (marks.length > STEPS || marks[0]!.at < at - OFFERS_KEPT_MS) upTo = marks.shift();
        if (upTo) forget.run(upTo.rowid);
      });
    },
    read(id: string): string | undefined {
      return (select.get(id) as { data: string } | undefined)?.data;
    },
    clear() {
      db.exec('DELETE FROM offer_quotes');
      marks.length = 0;
      last = undefined;
      bytesSinceMark = 0;
    },
    get isOpen() {
      return db.isOpen;
    },
    close() {
      db.close();
    },
  };
}
