import { createEngine, type Call } from '../engine/index.ts';
import { CLIENT, offersBody } from './fixtures.ts';
import { against, engineAt, interleaved } from './baseline.ts';
import { fmt, median, microsPerCall, ratios, report, type CaseReport } from './measure.ts';

/** Seconds of calls before the engine is measured (BENCH_ENGINE_WARMUP). */
const ENGINE_WARMUP = Number(process.env['BENCH_ENGINE_WARMUP'] ?? 5);

/**
 * `engine.offers(call, body)` in-process (docs/embedding.md): 1 and 9 passengers on the
 * 2-leg fixture trip. Baselines: `JSON.stringify` of the same call's response, the least any adapter must
 * spend on an answer, so the ratio says how many serialisations of its own output one offers call costs; and
 * `JSON.parse` of that text, which builds the same objects (without the engine's shared parts) and decides nothing.
 */
export async function run(runs = Number(process.env['BENCH_RUNS'] ?? 5)): Promise<CaseReport> {
  const engine = createEngine();
  const r = report('engine', 'engine.offers(call, body) in-process, 1 trip of 2 legs');
  let n = 0;
  const call: Call = {
    requestor: { client: CLIENT, salesApplication: 'WEB_SE', salesUnitCode: 'BENCH', language: 'en-GB' },
    now: new Date(),
    ids: { next: (kind) => `${kind}-${++n}` },
  };
  const bodies = { 1: offersBody(1), 9: offersBody(9) };
  const sizes: string[] = [];
  for (const [p, body] of Object.entries(bodies)) {
    const { value } = engine.offers(call, body);
    if (value.offers.length === 0) throw new Error(`engine.offers gave no offers for ${p} passengers`);
    sizes.push(`${p} passenger(s): ${value.offers.length} offers, response ${fmt(JSON.stringify(value.response).length)} B`);
  }

  const results: Record<'1' | '9', { offers: number[]; read: number[]; stringify: number[]; parse: number[] }> = {
    1: { offers: [], read: [], stringify: [], parse: [] },
    9: { offers: [], read: [], stringify: [], parse: [] },
  };
  // Warm-up: V8 keeps compiling the engine for seconds, and a short warm-up left the first case measuring mostly the
  // compiler (docs/performance.md). Both bodies take turns, so neither is measured while the other's paths compile.
  const warmUntil = performance.now() + ENGINE_WARMUP * 1000;
  while (performance.now() < warmUntil) for (const p of ['1', '9'] as const) microsPerCall(() => engine.offers(call, bodies[p]), 100);
  for (const p of ['1', '9'] as const) {
    const body = bodies[p];
    const response = engine.offers(call, body).value.response;
    const text = JSON.stringify(response);
    for (let i = 0; i < runs; i++) {
      results[p].offers.push(microsPerCall(() => engine.offers(call, body)));
      results[p].read.push(microsPerCall(() => engine.readOfferRequest(call, body)));
      results[p].stringify.push(microsPerCall(() => JSON.stringify(response)));
      results[p].parse.push(microsPerCall(() => JSON.parse(text) as unknown));
    }
  }
  r.row('engine.offers, 1 passenger', 'µs', results[1].offers);
  r.row('engine.offers, 9 passengers', 'µs', results[9].offers);
  // The part of a call that reads the request (limits, zod): the rest decides and renders.
  r.row('  of which reading the request (engine.readOfferRequest), 1 passenger', 'µs', results[1].read);
  r.row('  of which reading the request (engine.readOfferRequest), 9 passengers', 'µs', results[9].read);
  r.row('baseline: JSON.stringify(response), 1 passenger', 'µs', results[1].stringify);
  r.row('baseline: JSON.stringify(response), 9 passengers', 'µs', results[9].stringify);
  // The same objects built from text, nothing decided: what building the answer at all costs without sharing.
  r.row('baseline: JSON.parse of the answer, 1 passenger', 'µs', results[1].parse);
  r.row('baseline: JSON.parse of the answer, 9 passengers', 'µs', results[9].parse);
  r.ratio('offers / stringify, 1 passenger', ratios(results[1].offers, results[1].stringify));
  r.ratio('offers / stringify, 9 passengers', ratios(results[9].offers, results[9].stringify));
  r.ratio('offers / parse of the answer, 9 passengers', ratios(results[9].offers, results[9].parse));
  r.ratio('9 passengers / 1 passenger', ratios(results[9].offers, results[1].offers));
  const ref = against();
  if (ref) {
    // The same calls on another commit's engine, timed in turns with this one (bench/baseline.ts).
    const before = await engineAt(ref);
    const old = before.createEngine();
    for (const p of ['1', '9'] as const) {
      const body = bodies[p];
      const mine = engine.offers(call, body);
      const theirs = old.offers(call, body);
      const sameAnswer = withoutIds(theirs.value.response) === withoutIds(mine.value.response);
      const sameTraces = tracesOf(theirs.traces) === tracesOf(mine.traces);
      // Turns of 200 calls: a 9-passenger call allocates enough that a shorter turn sees a young-generation collection
      // or not, and its ratio swings widely; over 200 calls the collections even out.
      const t = await interleaved(
        () => engine.offers(call, body),
        () => old.offers(call, body),
        150,
        200,
      );
      r.row(`engine.offers at ${before.commit}, ${p} passenger(s), in turns with this tree`, 'µs', t.before);
      r.row(`engine.offers in this tree, ${p} passenger(s), in turns with ${before.commit}`, 'µs', t.now);
      const differ = [sameAnswer ? '' : ' — THE ANSWERS DIFFER', sameTraces ? '' : ' — THE TRACES DIFFER'].join('');
      r.ratio(`this tree / ${before.commit}, ${p} passenger(s) (${t.ratio.length} turns of 200 calls)${differ}`, t.ratio);
    }
  }
  const nine = median(results[9].offers);
  r.goal('engine.offers for 9 passengers < 50 µs', nine < 50, `${fmt(nine)} µs`);
  r.note(sizes.join('; '));
  return r;
}

/** Traces as JSON with the rule files named from their folder: the other commit's rules lie in another folder. */
const tracesOf = (traces: unknown) => JSON.stringify(traces).replace(/"[^"]*?(rules\/[\w.-]+\.yaml)/g, '"$1');

/** A response as JSON with its generated offer and part ids blanked, to compare two engines' answers. */
const withoutIds = (response: unknown) => JSON.stringify(response).replace(/"(offer|part)-\d+/g, '"$1');
