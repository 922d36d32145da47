import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sqliteServerBefore } from './baseline.ts';
import { bookingBody, client, offersBody, resellerHeaders, token, type Reply } from './fixtures.ts';
import { DURATION } from './load.ts';
import { fmt, median, ratios, report, rotated, sleep, type CaseReport } from './measure.ts';
import { startServer, type ServerProcess } from './processes.ts';
import type { RecordedAnswer } from './server.ts';

/**
 * The HTTP sale-and-refund lifecycle, as many times as it goes in a bounded time, from CONCURRENCY loops
 * in the bench's process against signalbox in its own (token reused):
 *
 *   offers → booking → fulfillment → get booking → refund offer → confirm refund
 *
 * Steps whose route the server does not have yet (404 "No route …") are found on the first lifecycle,
 * printed as missing, and left out of the timed runs; they join by themselves once the routes exist.
 *
 * Measured on the default store (SQLite, WAL, synchronous=FULL) in a temp dir. Baselines in the same run:
 * the same lifecycle on the memory store, bare better-sqlite3 durable commits/s in the same folder
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
    name: 'POST /v3/offers', writes: true,
    run: (send) => send('POST', '/v3/offers', offersBody(PASSENGERS, 'sto-gbg-0800')),
    keep: (r, s) => { s.offerId = body<{ offers: Array<{ offerId: string }> }>(r).offers[0]?.offerId; },
  },
  {
    name: 'POST /v3/booking', writes: true,
    run: (send, s, n) => send('POST', '/v3/booking', bookingBody(s.offerId!, PASSENGERS, `bench-${n}`)),
    keep: (r, s) => { s.bookingId = body<{ booking: { id: string } }>(r).booking.id; },
  },
  {
    name: 'POST /v3/bookings/{id}/fulfillment', writes: true,
    run: (send, s) => send('POST', `/v3/bookings/${s.bookingId}/fulfillment`),
  },
  {
    name: 'GET /v3/bookings/{id}', writes: false,
    run: (send, s) => send('GET', `/v3/bookings/${s.bookingId}`),
    keep: (r, s) => { s.fulfillmentIds = body<{ booking: { fulfillments: Array<{ id: string }> } }>(r).booking.fulfillments.map((f) => f.id); },
  },
  {
    // CONTRACT §6, spec §4.1 rule 6: all fulfillment ids of the ticket.
    name: 'POST /v3/bookings/{id}/refund-offers', writes: true,
    run: (send, s) => send('POST', `/v3/bookings/${s.bookingId}/refund-offers`, { fulfillmentIds: s.fulfillmentIds }),
    keep: (r, s) => { s.refundOfferId = body<{ refundOffers?: Array<{ id: string }> }>(r).refundOffers?.[0]?.id; },
  },
  {
    name: 'PATCH /v3/bookings/{id}/refund-offers/{refundOfferId} CONFIRMED', writes: true,
    run: (send, s) => send('PATCH', `/v3/bookings/${s.bookingId}/refund-offers/${s.refundOfferId}`, { status: 'CONFIRMED' }),
  },
];

const routeMissing = (r: Reply) =>
  r.status === 404 && /\broute\b/i.test(String((r.body as { detail?: unknown })?.detail ?? r.text));

/** Runs one lifecycle; throws on any answer that is not 2xx. Returns the time of each step in ms. */
async function lifecycle(send: Send, steps: readonly Step[], n: number): Promise<number[]> {
  const s: State = {};
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

/** CONCURRENCY loops of lifecycles for `seconds`; lifecycles/s and the mean time of each step. */
async function drive(server: ServerProcess, accessToken: string, steps: readonly Step[], seconds: number): Promise<{ perSecond: number; stepMs: number[]; cpuUs: number }> {
  const c = client(server.base, CONCURRENCY);
  const headers = resellerHeaders(accessToken);
  const send: Send = (method, path, b) => c.send(method, path, b, headers);
  let done = 0;
  let counter = 0;
  const sums = steps.map(() => 0);
  const t0 = performance.now();
  const cpu0 = server.cpuMs();
  const until = t0 + seconds * 1000;
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const times = await lifecycle(send, steps, counter++);
        times.forEach((t, i) => { sums[i]! += t; });
        done++;
      }
    }));
  } finally {
    c.close();
  }
  const cpuUs = ((server.cpuMs() - cpu0) * 1000) / Math.max(1, done);
  return { perSecond: done / ((performance.now() - t0) / 1000), stepMs: sums.map((x) => x / Math.max(1, done)), cpuUs };
}

/** Bare better-sqlite3, WAL + synchronous=FULL: a read-modify-write of a 4 KB row, one commit each. */
function durableCommitsPerSecond(dir: string, seconds: number): number {
  const db = new Database(join(dir, 'baseline.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE IF NOT EXISTS t (id TEXT PRIMARY KEY, version INTEGER NOT NULL, data TEXT NOT NULL)');
  const data = 'x'.repeat(4096);
  const insert = db.prepare('INSERT OR REPLACE INTO t (id, version, data) VALUES (?, 1, ?)');
  for (let i = 0; i < 100; i++) insert.run(`b${i}`, data);
  const read = db.prepare<[string], { version: number }>('SELECT version FROM t WHERE id = ?');
  const write = db.prepare('UPDATE t SET data = ?, version = version + 1 WHERE id = ? AND version = ?');
  const rmw = db.transaction((id: string) => { const v = read.get(id)!.version; write.run(data, id, v); });
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < seconds * 1000) rmw(`b${n++ % 100}`);
  const rate = n / ((performance.now() - t0) / 1000);
  db.close();
  return rate;
}

export async function run(runs = Number(process.env['BENCH_RUNS'] ?? 3)): Promise<CaseReport> {
  const r = report('lifecycle', `HTTP sale lifecycle, ${CONCURRENCY} concurrent loops, ${DURATION} s per run, token reused`);
  const dir = mkdtempSync(join(tmpdir(), 'signalbox-bench-lifecycle-'));
  const servers: ServerProcess[] = [];
  try {
    const sqlite = await startServer('signalbox', `sqlite:${join(dir, 'signalbox.db')}`, 'lifecycle-sqlite');
    servers.push(sqlite);
    const memory = await startServer('signalbox', 'memory', 'lifecycle-memory');
    servers.push(memory);
    const targets = [
      { name: 'SQLite (WAL, synchronous=FULL)', server: sqlite, token: await token(sqlite.base) },
      { name: 'memory store', server: memory, token: await token(memory.base) },
    ];
    // BENCH_AGAINST=REF: the same SQLite server as built at another commit, in the same rounds (bench/baseline.ts).
    const before = await sqliteServerBefore(dir, 'lifecycle-sqlite');
    if (before) {
      servers.push(before.server);
      targets.push({ name: `SQLite at ${before.commit}`, server: before.server, token: await token(before.server.base) });
    }
    const probeClient = client(sqlite.base, 1);
    const headers = resellerHeaders(targets[0]!.token);
    const { steps, missing, answers } = await probe((m, p, b) => probeClient.send(m, p, b, headers));
    probeClient.close();
    const recorded = join(dir, 'lifecycle-answers.json');
    writeFileSync(recorded, JSON.stringify(answers));
    const ceiling = await startServer('replay', recorded, 'replay-lifecycle');
    servers.push(ceiling);
    const onFastify = await startServer('replay-fastify', recorded, 'replay-lifecycle-fastify');
    servers.push(onFastify);
    targets.push(
      { name: "ceiling: bare node:http answering signalbox's answers", server: ceiling, token: 'not-a-token-the-replay-ignores-it' },
      { name: "ceiling on Fastify: signalbox's answers, no other work", server: onFastify, token: 'not-a-token-the-replay-ignores-it' },
    );
    for (const t of targets) await drive(t.server, t.token, steps, Math.min(2, DURATION)); // warm-up

    const results = new Map(targets.map((t) => [t.name, [] as Array<{ perSecond: number; stepMs: number[]; cpuUs: number }>]));
    const commits: number[] = [];
    for (let i = 0; i < runs; i++) {
      for (const t of rotated(targets, i)) results.get(t.name)!.push(await drive(t.server, t.token, steps, DURATION));
      await sleep(100);
      commits.push(durableCommitsPerSecond(dir, Math.min(2, DURATION)));
    }
    const perSecond = (name: string) => results.get(name)!.map((x) => x.perSecond);
    const [sql, mem] = targets;
    r.row(`lifecycles/s, ${sql!.name}`, '/s', perSecond(sql!.name));
    r.row(`lifecycles/s, ${mem!.name}`, '/s', perSecond(mem!.name));
    r.row('baseline: bare better-sqlite3 durable read-modify-write commits/s', '/s', commits);
    const top = targets.find((t) => t.server === ceiling)!;
    const fastify = targets.find((t) => t.server === onFastify)!;
    r.row(`lifecycles/s, ${top.name}`, '/s', perSecond(top.name));
    r.row(`lifecycles/s, ${fastify.name}`, '/s', perSecond(fastify.name));
    const writes = steps.filter((s) => s.writes).length;
    r.ratio('SQLite / memory store (lifecycles/s)', ratios(perSecond(sql!.name), perSecond(mem!.name)), '%');
    r.ratio('SQLite / ceiling (lifecycles/s)', ratios(perSecond(sql!.name), perSecond(top.name)), '%');
    r.ratio('SQLite / ceiling on Fastify (lifecycles/s)', ratios(perSecond(sql!.name), perSecond(fastify.name)), '%');
    r.ratio(`SQLite lifecycles/s / (bare commits/s ÷ ${writes} writing steps)`, ratios(perSecond(sql!.name), commits.map((c) => c / writes)), '%');
    const cpu = (name: string) => results.get(name)!.map((x) => x.cpuUs);
    // All threads of the server process: the SQLite store commits on a writer thread of its own.
    r.row(`server CPU per lifecycle (all threads), ${sql!.name}`, 'µs', cpu(sql!.name));
    r.row(`server CPU per lifecycle (all threads), ${mem!.name}`, 'µs', cpu(mem!.name));
    r.row(`server CPU per lifecycle (all threads), ${top.name}`, 'µs', cpu(top.name));
    r.row(`server CPU per lifecycle (all threads), ${fastify.name}`, 'µs', cpu(fastify.name));
    const old = before ? targets.find((t) => t.server === before.server) : undefined;
    if (old) {
      r.row(`lifecycles/s, ${old.name}`, '/s', perSecond(old.name));
      r.row(`server CPU per lifecycle (all threads), ${old.name}`, 'µs', cpu(old.name));
      r.ratio(`this tree / ${before!.commit}, SQLite (lifecycles/s)`, ratios(perSecond(sql!.name), perSecond(old.name)));
      r.ratio(`this tree / ${before!.commit}, SQLite (server CPU per lifecycle)`, ratios(cpu(sql!.name), cpu(old.name)));
    }
    for (const [i, step] of steps.entries()) {
      r.row(`  mean time of ${step.name} (SQLite, under load)`, 'ms', results.get(sql!.name)!.map((x) => x.stepMs[i]!));
    }
    const lps = median(perSecond(sql!.name));
    const complete = missing.length === 0;
    r.goal(`≥ 1,000 lifecycles/s on SQLite with durable commits${complete ? '' : ' (without the missing refund steps)'}`, lps >= 1000 && complete, `${fmt(lps)}/s${complete ? '' : ', incomplete lifecycle'}`);
    r.note(`steps measured: ${steps.map((s) => s.name).join(' → ')}`);
    for (const m of missing) r.note(`MISSING (route not built yet, left out): ${m.name}`);
  } finally {
    for (const s of servers) await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return r;
}
