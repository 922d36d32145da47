import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteServerBefore } from './baseline.ts';
import { client, offersBody, resellerHeaders, token } from './fixtures.ts';
import { clean, DURATION, load, type LoadResult } from './load.ts';
import { fmt, fmtBytes, median, ratios, report, rotated, type CaseReport } from './measure.ts';
import { startServer, type ServerProcess } from './processes.ts';

/**
 * HTTP POST /v3/offers (2 passengers, the 2-leg fixture trip upp-sto-gbg, a real token and the Requestor
 * header) against a bare node:http server that parses the same JSON body and echoes it. Every server runs
 * in its own process; autocannon (50 connections) runs in the bench's. Runs of the servers are interleaved
 * so that noise from other work on the machine falls on all of them alike.
 *
 * signalbox runs twice: on the memory store, and on SQLite in a temp dir (the default store, where every
 * POST /offers is a durable commit of the offers it made).
 *
 * The ceiling: a bare node:http server that parses the same request and answers signalbox's 15.7 KB answer to
 * it (recorded, serialised anew each time), doing none of signalbox's work. What a request may cost beyond that
 * ceiling's time, at the goal's share of the echo, is the budget of all of signalbox's own work.
 */
export async function run(runs = Number(process.env['BENCH_RUNS'] ?? 3)): Promise<CaseReport> {
  const r = report('http', `POST /v3/offers, 2 passengers, 1 trip of 2 legs; autocannon 50 connections, ${DURATION} s per run`);
  const dir = mkdtempSync(join(tmpdir(), 'signalbox-bench-http-'));
  const servers: ServerProcess[] = [];
  try {
    const bare = await startServer('bare');
    servers.push(bare);
    const memory = await startServer('signalbox', 'memory', 'signalbox-memory');
    servers.push(memory);
    const sqlite = await startServer('signalbox', `sqlite:${join(dir, 'signalbox.db')}`, 'signalbox-sqlite');
    servers.push(sqlite);

    const body = JSON.stringify(offersBody(2));
    const targets = [
      { name: 'bare node:http echo', server: bare, headers: resellerHeaders('not-a-token-the-echo-ignores-it') },
      { name: 'signalbox, memory store', server: memory, headers: resellerHeaders(await token(memory.base)) },
      { name: 'signalbox, SQLite store', server: sqlite, headers: resellerHeaders(await token(sqlite.base)) },
    ];
    // BENCH_AGAINST=REF: the same SQLite server as built at another commit, in the same rounds (bench/baseline.ts).
    const before = await sqliteServerBefore(dir, 'signalbox-sqlite');
    if (before) {
      servers.push(before.server);
      targets.push({ name: `signalbox at ${before.commit}, SQLite store`, server: before.server, headers: resellerHeaders(await token(before.server.base)) });
    }
    // One checked request each: the load is only worth measuring on 200 answers.
    const sizes: string[] = [];
    const check = async (t: (typeof targets)[number]) => {
      const c = client(t.server.base, 1);
      const res = await c.send('POST', '/v3/offers', body, t.headers);
      c.close();
      if (res.status !== 200) throw new Error(`${t.name}: POST /v3/offers answered ${res.status}: ${res.text.slice(0, 400)}`);
      sizes.push(`${t.name} ${fmtBytes(Buffer.byteLength(res.text))}`);
      return res;
    };
    for (const t of [...targets]) {
      const res = await check(t);
      if (t.server !== memory) continue;
      const file = join(dir, 'offers-answer.json');
      writeFileSync(file, JSON.stringify([{ method: 'POST', path: '/v3/offers', status: res.status, body: res.body }]));
      const ceiling = await startServer('replay', file, 'replay-offers');
      servers.push(ceiling);
      const onFastify = await startServer('replay-fastify', file, 'replay-offers-fastify');
      servers.push(onFastify);
      targets.splice(1, 0,
        { name: "ceiling: bare node:http answering signalbox's answer", server: ceiling, headers: targets[0]!.headers },
        { name: "ceiling on Fastify: signalbox's answer, no other work", server: onFastify, headers: targets[0]!.headers });
      await check(targets[1]!);
      await check(targets[2]!);
    }
    // The server's CPU time per request (all its threads, /proc) beside requests/s: steadier on a shared machine.
    const once = async (t: (typeof targets)[number], seconds?: number) => {
      const cpu0 = t.server.cpuMs();
      const x = clean(t.name, await load({ base: t.server.base, method: 'POST', path: '/v3/offers', headers: t.headers, body, ...(seconds ? { seconds } : {}) }));
      return { ...x, cpuUs: ((t.server.cpuMs() - cpu0) * 1000) / Math.max(1, x.requests) };
    };

    for (const t of targets) await once(t, Math.min(3, DURATION)); // warm-up: JIT, connection pools, SQLite pages
    const results = new Map<string, Array<LoadResult & { cpuUs: number }>>(targets.map((t) => [t.name, []]));
    // Each round starts one target later than the last, so that no server always runs after the same one.
    for (let i = 0; i < runs; i++) for (const t of rotated(targets, i)) results.get(t.name)!.push(await once(t));

    const rps = (name: string) => results.get(name)!.map((x) => x.rps);
    const p99 = (name: string) => results.get(name)!.map((x) => x.p99);
    for (const t of targets) r.row(`${t.name}: requests/s`, 'req/s', rps(t.name));
    for (const t of targets) r.row(`${t.name}: p99 latency`, 'ms', p99(t.name));
    for (const t of targets) r.row(`${t.name}: p50 latency`, 'ms', results.get(t.name)!.map((x) => x.p50));
    const cpu = (name: string) => results.get(name)!.map((x) => x.cpuUs);
    for (const t of targets) r.row(`${t.name}: server CPU per request (all threads)`, 'µs', cpu(t.name));
    const [echo, top, fastify, mem, sql, old] = targets;
    if (old) {
      r.ratio(`this tree / ${before!.commit}, SQLite store (requests/s)`, ratios(rps(sql!.name), rps(old.name)));
      r.ratio(`this tree / ${before!.commit}, SQLite store (server CPU per request)`, ratios(cpu(sql!.name), cpu(old.name)));
    }
    const memShare = r.ratio('signalbox memory / bare (requests/s)', ratios(rps(mem!.name), rps(echo!.name)), '%');
    const sqlShare = r.ratio('signalbox SQLite / bare (requests/s)', ratios(rps(sql!.name), rps(echo!.name)), '%');
    const topShare = r.ratio('ceiling / bare (requests/s)', ratios(rps(top!.name), rps(echo!.name)), '%');
    const fastifyShare = r.ratio('ceiling on Fastify / bare (requests/s)', ratios(rps(fastify!.name), rps(echo!.name)), '%');
    // Time per request at 50 connections is 1 / (requests/s); the ceiling's is the least any server answering 15.7 KB
    // spends. At 35 % of the echo, signalbox's own work (Fastify, token, Requestor, validation, engine, storing the
    // offers) may cost the difference; beside it, what that work costs now.
    const perRequest = (name: string) => rps(name).map((x) => 1e6 / x);
    const beyond = (xs: number[], ceiling: number[]) => xs.map((x, i) => x - ceiling[i]!);
    const budget = beyond(perRequest(echo!.name).map((t) => t / 0.35), perRequest(top!.name));
    const ownWork = beyond(perRequest(mem!.name), perRequest(top!.name));
    r.row("budget for signalbox's own work at 35 % of the echo: 1 / (0.35 × echo) − 1 / ceiling", 'µs', budget);
    r.row("Fastify's own work: 1 / ceiling on Fastify − 1 / ceiling", 'µs', beyond(perRequest(fastify!.name), perRequest(top!.name)));
    r.row("signalbox's own work now, memory store: 1 / signalbox − 1 / ceiling", 'µs', ownWork);
    // The same in server CPU per request, steadier on a shared machine than requests/s.
    r.row("CPU budget for signalbox's own work at 35 % of the echo: echo's CPU / 0.35 − ceiling's", 'µs', beyond(cpu(echo!.name).map((c) => c / 0.35), cpu(top!.name)));
    r.row("Fastify's own work in CPU: ceiling on Fastify's − ceiling's", 'µs', beyond(cpu(fastify!.name), cpu(top!.name)));
    r.row("signalbox's own work in CPU, memory store: signalbox's − ceiling's", 'µs', beyond(cpu(mem!.name), cpu(top!.name)));
    r.goal('POST /v3/offers ≥ 35% of bare requests/s (memory store)', median(memShare) >= 0.35, `${fmt(median(memShare) * 100)}%`);
    r.goal('POST /v3/offers ≥ 35% of bare requests/s (SQLite store)', median(sqlShare) >= 0.35, `${fmt(median(sqlShare) * 100)}%`);
    r.goal('POST /v3/offers p99 < 10 ms at 50 connections (memory store)', median(p99(mem!.name)) < 10, `${fmt(median(p99(mem!.name)))} ms`);
    r.goal('POST /v3/offers p99 < 10 ms at 50 connections (SQLite store)', median(p99(sql!.name)) < 10, `${fmt(median(p99(sql!.name)))} ms`);
    r.note(`the goal against the ceilings: a server doing nothing but answering signalbox's answer reaches ${fmt(median(topShare) * 100)}% of the echo `
      + `(${fmt(median(fastifyShare) * 100)}% on Fastify), with p99 ${fmt(median(p99(top!.name)))} ms (${fmt(median(p99(fastify!.name)))} ms); `
      + `35% leaves ${fmt(median(budget))} µs per request for all of signalbox's own work, which takes ${fmt(median(ownWork))} µs`);
    r.note(`request body ${fmtBytes(Buffer.byteLength(body))}; response bodies: ${sizes.join(', ')}`);
    const mm = await memory.memory();
    const sm = await sqlite.memory();
    r.note(`server RSS after the runs: memory store ${fmtBytes(mm.rss)} (it keeps up to 512 MiB of quotes), SQLite store ${fmtBytes(sm.rss)}`);
  } finally {
    for (const s of servers) await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return r;
}
