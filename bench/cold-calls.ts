import { inProcessClient } from '../adapters/harness/in-process-transport.ts';
import { buildServer } from '../adapters/http/server.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { createEngine } from '../engine/index.ts';
import { resellerHeaders, tokenForm, type Reply } from './fixtures.ts';
import { lifecycle, STEPS } from './lifecycle.ts';
import { fmt, median, table } from './measure.ts';

/**
 * What the engine's calls cost inside a request, where the rest of the request has just run other code over other data,
 * against the same call made again at once with the same arguments, when the processor's caches (and its branch
 * predictors and TLBs) hold what the call just used. Shows why a call costs more in a loaded server than in a loop
 * (docs/performance.md, "Cold calls"). A tool, not a bench case: no goal depends on it.
 *
 *   node bench/cold-calls.ts [ROUNDS] [SALES]      (defaults: 6 rounds of 1,500 lifecycles; best read pinned:
 *                                                  taskset -c 1 node bench/cold-calls.ts)
 *
 * Each round runs SALES lifecycles one after another (the lifecycle case's steps: a sale, then a refund) through the
 * whole app in process, on the memory store. Each engine call below is made twice: the first is timed as "in the request", the
 * second, with the same arguments, as "again at once"; the request goes on with the second's result. The engine is
 * pure, so calling it twice changes nothing but the ids it draws. The first round is the warm-up.
 */
const CALLS = ['readOfferRequest', 'decideOffers', 'readBookingRequest', 'book', 'confirm'] as const;

const rounds = Number(process.argv[2] ?? 6);
const sales = Number(process.argv[3] ?? 1500);
const cpuMicros = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};

const engine = createEngine();
const spent = new Map<string, { first: number; again: number; calls: number }>();
for (const name of CALLS) {
  const call = (engine[name] as (...args: unknown[]) => unknown).bind(engine);
  const sum = { first: 0, again: 0, calls: 0 };
  spent.set(name, sum);
  (engine as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
    let t = cpuMicros();
    call(...args);
    sum.first += cpuMicros() - t;
    t = cpuMicros();
    const result = call(...args);
    sum.again += cpuMicros() - t;
    sum.calls++;
    return result;
  };
}

const app = await buildServer({ engine, store: memoryStore(), jwtSecret: 'cold-calls' });
const inProcess = inProcessClient(app);
await app.ready();
const tokenAnswer = await inProcess('POST', '/oauth2/token', { 'content-type': 'application/x-www-form-urlencoded' }, tokenForm());
const headers = resellerHeaders((JSON.parse(tokenAnswer.body) as { access_token: string }).access_token);
const send = async (method: string, path: string, body?: unknown): Promise<Reply> => {
  const answer = await inProcess(
    method,
    path,
    body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body === undefined ? undefined : JSON.stringify(body),
  );
  return { status: answer.status, body: answer.body ? (JSON.parse(answer.body) as unknown) : undefined, text: answer.body };
};

const perRound = new Map<string, { first: number[]; again: number[] }>(CALLS.map((name) => [name, { first: [], again: [] }]));
for (let round = 0; round < rounds; round++) {
  for (const sum of spent.values()) Object.assign(sum, { first: 0, again: 0, calls: 0 });
  for (let n = 0; n < sales; n++) {
    await lifecycle(send, STEPS, round * sales + n);
    // A turn of the event loop now and then, as a server gets between requests.
    if (n % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  if (round === 0) continue;
  for (const [name, sum] of spent) {
    perRound.get(name)!.first.push(sum.first / sum.calls);
    perRound.get(name)!.again.push(sum.again / sum.calls);
  }
}
await app.close();

console.log(`CPU per engine call, µs, median of ${rounds - 1} rounds of ${sales} lifecycles after one round of warm-up`);
console.log(
  table(
    ['engine call', 'in the request', 'again at once', 'ratio'],
    CALLS.map((name) => {
      const { first, again } = perRound.get(name)!;
      return [name, fmt(median(first)), fmt(median(again)), `${fmt(median(first.map((f, i) => f / again[i]!)))}×`];
    }),
  ),
);
