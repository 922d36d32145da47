import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryServerBefore, sqliteServerBefore } from './baseline.ts';
import { client, offersBody, resellerHeaders, token } from './fixtures.ts';
import { clean, DURATION, load, WARM_UP, type LoadResult } from './load.ts';
import { fmt, fmtBytes, median, ratios, report, rotated, type CaseReport } from './measure.ts';
import { cpuSpent, startServer, type ServerProcess } from './processes.ts';

/**
 * HTTP POST /v3/offers (2 passengers, the 2-leg fixture trip upp-sto-gbg, a real token and the Requestor header),
 * autocannon at 50 connections in the bench's process, every server in its own. The figure the goals read is the
 * server's CPU time per request (all its threads, from /proc): steadier than requests/s on a shared machine.
 *
 * Beside signalbox on the memory store and on SQLite (a temp dir), in the same rounds:
 * - the ceiling: a bare node:http server that parses the same request and answers signalbox's answer to it
 *   (recorded, serialised anew each time), doing none of signalbox's work;
 * - the same on Fastify, signalbox's framework;
 * - the floor: Fastify with signalbox's body parser, token check and Requestor, answering the same recorded answer:
 *   what any server that checks its caller as signalbox does and gives this answer costs. The goals are ratios to
 *   it in the same rounds (CPU per request, p99);
 * - signalbox on the memory store logging as `signalbox serve` does (JSON lines to stdout, here /dev/null);
 * - BENCH_AGAINST's commit on both stores (bench/baseline.ts).
 */
export async function run(runs = Number(process.env['BENCH_RUNS'] ?? 3)): Promise<CaseReport> {
  const r = report('http', `POST /v3/offers, 2 passengers, 1 trip of 2 legs; autocannon 50 connections, ${DURATION} s per run`);
  const dir = mkdtempSync(join(tmpdir(), 'signalbox-bench-http-'));
  const servers: ServerProcess[] = [];
  const started = (s: ServerProcess) => {
    servers.push(s);
    return s;
  };
  try {
    const memory = started(await startServer('signalbox', 'memory', 'signalbox-memory'));
    const sqlite = started(await startServer('signalbox', `sqlite:${join(dir, 'signalbox.db')}`, 'signalbox-sqlite'));
    const logging = started(await startServer('signalbox', 'memory', 'signalbox-memory-logged', undefined, ['logged']));
    const body = JSON.stringify(offersBody(2));
    type Target = { name: string; server: ServerProcess; headers: Record<string, string> };
    const mem: Target = { name: 'signalbox, memory store', server: memory, headers: resellerHeaders(await token(memory.base)) };
    const sql: Target = { name: 'signalbox, SQLite store', server: sqlite, headers: resellerHeaders(await token(sqlite.base)) };
    const logged: Target = { name: 'signalbox, memory store, logging as `serve` does', server: logging, headers: resellerHeaders(await token(logging.base)) };

    // One checked request each: the load is only worth measuring on 200 answers.
    const sizes: string[] = [];
    const check = async (t: Target) => {
      const c = client(t.server.base, 1);
      const res = await c.send('POST', '/v3/offers', body, t.headers);
      c.close();
      if (res.status !== 200) throw new Error(`${t.name}: POST /v3/offers answered ${res.status}: ${res.text.slice(0, 400)}`);
      sizes.push(`${t.name} ${fmtBytes(Buffer.byteLength(res.text))}`);
      return res;
    };
    const answer = await check(mem);
    await check(sql);
    const file = join(dir, 'offers-answer.json');
    writeFileSync(file, JSON.stringify([{ method: 'POST', path: '/v3/offers', status: answer.status, body: answer.body }]));
    const ceiling = started(await startServer('replay', file, 'replay-offers'));
    const onFastify = started(await startServer('replay-fastify', file, 'replay-offers-fastify'));
    const floorServer = started(await startServer('floor', file, 'floor-offers'));
    const top: Target = {
      name: "ceiling: bare node:http answering signalbox's answer",
      server: ceiling,
      headers: resellerHeaders('not-a-token-the-replay-ignores-it'),
    };
    const fastify: Target = { name: "ceiling on Fastify: signalbox's answer, no other work", server: onFastify, headers: top.headers };
    const floor: Target = {
      name: 'floor: Fastify, body parser, token, Requestor, the same answer',
      server: floorServer,
      headers: resellerHeaders(await token(floorServer.base)),
    };
    // Resellers' HTTP clients ask for gzip (CONTRACT §4): the same server and request, answered compressed.
    const gzip: Target = { name: 'signalbox, memory store, answers gzip-compressed', server: memory, headers: { ...mem.headers, 'accept-encoding': 'gzip' } };
    const targets = [top, fastify, floor, mem, sql, logged, gzip];
    // BENCH_AGAINST=REF: the same servers as built at another commit, in the same rounds (bench/baseline.ts).
    const oldMemory = await memoryServerBefore('signalbox-memory');
    const oldSqlite = await sqliteServerBefore(dir, 'signalbox-sqlite');
    const old: { mem?: Target; sql?: Target } = {};
    if (oldMemory)
      old.mem = {
        name: `signalbox at ${oldMemory.commit}, memory store`,
        server: started(oldMemory.server),
        headers: resellerHeaders(await token(oldMemory.server.base)),
      };
    if (oldSqlite)
      old.sql = {
        name: `signalbox at ${oldSqlite.commit}, SQLite store`,
        server: started(oldSqlite.server),
        headers: resellerHeaders(await token(oldSqlite.server.base)),
      };
    const oldGzip: Target | undefined = old.mem && {
      name: `signalbox at ${oldMemory!.commit}, memory store, answers gzip-compressed`,
      server: old.mem.server,
      headers: { ...old.mem.headers, 'accept-encoding': 'gzip' },
    };
    for (const t of [old.mem, old.sql, oldGzip]) if (t) targets.push(t);
    for (const t of targets.slice(0, 3)) await check(t);

    // The server's CPU time per request (all its threads, /proc) beside requests/s: steadier on a shared machine.
    type Run = LoadResult & { cpuUs: number; userUs: number; systemUs: number; otherThreadsUs: number };
    const once = async (t: Target, seconds?: number): Promise<Run> => {
      const cpu0 = t.server.cpuSplitMs();
      const x = clean(
        t.name,
        await load({ base: t.server.base, method: 'POST', path: '/v3/offers', headers: t.headers, body, ...(seconds ? { seconds } : {}) }),
      );
      const cpu1 = t.server.cpuSplitMs();
      const per = (ms: number) => (ms * 1000) / Math.max(1, x.requests);
      const spent = cpuSpent(cpu0, cpu1);
      return {
        ...x,
        cpuUs: per(spent.total),
        userUs: per(cpu1.user - cpu0.user),
        systemUs: per(spent.system),
        otherThreadsUs: per(spent.otherThreads),
      };
    };
    // Warm-up: JIT, connection pools, SQLite pages (WARM_UP, bench/load.ts, says why signalbox's servers take longer).
    const ceilings = new Set([top, fastify, floor]);
    for (const t of targets) await once(t, ceilings.has(t) ? Math.min(3, DURATION) : WARM_UP);
    const results = new Map<string, Run[]>(targets.map((t) => [t.name, []]));
    // Each round starts one target later than the last, so that no server always runs after the same one.
    for (let i = 0; i < runs; i++) for (const t of rotated(targets, i)) results.get(t.name)!.push(await once(t));

    const of = (t: Target, key: keyof Run) => results.get(t.name)!.map((x) => x[key]);
    for (const t of targets) r.row(`${t.name}: server CPU per request (all threads)`, 'µs', of(t, 'cpuUs'));
    for (const t of targets) r.row(`  of which in the kernel (system time): ${t.name}`, 'µs', of(t, 'systemUs'));
    for (const t of targets) r.row(`  of which off the main thread (V8's helpers, SQLite's writer): ${t.name}`, 'µs', of(t, 'otherThreadsUs'));
    for (const t of targets) r.row(`${t.name}: requests/s`, 'req/s', of(t, 'rps'));
    for (const t of targets) r.row(`${t.name}: p99 latency`, 'ms', of(t, 'p99'));
    const beyond = (xs: number[], base: number[]) => xs.map((x, i) => x - base[i]!);
    r.row("Fastify's own work in CPU: ceiling on Fastify's − ceiling's", 'µs', beyond(of(fastify, 'cpuUs'), of(top, 'cpuUs')));
    r.row("the token, Requestor and body checks in CPU: floor's − ceiling on Fastify's", 'µs', beyond(of(floor, 'cpuUs'), of(fastify, 'cpuUs')));
    r.row("signalbox's own work beyond the floor, memory store: signalbox's CPU − floor's", 'µs', beyond(of(mem, 'cpuUs'), of(floor, 'cpuUs')));
    r.row("signalbox's own work beyond the floor, SQLite store: signalbox's CPU − floor's", 'µs', beyond(of(sql, 'cpuUs'), of(floor, 'cpuUs')));
    r.row('what logging costs: signalbox logging as `serve` does − without logs, memory store', 'µs', beyond(of(logged, 'cpuUs'), of(mem, 'cpuUs')));
    r.row('what gzip costs: answers gzip-compressed − plain, memory store', 'µs', beyond(of(gzip, 'cpuUs'), of(mem, 'cpuUs')));
    for (const [now, before] of [
      [mem, old.mem],
      [sql, old.sql],
      [gzip, oldGzip],
    ] as const) {
      if (!before) continue;
      r.ratio(`server CPU per request, ${now.name} / ${before.name}`, ratios(of(now, 'cpuUs'), of(before, 'cpuUs')));
      r.ratio(`requests/s, ${now.name} / ${before.name}`, ratios(of(now, 'rps'), of(before, 'rps')));
    }
    const p99Memory = r.ratio('p99, memory store / floor (same round)', ratios(of(mem, 'p99'), of(floor, 'p99')));
    const p99Sqlite = r.ratio('p99, SQLite store / floor (same round)', ratios(of(sql, 'p99'), of(floor, 'p99')));
    // The goals are ratios to the floor measured in the same rounds: a busy machine slows both alike.
    const cpuMemory = r.ratio('server CPU per request, memory store / floor (same round)', ratios(of(mem, 'cpuUs'), of(floor, 'cpuUs')));
    const cpuSqlite = r.ratio('server CPU per request, SQLite store / floor (same round)', ratios(of(sql, 'cpuUs'), of(floor, 'cpuUs')));
    const against = (t: Target) => `${fmt(median(of(t, 'cpuUs')))} µs against the floor's ${fmt(median(of(floor, 'cpuUs')))} µs`;
    r.goal("POST /v3/offers ≤ 2.0× the floor's server CPU per request (memory store)", median(cpuMemory) <= 2, `${fmt(median(cpuMemory))}×, ${against(mem)}`);
    r.goal("POST /v3/offers ≤ 2.3× the floor's server CPU per request (SQLite store)", median(cpuSqlite) <= 2.3, `${fmt(median(cpuSqlite))}×, ${against(sql)}`);
    r.goal(
      "POST /v3/offers p99 at 50 connections ≤ 2× the floor's p99 (memory store)",
      median(p99Memory) <= 2,
      `${fmt(median(p99Memory))}×, ${fmt(median(of(mem, 'p99')))} ms against ${fmt(median(of(floor, 'p99')))} ms`,
    );
    r.goal(
      "POST /v3/offers p99 at 50 connections ≤ 2× the floor's p99 (SQLite store)",
      median(p99Sqlite) <= 2,
      `${fmt(median(p99Sqlite))}×, ${fmt(median(of(sql, 'p99')))} ms against ${fmt(median(of(floor, 'p99')))} ms`,
    );
    r.note(
      `the floor (Fastify, signalbox's body parser, token and Requestor, the same answer) costs ${fmt(median(of(floor, 'cpuUs')))} µs of server CPU per request; ` +
        `the ceilings ${fmt(median(of(top, 'cpuUs')))} µs (node:http) and ${fmt(median(of(fastify, 'cpuUs')))} µs (Fastify)`,
    );
    r.note(`request body ${fmtBytes(Buffer.byteLength(body))}; response bodies: ${sizes.join(', ')}`);
    const mm = await memory.memory();
    const sm = await sqlite.memory();
    r.note(
      `server RSS after the runs: memory store ${fmtBytes(mm.rss)} (it keeps up to 64 MiB of quotes), SQLite store ${fmtBytes(sm.rss)}; ` +
        `V8's young generation ${fmtBytes(mm.young)} and ${fmtBytes(sm.young)} of them`,
    );
  } finally {
    for (const s of servers) await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return r;
}
