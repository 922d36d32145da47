import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { inTransaction } from '../adapters/store/sqlite-transaction.ts';
import { memoryServerBefore, sqliteServerBefore } from './baseline.ts';
import { bookingBody, client, offersBody, resellerHeaders, token, type Reply } from './fixtures.ts';
import { DURATION, LIFECYCLE_WARM_UP } from './load.ts';
import { fmt, median, ratios, report, rotated, sleep, type CaseReport } from './measure.ts';
import { cpuSpent, startServer, type ServerProcess } from './processes.ts';
import type { RecordedAnswer } from './server.ts';

/**
 * The HTTP sale-and-refund lifecycle, as many times as it goes in a bounded time, from CONCURRENCY loops
 * in the bench's process against signalbox in its own (token reused):
 *
 *   offers → booking → fulfillment (the sale) | get booking → refund offer → confirm refund
 *
 * The sale and the refund are measured apart (`drive`): the goals read the server's CPU time per sale.
 * Steps whose route the server does not have yet (404 "No route …") are found on the first lifecycle,
 * printed as missing, and left out of the timed runs; they join by themselves once the routes exist.
 *
 * Measured on the default store (SQLite, WAL, synchronous=FULL) in a temp dir. Baselines in the same run:
 * the same lifecycle on the memory store, bare node:sqlite durable commits/s in the same folder
 * (a lifecycle makes at least one commit per writing step), and the ceiling: a bare node:http server that
 * answers each step with signalbox's answer to it (recorded on the first lifecycle), doing none of its work.
 */
const CONCURRENCY = Number(process.env['BENCH_LIFECYCLE_CONCURRENCY'] ?? 16);
const PASSENGERS = 1;

interface State {
  offerId?: string;
  bookingId?: string;
  fulfillmentIds?: string[];
  refundOfferId?: string;
}
type Send = (method: string, path: string, body?: unknown) => Promise<Reply>;

interface Step {
  name: string;
  /** Whether it writes (a commit) in a full implementation. */
  writes: boolean;
  run(send: Send, s: State, n: number): Promise<Reply>;
  /** Reads what later steps need from the answer. */
  keep?(reply: Reply, s: State): void;
}

const body = <T>(r: Reply) => r.body as T;

export const STEPS: Step[] = [
  {
    name: 'POST /v3/offers',
    writes: true,
    run: (send) => send('POST', '/v3/offers', offersBody(PASSENGERS, 'sto-gbg-0800')),
    keep: (r, s) => {
      s.offerId = body<{ offers: Array<{ offerId: string }> }>(r).offers[0]?.offerId;
    },
  },
  {
    name: 'POST /v3/booking',
    writes: true,
    run: (send, s, n) => send('POST', '/v3/booking', bookingBody(s.offerId!, PASSENGERS, `bench-${n}`)),
    keep: (r, s) => {
      s.bookingId = body<{ booking: { id: string } }>(r).booking.id;
    },
  },
  {
    name: 'POST /v3/bookings/{id}/fulfillment',
    writes: true,
    run: (send, s) => send('POST', `/v3/bookings/${s.bookingId}/fulfillment`),
  },
  {
    name: 'GET /v3/bookings/{id}',
    writes: false,
    run: (send, s) => send('GET', `/v3/bookings/${s.bookingId}`),
    keep: (r, s) => {
      s.fulfillmentIds = body<{ booking: { fulfillments: Array<{ id: string }> } }>(r).booking.fulfillments.map((f) => f.id);
    },
  },
  {
    // CONTRACT §6, spec §4.1 rule 6: all fulfillment ids of the ticket.
    name: 'POST /v3/bookings/{id}/refund-offers',
    writes: true,
    run: (send, s) => send('POST', `/v3/bookings/${s.bookingId}/refund-offers`, { fulfillmentIds: s.fulfillmentIds }),
    keep: (r, s) => {
      s.refundOfferId = body<{ refundOffers?: Array<{ id: string }> }>(r).refundOffers?.[0]?.id;
    },
  },
  {
    name: 'PATCH /v3/bookings/{id}/refund-offers/{refundOfferId} CONFIRMED',
    writes: true,
    run: (send, s) => send('PATCH', `/v3/bookings/${s.bookingId}/refund-offers/${s.refundOfferId}`, { status: 'CONFIRMED' }),
  },
];

/** The same lifecycle with the sales spread over `trains` trains: lifecycle `n` sells the departure `n % trains` days later. */
export const stepsOverTrains = (trains: number): Step[] => [
  { ...STEPS[0]!, run: (send, _s, n) => send('POST', '/v3/offers', offersBody(PASSENGERS, 'sto-gbg-0800', n % trains)) },
  ...STEPS.slice(1),
];

const routeMissing = (r: Reply) => r.status === 404 && /\broute\b/i.test(String((r.body as { detail?: string })?.detail ?? r.text));

/** Runs one lifecycle; throws on any answer that is not 2xx. Returns the time of each step in ms. */
export async function lifecycle(send: Send, steps: readonly Step[], n: number, s: State = {}): Promise<number[]> {
  const times: number[] = [];
  for (const step of steps) {
    const t0 = performance.now();
    const r = await step.run(send, s, n);
    times.push(performance.now() - t0);
    if (r.status < 200 || r.status > 299) throw new Error(`${step.name} answered ${r.status}: ${r.text.slice(0, 400)}`);
    step.keep?.(r, s);
  }
  return times;
}

/**
 * Finds the steps the server has: stops at the first route that is missing (later steps need its answer).
 * Records the answers of the steps it has, for the ceiling's server.
 */
async function probe(server: Send): Promise<{ steps: Step[]; missing: Step[]; answers: RecordedAnswer[] }> {
  const s: State = {};
  const answers: RecordedAnswer[] = [];
  const send: Send = async (method, path, b) => {
    const r = await server(method, path, b);
    answers.push({ method, path, status: r.status, body: r.body });
    return r;
  };
  for (const [i, step] of STEPS.entries()) {
    const r = await step.run(send, s, -1);
    if (routeMissing(r)) return { steps: STEPS.slice(0, i), missing: STEPS.slice(i), answers: answers.slice(0, i) };
    if (r.status < 200 || r.status > 299) throw new Error(`${step.name} answered ${r.status}: ${r.text.slice(0, 400)}`);
    step.keep?.(r, s);
  }
  return { steps: STEPS, missing: [], answers };
}

/** How many of the steps make the sale: offers → booking → fulfillment. The rest gives the places back. */
const SALE_STEPS = 3;

interface Drive {
  /** Sales per second of the sale phases' time. */
  salesPerSecond: number;
  /** Whole lifecycles (sale and refund) per second. */
  perSecond: number;
  /** Server CPU (all threads) per sale, and per refund (the steps after the sale). */
  cpuPerSale: number;
  cpuPerRefund: number;
  /** The kernel's part of the CPU per sale (system time: sockets, fsync, wake-ups). */
  systemPerSale: number;
  /** The part of the CPU per sale spent off the main thread: V8's compiler and collector, libuv, SQLite's writer. */
  otherThreadsPerSale: number;
  stepMs: number[];
}

/**
 * Rounds of CONCURRENCY loops for `seconds`. Each round has two phases, each awaited by every loop: first each loop
 * makes a sale (offers → booking → fulfillment), then each gives its places back (read the booking, refund offer,
 * confirm the refund). The server's CPU time (all threads, /proc) is read between the phases, so the CPU of a sale
 * is measured apart while the train never fills: a sale after sale would leave every booking on the one train.
 */
async function drive(server: ServerProcess, accessToken: string, steps: readonly Step[], seconds: number): Promise<Drive> {
  const c = client(server.base, CONCURRENCY);
  const headers = resellerHeaders(accessToken);
  const send: Send = (method, path, b) => c.send(method, path, b, headers);
  const sale = steps.slice(0, SALE_STEPS);
  const refund = steps.slice(SALE_STEPS);
  let sales = 0;
  let counter = 0;
  let saleMs = 0;
  const cpu = { sale: 0, refund: 0, saleSystem: 0, saleOtherThreads: 0 };
  const sums = steps.map(() => 0);
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  try {
    while (performance.now() < until) {
      const states = Array.from({ length: CONCURRENCY }, () => ({}));
      const phase = async (list: readonly Step[], offset: number) => {
        const before = server.cpuSplitMs();
        const started = performance.now();
        await Promise.all(
          states.map(async (s) => {
            const times = await lifecycle(send, list, counter++, s);
            times.forEach((t, i) => {
              sums[offset + i]! += t;
            });
          }),
        );
        const after = server.cpuSplitMs();
        const spent = cpuSpent(before, after);
        return { ms: performance.now() - started, cpu: spent.total, system: spent.system, otherThreads: spent.otherThreads };
      };
      const sold = await phase(sale, 0);
      saleMs += sold.ms;
      cpu.sale += sold.cpu;
      cpu.saleSystem += sold.system;
      cpu.saleOtherThreads += sold.otherThreads;
      cpu.refund += (await phase(refund, SALE_STEPS)).cpu;
      sales += CONCURRENCY;
    }
  } finally {
    c.close();
  }
  const per = (ms: number) => (ms * 1000) / Math.max(1, sales);
  return {
    salesPerSecond: sales / (saleMs / 1000),
    perSecond: sales / ((performance.now() - t0) / 1000),
    cpuPerSale: per(cpu.sale),
    cpuPerRefund: per(cpu.refund),
    systemPerSale: per(cpu.saleSystem),
    otherThreadsPerSale: per(cpu.saleOtherThreads),
    stepMs: sums.map((x) => x / Math.max(1, sales)),
  };
}

/** Bare node:sqlite, WAL + synchronous=FULL: a read-modify-write of a 4 KB row, one commit each. */
function durableCommitsPerSecond(dir: string, seconds: number): number {
  const db = new DatabaseSync(join(dir, 'baseline.db'));
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = FULL');
  db.exec('CREATE TABLE IF NOT EXISTS t (id TEXT PRIMARY KEY, version INTEGER NOT NULL, data TEXT NOT NULL)');
  const data = 'x'.repeat(4096);
  const insert = db.prepare('INSERT OR REPLACE INTO t (id, version, data) VALUES (?, 1, ?)');
  for (let i = 0; i < 100; i++) insert.run(`b${i}`, data);
  const read = db.prepare('SELECT version FROM t WHERE id = ?');
  const write = db.prepare('UPDATE t SET data = ?, version = version + 1 WHERE id = ? AND version = ?');
  const rmw = (id: string) =>
    inTransaction(db, () => {
      const v = (read.get(id) as { version: number }).version;
      write.run(data, id, v);
    });
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < seconds * 1000) rmw(`b${n++ % 100}`);
  const rate = n / ((performance.now() - t0) / 1000);
  db.close();
  return rate;
}

export async function run(runs = Number(process.env['BENCH_RUNS'] ?? 3)): Promise<CaseReport> {
  const r = report('lifecycle', `HTTP sales and refunds, ${CONCURRENCY} concurrent loops, ${DURATION} s per run, token reused`);
  const dir = mkdtempSync(join(tmpdir(), 'signalbox-bench-lifecycle-'));
  const servers: ServerProcess[] = [];
  const started = (x: ServerProcess) => {
    servers.push(x);
    return x;
  };
  try {
    const sqlite = started(await startServer('signalbox', `sqlite:${join(dir, 'signalbox.db')}`, 'lifecycle-sqlite'));
    const memory = started(await startServer('signalbox', 'memory', 'lifecycle-memory'));
    type Target = { name: string; server: ServerProcess; token: string };
    const sql: Target = { name: 'SQLite (WAL, synchronous=FULL)', server: sqlite, token: await token(sqlite.base) };
    const mem: Target = { name: 'memory store', server: memory, token: await token(memory.base) };
    const probeClient = client(sqlite.base, 1);
    const headers = resellerHeaders(sql.token);
    const { steps, missing, answers } = await probe((m, p, b) => probeClient.send(m, p, b, headers));
    probeClient.close();
    const recorded = join(dir, 'lifecycle-answers.json');
    writeFileSync(recorded, JSON.stringify(answers));
    const ignored = 'not-a-token-the-replay-ignores-it';
    const top: Target = {
      name: "ceiling: bare node:http answering signalbox's answers",
      server: started(await startServer('replay', recorded, 'replay-lifecycle')),
      token: ignored,
    };
    const fastify: Target = {
      name: "ceiling on Fastify: signalbox's answers, no other work",
      server: started(await startServer('replay-fastify', recorded, 'replay-lifecycle-fastify')),
      token: ignored,
    };
    const floorServer = started(await startServer('floor', recorded, 'floor-lifecycle'));
    const floor: Target = {
      name: 'floor: Fastify, body parser, token, Requestor, the same answers',
      server: floorServer,
      token: await token(floorServer.base),
    };
    const targets = [sql, mem, top, fastify, floor];
    // BENCH_AGAINST=REF: the same servers as built at another commit, in the same rounds (bench/baseline.ts).
    const oldSqlite = await sqliteServerBefore(dir, 'lifecycle-sqlite');
    const oldMemory = await memoryServerBefore('lifecycle-memory');
    const old: { sql?: Target; mem?: Target } = {};
    if (oldSqlite) old.sql = { name: `SQLite at ${oldSqlite.commit}`, server: started(oldSqlite.server), token: await token(oldSqlite.server.base) };
    if (oldMemory) old.mem = { name: `memory store at ${oldMemory.commit}`, server: started(oldMemory.server), token: await token(oldMemory.server.base) };
    for (const t of [old.sql, old.mem]) if (t) targets.push(t);
    // Warm-up (LIFECYCLE_WARM_UP, bench/load.ts, says why signalbox's servers take longer).
    const signalboxes = new Set([sql, mem, old.sql, old.mem]);
    for (const t of targets) await drive(t.server, t.token, steps, signalboxes.has(t) ? LIFECYCLE_WARM_UP : Math.min(3, DURATION));

    const results = new Map(targets.map((t) => [t.name, [] as Drive[]]));
    const commits: number[] = [];
    for (let i = 0; i < runs; i++) {
      for (const t of rotated(targets, i)) results.get(t.name)!.push(await drive(t.server, t.token, steps, DURATION));
      await sleep(100);
      commits.push(durableCommitsPerSecond(dir, Math.min(2, DURATION)));
    }
    const of = (t: Target, key: Exclude<keyof Drive, 'stepMs'>) => results.get(t.name)!.map((x) => x[key]);
    // All threads of the server process: the SQLite store commits on a writer thread of its own.
    for (const t of targets) r.row(`server CPU per sale (all threads), ${t.name}`, 'µs', of(t, 'cpuPerSale'));
    for (const t of targets) r.row(`  of which in the kernel (system time), ${t.name}`, 'µs', of(t, 'systemPerSale'));
    for (const t of targets) r.row(`  of which off the main thread (V8's helpers, SQLite's writer), ${t.name}`, 'µs', of(t, 'otherThreadsPerSale'));
    for (const t of targets) r.row(`server CPU per refund (read, refund offer, confirm), ${t.name}`, 'µs', of(t, 'cpuPerRefund'));
    for (const t of targets) r.row(`sales/s in the sale phases, ${t.name}`, '/s', of(t, 'salesPerSecond'));
    r.row(`lifecycles/s (sale and refund), ${sql.name}`, '/s', of(sql, 'perSecond'));
    r.row(`lifecycles/s (sale and refund), ${mem.name}`, '/s', of(mem, 'perSecond'));
    r.row('baseline: bare node:sqlite durable read-modify-write commits/s', '/s', commits);
    r.row(
      "signalbox's own work per sale beyond the floor, SQLite: signalbox's CPU − floor's",
      'µs',
      of(sql, 'cpuPerSale').map((x, i) => x - of(floor, 'cpuPerSale')[i]!),
    );
    r.row(
      "signalbox's own work per sale beyond the floor, memory: signalbox's CPU − floor's",
      'µs',
      of(mem, 'cpuPerSale').map((x, i) => x - of(floor, 'cpuPerSale')[i]!),
    );
    for (const [now, before] of [
      [sql, old.sql],
      [mem, old.mem],
    ] as const) {
      if (!before) continue;
      r.ratio(`server CPU per sale, ${now.name} / ${before.name}`, ratios(of(now, 'cpuPerSale'), of(before, 'cpuPerSale')));
      r.ratio(`server CPU per refund, ${now.name} / ${before.name}`, ratios(of(now, 'cpuPerRefund'), of(before, 'cpuPerRefund')));
      r.ratio(`sales/s, ${now.name} / ${before.name}`, ratios(of(now, 'salesPerSecond'), of(before, 'salesPerSecond')));
    }
    for (const [i, step] of steps.entries()) {
      r.row(
        `  mean time of ${step.name} (SQLite, under load)`,
        'ms',
        results.get(sql.name)!.map((x) => x.stepMs[i]!),
      );
    }
    const complete = missing.length === 0;
    // The goals are ratios to the floor measured in the same rounds: a busy machine slows both alike.
    const saleSqlite = r.ratio('server CPU per sale, SQLite / floor (same round)', ratios(of(sql, 'cpuPerSale'), of(floor, 'cpuPerSale')));
    const saleMemory = r.ratio('server CPU per sale, memory / floor (same round)', ratios(of(mem, 'cpuPerSale'), of(floor, 'cpuPerSale')));
    const against = (t: Target) => `${fmt(median(of(t, 'cpuPerSale')))} µs against the floor's ${fmt(median(of(floor, 'cpuPerSale')))} µs`;
    r.goal(
      "a sale ≤ 5.0× the floor's server CPU on SQLite, every acknowledged write durable",
      median(saleSqlite) <= 5 && complete,
      `${fmt(median(saleSqlite))}×, ${against(sql)}`,
    );
    r.goal("a sale ≤ 4.0× the floor's server CPU on the memory store", median(saleMemory) <= 4 && complete, `${fmt(median(saleMemory))}×, ${against(mem)}`);
    r.note(
      `a sale: ${steps
        .slice(0, SALE_STEPS)
        .map((x) => x.name)
        .join(' → ')}; then, measured apart: ${steps
        .slice(SALE_STEPS)
        .map((x) => x.name)
        .join(' → ')}`,
    );
    r.note(
      `the floor (Fastify, signalbox's body parser, token and Requestor, the same answers) costs ${fmt(median(of(floor, 'cpuPerSale')))} µs per sale; ` +
        `the ceilings ${fmt(median(of(top, 'cpuPerSale')))} µs (node:http) and ${fmt(median(of(fastify, 'cpuPerSale')))} µs (Fastify)`,
    );
    for (const m of missing) r.note(`MISSING (route not built yet, left out): ${m.name}`);
  } finally {
    for (const x of servers) await x.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return r;
}
