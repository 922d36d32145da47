import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createEngine, trainHoldingsOf, type Booking, type Call, type IdSource, type StoredOffer } from '../engine/index.ts';
import { encodeBookingJson } from '../adapters/store/booking-rows.ts';
import { openStore } from '../adapters/store/open.ts';
import { inTransaction } from '../adapters/store/sqlite-transaction.ts';
import { bookingBody, CLIENT, offersBody, resellerHeaders, token } from './fixtures.ts';
import { clean, DURATION, load, type LoadResult } from './load.ts';
import { fmt, fmtBytes, median, ratios, report, type CaseReport } from './measure.ts';
import { startServer, type ServerProcess } from './processes.ts';

/**
 * POST /v3/offers and GET /v3/bookings/{id} latency with SMALL and then LARGE bookings stored in SQLite
 * (10k and 1M; BENCH_SCALE=small: 10k and 100k), bytes per booking on disk, and the RSS of the server
 * process holding the database.
 *
 * The bookings are seeded straight into the store's SQLite file: one real booking is sold through the
 * engine (offers → book → confirm, 2 passengers on the 2-leg trip), its JSON becomes a template, and every
 * seeded row gets its own booking id and fulfillment ids (scattered like random ones, so that the
 * primary-key index is filled in random order as in real life). Prepared statements, one transaction per
 * 50k rows, synchronous=OFF and the rollback journal in memory only while seeding; a fresh file per level.
 * A server is then started on each file as `npm start` would (WAL, synchronous=FULL), both at once, and
 * loaded in turn with autocannon at 10 connections (runs interleaved); GET picks a random seeded booking.
 */
const SMALL = 10_000;
const LARGE = process.env['BENCH_SCALE'] === 'small' ? 100_000 : 1_000_000;
const CHUNK = 50_000;
const CONNECTIONS = 10;

// --- ids: a bijection on 40 bits (a Feistel network), so ids look random and never repeat ---
const round = (x: number, k: number) => (Math.imul(x ^ k, 0x45d9f3b) >>> 12) & 0xfffff;
function scramble40(i: number): number {
  let l = Math.floor(i / 0x100000) & 0xfffff;
  let r = i & 0xfffff;
  for (const k of [0x1b873, 0x2c1a9, 0x3f0e5, 0x49d17]) {
    const t = l ^ round(r, k);
    l = r;
    r = t;
  }
  return l * 0x100000 + r;
}
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** The i-th seeded booking id: `SB` + 8 Crockford base32 characters, like adapters/service/ids.ts makes. */
export function bookingId(i: number): string {
  let v = scramble40(i);
  let out = '';
  for (let c = 0; c < 8; c++) {
    out = CROCKFORD[v % 32]! + out;
    v = Math.floor(v / 32);
  }
  return `SB${out}`;
}
const hex = (v: number, width: number) => v.toString(16).padStart(width, '0').slice(-width);
function uuid(i: number, k: number): string {
  const h = scramble40(i * 16 + k);
  return `${hex(h % 0x100000000, 8)}-${hex(k, 4)}-4${hex((i >>> 12) & 0xfff, 3)}-8${hex(i & 0xfff, 3)}-${hex(i, 12)}`;
}

// --- the template: one booking sold through the engine, with placeholder ids ---
interface Template {
  parts: string[];
  /** What goes between parts[j] and parts[j + 1]: the booking id, or the k-th UUID. */
  holes: Array<{ kind: 'booking' } | { kind: 'uuid'; k: number; fulfillment: boolean }>;
  fulfillments: number[];
  bytes: number;
  /** What the booking holds on its train (adapters/store/sqlite.ts train_holdings), with the same holes. */
  holdings: { train: string; json: Pick<Template, 'parts' | 'holes'> } | undefined;
}

function makeTemplate(): Template {
  const engine = createEngine();
  const BOOKING = 'SBQQQQQQQQ';
  const uuids: Array<{ token: string; kind: string }> = [];
  const ids: IdSource = {
    next(kind) {
      if (kind === 'booking') return BOOKING;
      const t = `ffffffff-ffff-4fff-bfff-${hex(uuids.length + 1, 12)}`;
      uuids.push({ token: t, kind });
      return t;
    },
  };
  const call: Call = { requestor: { client: CLIENT, salesApplication: 'WEB_SE', salesUnitCode: 'BENCH', language: 'en-GB' }, now: new Date(), ids };
  const { value } = engine.offers(call, offersBody(2));
  const offer = value.offers[0]!;
  const { request } = engine.readBookingRequest(bookingBody(offer.offerId, 2, 'bench-scale'));
  const booked = engine.book(call, request, new Map<string, StoredOffer>([[offer.offerId, offer]])).value.booking;
  const confirmed: Booking = engine.confirm(call, booked).value;
  const json = JSON.stringify(confirmed);
  const tokens = [BOOKING, ...uuids.map((u) => u.token)];
  const pattern = new RegExp(tokens.map((t) => t.replace(/[-]/g, '\\-')).join('|'), 'g');
  const withHoles = (text: string): Pick<Template, 'parts' | 'holes'> => ({
    parts: text.split(pattern),
    holes: [...text.matchAll(pattern)].map((m) => {
      if (m[0] === BOOKING) return { kind: 'booking' as const };
      const k = uuids.findIndex((u) => u.token === m[0]);
      return { kind: 'uuid' as const, k, fulfillment: uuids[k]!.kind === 'fulfillment' };
    }),
  });
  const fulfillments = confirmed.fulfillments.map((f) => uuids.findIndex((u) => u.token === f.id));
  if (fulfillments.some((k) => k < 0)) throw new Error('bench/scale.ts: a fulfillment id did not come from the id source');
  const held = trainHoldingsOf(confirmed);
  if (held.length > 1) throw new Error('bench/scale.ts: the template booking holds places on more than one train; teach seed() about it');
  const holdings = held[0] ? { train: held[0].train, json: withHoles(JSON.stringify(held[0])) } : undefined;
  return { ...withHoles(json), fulfillments, bytes: Buffer.byteLength(json), holdings };
}

function rowJson(t: Pick<Template, 'parts' | 'holes'>, i: number, id: string): string {
  let out = t.parts[0]!;
  for (let j = 0; j < t.holes.length; j++) {
    const h = t.holes[j]!;
    out += (h.kind === 'booking' ? id : uuid(i, h.k)) + t.parts[j + 1]!;
  }
  return out;
}

/** Seeds bookings [from, to) into the store's file; returns rows per second. */
function seed(path: string, t: Template, from: number, to: number): number {
  const db = new DatabaseSync(path);
  const columns = db.prepare('SELECT name, "notnull", dflt_value FROM pragma_table_info(\'bookings\')').all() as Array<{
    name: string;
    notnull: number;
    dflt_value: unknown;
  }>;
  const unknown = columns.filter((c) => c.notnull && c.dflt_value === null && !['id', 'owner', 'version', 'data'].includes(c.name));
  if (unknown.length > 0)
    throw new Error(`bench/scale.ts: the bookings table has new required columns (${unknown.map((c) => c.name).join()}); teach seed() about them`);
  // Only while seeding: no fsync, the rollback journal in memory (a crash here loses a bench file, no more).
  db.exec('PRAGMA journal_mode = MEMORY');
  db.exec('PRAGMA synchronous = OFF');
  db.exec('PRAGMA cache_size = -1048576');
  const insertBooking = db.prepare('INSERT INTO bookings (id, owner, version, data) VALUES (?, ?, 2, ?)');
  const insertFulfillment = db.prepare('INSERT INTO fulfillments (id, booking_id) VALUES (?, ?)');
  const insertHoldings = db.prepare('INSERT INTO train_holdings (train_key, booking_id, data) VALUES (?, ?, ?)');
  const chunk = (a: number, b: number) =>
    inTransaction(db, () => {
      for (let i = a; i < b; i++) {
        const id = bookingId(i);
        insertBooking.run(id, CLIENT, encodeBookingJson(rowJson(t, i, id)));
        for (const k of t.fulfillments) insertFulfillment.run(uuid(i, k), id);
        if (t.holdings) {
          // Spread over 10,000 trains (~100 bookings each at 1M), none of them the train the offers are asked for.
          const train = `SEED${i % 10_000}/${t.holdings.train.split('/')[1]}`;
          insertHoldings.run(train, id, rowJson(t.holdings.json, i, id).replace(t.holdings.train, train));
        }
      }
    });
  const t0 = performance.now();
  for (let a = from; a < to; a += CHUNK) chunk(a, Math.min(to, a + CHUNK));
  const rate = (to - from) / ((performance.now() - t0) / 1000);
  db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA journal_mode = WAL'); // as the store opens it
  db.close();
  return rate;
}

function sizeOf(path: string): number {
  let total = 0;
  for (const p of [path, `${path}-wal`]) {
    try {
      total += statSync(p).size;
    } catch {
      /* absent */
    }
  }
  return total;
}

function tableBytes(path: string): string {
  try {
    const db = new DatabaseSync(path, { readOnly: true });
    const rows = db.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC').all() as Array<{ name: string; bytes: number }>;
    db.close();
    return rows.map((r) => `${r.name} ${fmtBytes(r.bytes)}`).join(', ');
  } catch {
    return '(dbstat not available)';
  }
}

interface Level {
  count: number;
  offers: LoadResult[];
  get: LoadResult[];
  rss: number;
  hwm: number;
  /** Of the RSS, what V8's young generation holds (bench/server.ts). */
  young: number;
  bytesPerBooking: number;
}

/** A server on each file, both up at once, their runs interleaved: noise on the machine falls on both alike. */
async function measureLevels(files: Array<{ path: string; count: number; bytesPerBooking: number }>, runs: number): Promise<Level[]> {
  const servers: ServerProcess[] = [];
  try {
    for (const f of files) servers.push(await startServer('signalbox', `sqlite:${f.path}`, `scale-${f.count}`));
    const body = JSON.stringify(offersBody(2));
    const levels = await Promise.all(
      files.map(async (f, i) => {
        const server = servers[i]!;
        const headers = resellerHeaders(await token(server.base));
        const offers = (seconds?: number) =>
          load({ base: server.base, method: 'POST', path: '/v3/offers', headers, body, connections: CONNECTIONS, ...(seconds ? { seconds } : {}) }).then((x) =>
            clean(`POST /v3/offers @${f.count}`, x),
          );
        const get = (seconds?: number) =>
          load({
            base: server.base,
            method: 'GET',
            path: '/v3/bookings/x',
            headers,
            connections: CONNECTIONS,
            ...(seconds ? { seconds } : {}),
            nextPath: () => `/v3/bookings/${bookingId(Math.floor(Math.random() * f.count))}`,
          }).then((x) => clean(`GET /v3/bookings/{id} @${f.count}`, x));
        return { ...f, offersRun: offers, getRun: get, offers: [] as LoadResult[], get: [] as LoadResult[], rss: 0, hwm: 0, young: 0 };
      }),
    );
    for (const l of levels) {
      await l.offersRun(2);
      await l.getRun(2);
    } // warm-up
    for (let i = 0; i < runs; i++) {
      for (const l of levels) l.offers.push(await l.offersRun());
      for (const l of levels) l.get.push(await l.getRun());
    }
    for (const [i, l] of levels.entries()) {
      const m = await servers[i]!.memory();
      l.rss = m.rss;
      l.hwm = m.hwm;
      l.young = m.young;
    }
    return levels.map(({ count, offers, get, rss, hwm, young, bytesPerBooking }) => ({ count, offers, get, rss, hwm, young, bytesPerBooking }));
  } finally {
    for (const s of servers) await s.stop();
  }
}

export async function run(runs = Number(process.env['BENCH_RUNS'] ?? 3)): Promise<CaseReport> {
  const label = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`);
  const r = report('scale', `${label(SMALL)} vs ${label(LARGE)} stored bookings on SQLite; autocannon ${CONNECTIONS} connections, ${DURATION} s per run`);
  const dir = mkdtempSync(join(tmpdir(), 'signalbox-bench-scale-'));
  try {
    const template = makeTemplate();
    const seedNotes: string[] = [];
    const files: Array<{ path: string; count: number; bytesPerBooking: number }> = [];
    for (const count of [SMALL, LARGE]) {
      // A fresh file per level, so that its size is the bookings' alone.
      const path = join(dir, `bookings-${label(count)}.db`);
      await (await openStore(`sqlite:${path}`)).close(); // the store's own schema
      const t0 = performance.now();
      const rate = seed(path, template, 0, count);
      const bytes = sizeOf(path);
      seedNotes.push(
        `${label(count)}: ${fmt(count)} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s (${fmt(rate)} rows/s); file ${fmtBytes(bytes)}: ${tableBytes(path)}`,
      );
      files.push({ path, count, bytesPerBooking: bytes / count });
    }
    const levels = await measureLevels(files, runs);
    const [small, large] = levels as [Level, Level];
    const p = (l: Level, k: 'offers' | 'get', f: 'p50' | 'p99' | 'rps') => l[k].map((x) => x[f]);
    for (const l of levels) {
      r.row(`POST /v3/offers p50 @${label(l.count)}`, 'ms', p(l, 'offers', 'p50'));
      r.row(`POST /v3/offers p99 @${label(l.count)}`, 'ms', p(l, 'offers', 'p99'));
      r.row(`POST /v3/offers requests/s @${label(l.count)}`, 'req/s', p(l, 'offers', 'rps'));
      r.row(`GET /v3/bookings/{id} p50 @${label(l.count)}`, 'ms', p(l, 'get', 'p50'));
      r.row(`GET /v3/bookings/{id} p99 @${label(l.count)}`, 'ms', p(l, 'get', 'p99'));
      r.row(`GET /v3/bookings/{id} requests/s @${label(l.count)}`, 'req/s', p(l, 'get', 'rps'));
    }
    // Latency at a fixed number of connections is the inverse of throughput, so the mean latency ratio is
    // read from requests/s (finer than autocannon's whole-millisecond percentiles).
    const offersRatio = r.ratio(
      `POST /v3/offers mean latency ${label(LARGE)} / ${label(SMALL)} (from requests/s)`,
      ratios(p(small, 'offers', 'rps'), p(large, 'offers', 'rps')),
    );
    const getRatio = r.ratio(
      `GET /v3/bookings/{id} mean latency ${label(LARGE)} / ${label(SMALL)} (from requests/s)`,
      ratios(p(small, 'get', 'rps'), p(large, 'get', 'rps')),
    );
    r.ratio(`GET /v3/bookings/{id} p99 ${label(LARGE)} / ${label(SMALL)}`, ratios(p(large, 'get', 'p99'), p(small, 'get', 'p99')));
    for (const l of levels) r.row(`bytes per booking on disk @${label(l.count)}`, 'B', [l.bytesPerBooking]);
    for (const l of levels) r.row(`server RSS after the runs @${label(l.count)}`, 'MiB', [l.rss / 2 ** 20]);
    for (const l of levels) r.row(`server peak RSS (VmHWM) @${label(l.count)}`, 'MiB', [l.hwm / 2 ** 20]);
    for (const l of levels) r.row(`  of the RSS, V8's young generation @${label(l.count)}`, 'MiB', [l.young / 2 ** 20]);
    r.goal(`POST /v3/offers @${label(LARGE)} within 1.2× of @${label(SMALL)}`, median(offersRatio) <= 1.2, `${fmt(median(offersRatio))}×`);
    r.goal(`GET /v3/bookings/{id} @${label(LARGE)} within 1.2× of @${label(SMALL)}`, median(getRatio) <= 1.2, `${fmt(median(getRatio))}×`);
    r.goal('< 4 KB per booking on disk', large.bytesPerBooking < 4096, `${fmt(large.bytesPerBooking)} B`);
    r.goal(
      `server RSS < 300 MB holding ${label(LARGE)} bookings`,
      Math.max(large.rss, large.hwm) < 300 * 2 ** 20,
      `${fmt(large.rss / 2 ** 20)} MiB (peak ${fmt(large.hwm / 2 ** 20)} MiB; V8's young generation ${fmt(large.young / 2 ** 20)} MiB of it)`,
    );
    if (LARGE < 1_000_000) r.note('BENCH_SCALE=small: the goals speak of 1M bookings; these figures are for 100k');
    r.note(`template booking (2 passengers, 2 legs, confirmed, 2 fulfillments): ${fmt(template.bytes)} B of JSON`);
    for (const n of seedNotes) r.note(`seeding ${n}`);
    r.note(
      'bytes per booking = (database + WAL file size) / bookings, right after seeding a fresh file: bookings (deflated JSON, as the store writes them), the fulfillments index, the places each booking holds (train_holdings), their primary-key indexes',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return r;
}
