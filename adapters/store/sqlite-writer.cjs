'use strict';
/**
 * The SQLite store's writer thread (adapters/store/sqlite.ts). node:sqlite is synchronous: a durable commit
 * stops its thread until the disk has the data (fsync). Here that thread is not the one serving requests: the
 * server's thread hands each booking write over and goes on serving; this thread commits the writes that
 * queued up meanwhile in one transaction (group commit) and answers each only after that commit.
 *
 * Plain CommonJS on purpose: a worker thread loads its file with Node's own loader, whether the server runs from
 * the TypeScript sources (tsx), under vitest or from dist/, so this file must need no TypeScript loader.
 *
 * Messages in:  { kind: 'write', writes: [{ id, booking: { id, owner, version?, json, fulfillmentIds, holdings, freed, passUses, passesFreed, soldPasses, soldPassesFreed } }, …] }
 *               { kind: 'reset', id, owner? }   { kind: 'close' }
 * Messages out: { kind: 'written', results: [[id, 'ok' | 'conflict' | 'failed', message?], …] }
 *               { kind: 'reset-done', id }   { kind: 'closed' }
 */
const { parentPort, workerData } = require('node:worker_threads');
const { deflateRawSync } = require('node:zlib');
const { DatabaseSync } = require('node:sqlite');

const { path, level, textUpTo } = workerData;
/** SQLite's extended result code for a duplicate primary key (sqlite3.h), as node:sqlite reports it in `errcode`. */
const SQLITE_CONSTRAINT_PRIMARYKEY = 1555;

const db = new DatabaseSync(path);
db.exec('PRAGMA busy_timeout = 5000'); // before WAL, which needs a lock another process may hold
db.exec('PRAGMA journal_mode = WAL');
db.exec('PRAGMA synchronous = FULL');

const insertBooking = db.prepare('INSERT INTO bookings (id, owner, version, data) VALUES (?, ?, 1, ?)');
const updateBooking = db.prepare('UPDATE bookings SET data = ?, version = version + 1 WHERE id = ? AND version = ?');
const indexFulfillment = db.prepare('INSERT OR IGNORE INTO fulfillments (id, booking_id) VALUES (?, ?)');
const putHoldings = db.prepare('INSERT OR REPLACE INTO train_holdings (train_key, booking_id, data) VALUES (?, ?, ?)');
const dropHoldings = db.prepare('DELETE FROM train_holdings WHERE train_key = ? AND booking_id = ?');
const putPassUses = db.prepare('INSERT OR REPLACE INTO pass_uses (pass, booking_id, data) VALUES (?, ?, ?)');
const dropPassUses = db.prepare('DELETE FROM pass_uses WHERE pass = ? AND booking_id = ?');
const putSoldPass = db.prepare('INSERT OR REPLACE INTO sold_passes (key, booking_id, data) VALUES (?, ?, ?)');
const dropSoldPass = db.prepare('DELETE FROM sold_passes WHERE key = ? AND booking_id = ?');

/** One write inside the batch's transaction: its first statement decides; on a conflict it writes nothing. */
function apply(b) {
  // As booking-rows.ts encodeBookingJson: text while it fits in a page, deflated beyond.
  const data = Buffer.byteLength(b.json) <= textUpTo ? b.json : deflateRawSync(b.json, { level });
  if (b.version === undefined) {
    try {
      insertBooking.run(b.id, b.owner, data);
    } catch (e) {
      if (e && e.errcode === SQLITE_CONSTRAINT_PRIMARYKEY) return 'conflict';
      throw e;
    }
  } else if (updateBooking.run(data, b.id, b.version).changes !== 1) {
    return 'conflict';
  }
  for (const f of b.fulfillmentIds) indexFulfillment.run(f, b.id);
  for (const [train, json] of b.holdings) putHoldings.run(train, b.id, json);
  for (const train of b.freed) dropHoldings.run(train, b.id);
  for (const [pass, json] of b.passUses) putPassUses.run(pass, b.id, json);
  for (const pass of b.passesFreed) dropPassUses.run(pass, b.id);
  for (const [key, json] of b.soldPasses) putSoldPass.run(key, b.id, json);
  for (const key of b.soldPassesFreed) dropSoldPass.run(key, b.id);
  return 'ok';
}
/** Runs `work` in one transaction (one fsync): committed as a whole, or rolled back as a whole if anything throws. */
function inTransaction(work) {
  db.exec('BEGIN');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (e) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw e;
  }
}
const commit = (batch) => inTransaction(() => batch.map((w) => apply(w.booking)));

let queue = [];
function flush() {
  const batch = queue;
  queue = [];
  if (batch.length === 0) return;
  let verdicts;
  try {
    verdicts = commit(batch);
  } catch (e) {
    // The transaction rolled back as a whole (disk full, I/O error): nothing of the batch is stored.
    parentPort.postMessage({ kind: 'written', results: batch.map((w) => [w.id, 'failed', String(e && e.message)]) });
    return;
  }
  parentPort.postMessage({ kind: 'written', results: batch.map((w, i) => [w.id, verdicts[i]]) });
}

parentPort.on('message', (m) => {
  if (m.kind === 'write') {
    // Everything that arrives while this thread is busy (committing the previous batch) joins the next batch.
    if (queue.length === 0) setImmediate(flush);
    for (const w of m.writes) queue.push(w);
  } else if (m.kind === 'reset') {
    // After the writes before it, so that nothing written before a reset survives it.
    flush();
    if (m.owner === undefined) {
      db.exec('DELETE FROM bookings; DELETE FROM fulfillments; DELETE FROM train_holdings; DELETE FROM pass_uses; DELETE FROM sold_passes;');
    } else {
      // One client's bookings, and what the indexes keep of them (a client's reset on a shared sandbox).
      inTransaction(() => {
        for (const table of ['fulfillments', 'train_holdings', 'pass_uses', 'sold_passes']) {
          db.prepare(`DELETE FROM ${table} WHERE booking_id IN (SELECT id FROM bookings WHERE owner = ?)`).run(m.owner);
        }
        db.prepare('DELETE FROM bookings WHERE owner = ?').run(m.owner);
      });
    }
    parentPort.postMessage({ kind: 'reset-done', id: m.id });
  } else if (m.kind === 'close') {
    flush();
    db.close();
    parentPort.postMessage({ kind: 'closed' });
    parentPort.close();
  }
});
