import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createEngine } from '../engine/index.ts';
import { DEMO_SECRETS } from '../adapters/harness/demo-secrets.ts';
import { scenarioFiles } from '../adapters/harness/files.ts';
import { fillWaits } from '../adapters/harness/fill-waits.ts';
import { runFiles, WAITING_AT_ONCE } from '../adapters/harness/pool.ts';
import { runScenario } from '../adapters/harness/runner.ts';
import { inProcess, type HttpExchange, type Session, type Target } from '../adapters/harness/targets.ts';
import { against, interleaved, treeAt } from './baseline.ts';
import { importFrom } from './launcher.ts';
import { root } from './fixtures.ts';
import { fmt, median, ratios, report, type CaseReport } from './measure.ts';

/**
 * The scenario runner in-process (`runFiles` with the `inProcess` target and no worker, as `signalbox test --jobs 1`
 * runs it: a file at a time, another while those running wait for a timer): every scenario under scenarios/, over
 * and over for a bounded time, steps per second on one core. Baseline in the same run: the same requests and clock
 * moves, recorded on the first pass, replayed straight into the same target (a session per scenario: an emptied
 * in-process server, as the runner opens; the waits filled alike) without the runner: what the runner adds on top
 * of the server it drives. The runner's own token requests are left out of the replay (the tokens it recorded
 * stay valid: every in-process server shares the key).
 * Each figure also per second of this process's CPU time, which the machine's other work does not move; the
 * difference of the two per-step CPU figures is what the runner itself costs.
 */
type Op = { send: HttpExchange } | { setClock: string } | { advance: string };
interface Recording {
  start: string;
  ops: Op[];
}

/** Wraps a target and writes down every session it opens, op by op. */
function recorder(inner: Target, recordings: Recording[]): Target {
  return {
    name: inner.name,
    async open(start) {
      const session = await inner.open(start);
      const rec: Recording = { start, ops: [] };
      recordings.push(rec);
      const wrapped: Session = {
        send: (x) => {
          rec.ops.push({ send: x });
          return session.send(x);
        },
        setClock: (instant) => {
          rec.ops.push({ setClock: instant });
          return session.setClock(instant);
        },
        advanceClock: (iso) => {
          rec.ops.push({ advance: iso });
          return session.advanceClock(iso);
        },
        close: () => session.close(),
      };
      const traces = (session as { traces?: Session['traces'] }).traces;
      if (traces) (wrapped as { traces?: Session['traces'] }).traces = traces.bind(session);
      return wrapped;
    },
  };
}

/** The recordings replayed as the runner runs its files: one at a time, another only while those running wait (`fillWaits`). */
async function replay(target: Target, recordings: readonly Recording[]): Promise<void> {
  let next = 0;
  await fillWaits(target, WAITING_AT_ONCE, async (to) => {
    for (let rec = recordings[next++]; rec; rec = recordings[next++]) {
      const session = await to.open(rec.start);
      try {
        for (const op of rec.ops) {
          if ('send' in op) await session.send(op.send);
          else if ('setClock' in op) await session.setClock(op.setClock);
          else await session.advanceClock(op.advance);
        }
      } finally {
        await session.close();
      }
      await new Promise((r) => setImmediate(r));
    }
  });
}

export async function run(runs = Number(process.env['BENCH_RUNS'] ?? 5), seconds = 1.5): Promise<CaseReport> {
  const files = scenarioFiles([`${root}scenarios`]);
  const r = report('scenarios', `scenario runner in-process, ${files.length} scenario files, ${seconds} s per run, one core`);
  const target = inProcess(createEngine());
  const recordings: Recording[] = [];
  const recording = recorder(target, recordings);

  // First pass: record, count the steps that ran, and note failures (a failing scenario skips its rest).
  let stepsPerPass = 0;
  const failing: string[] = [];
  for (const file of files) {
    const before = recordings.length;
    const result = await runScenario(file, recording, { secrets: DEMO_SECRETS });
    stepsPerPass += result.steps.filter((s) => !s.skipped).length;
    if (!result.passed) failing.push(relative(root, file));
    // The runner's own token requests are not steps (it keeps tokens per target): leave them out of the replay.
    const rec = recordings[before];
    if (rec) {
      const isToken = (op: Op) => 'send' in op && op.send.path === '/oauth2/token';
      let extra = rec.ops.filter(isToken).length - result.steps.filter((s) => s.request?.path === '/oauth2/token').length;
      rec.ops = rec.ops.filter((op) => !(isToken(op) && extra-- > 0));
    }
  }
  if (stepsPerPass === 0) throw new Error('no scenario step ran');
  // As `signalbox test --jobs 1` runs them in-process: on this thread, no worker.
  const suite = async () => {
    await runFiles(files, target, { jobs: 1, run: { secrets: DEMO_SECRETS }, workers: {} });
  };

  const runner: number[] = [];
  const bare: number[] = [];
  const runnerCpu: number[] = [];
  const bareCpu: number[] = [];
  /** Passes of `pass` for `seconds` of wall time: steps per second of wall time and per second of this process's CPU. */
  const rates = async (pass: () => Promise<void>) => {
    let passes = 0;
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    while (performance.now() - t0 < seconds * 1000) {
      await pass();
      passes++;
    }
    const cpu = process.cpuUsage(c0);
    return { wall: (passes * stepsPerPass) / ((performance.now() - t0) / 1000), cpu: (passes * stepsPerPass) / ((cpu.user + cpu.system) / 1e6) };
  };
  for (let i = -1; i < runs; i++) {
    // run -1 is the warm-up
    const withRunner = await rates(suite);
    const replayed = await rates(() => replay(target, recordings));
    if (i >= 0) {
      runner.push(withRunner.wall);
      bare.push(replayed.wall);
      runnerCpu.push(withRunner.cpu);
      bareCpu.push(replayed.cpu);
    }
  }
  r.row('the runner, in-process (runFiles, one thread)', 'steps/s', runner);
  r.row('baseline: the same requests replayed into the target', 'steps/s', bare);
  const ofReplay = r.ratio('runner / replay', ratios(runner, bare), '%');
  r.row(
    'runner, per step',
    'µs',
    runner.map((x) => 1e6 / x),
  );
  // CPU time of this process (every thread: the collector's too) does not count the time the machine gave to others.
  r.row('the runner, steps per CPU second', 'steps/s', runnerCpu);
  r.row('replay, steps per CPU second', 'steps/s', bareCpu);
  r.row(
    'runner, CPU per step: of it the replay (server, in-process requests, reading the answer)',
    'µs',
    bareCpu.map((x) => 1e6 / x),
  );
  r.row(
    'runner, CPU per step: of it the runner (templates, checks, schema, results)',
    'µs',
    runnerCpu.map((x, i) => 1e6 / x - 1e6 / bareCpu[i]!),
  );
  const ref = against();
  if (ref) {
    // Another commit's runner and server on its own scenarios, a pass each in turns with this tree's (bench/baseline.ts).
    const before = await suiteAt(treeAt(ref).dir);
    const commit = treeAt(ref).commit;
    const t = await interleaved(suite, () => before.pass(), 2 * runs, 1, 1);
    const rate = (usPerPass: number[], steps: number) => usPerPass.map((us) => steps / (us / 1e6));
    r.row(`the runner at ${commit}, a pass in turns with this tree`, 'steps/s', rate(t.before, before.steps));
    r.row(`the runner in this tree, a pass in turns with ${commit}`, 'steps/s', rate(t.now, stepsPerPass));
    r.ratio(
      `this tree / ${commit} (steps/s)`,
      t.now.map((us, i) => stepsPerPass / us / (before.steps / t.before[i]!)),
    );
    const cpu = await cpuInTurns(suite, () => before.pass(), 2 * runs);
    r.row(
      `the runner at ${commit}, CPU per step, a pass in turns with this tree`,
      'µs',
      cpu.before.map((us) => us / before.steps),
    );
    r.row(
      `the runner in this tree, CPU per step, a pass in turns with ${commit}`,
      'µs',
      cpu.now.map((us) => us / stepsPerPass),
    );
    r.ratio(
      `this tree / ${commit} (CPU per step)`,
      cpu.now.map((us, i) => us / stepsPerPass / (cpu.before[i]! / before.steps)),
    );
  }
  r.goal('≥ 2,000 scenario steps/s in-process on one core', median(runner) >= 2000, `${fmt(median(runner))} steps/s; ${fmt(median(runnerCpu))} per CPU second`);
  // Judged against the bare replay of the same requests in the same run: the runner's own cost, whatever the machine.
  r.goal('the runner ≥ 0.8× the steps/s of a bare replay of its requests (same run)', median(ofReplay) >= 0.8, `${fmt(median(ofReplay))}×`);
  r.note(`${stepsPerPass} steps per pass over ${files.length} files; every scenario opens a session on an emptied in-process server (apps are reused)`);
  if (failing.length > 0) r.note(`scenarios failing right now (their skipped steps are not counted): ${failing.join(', ')}`);
  return r;
}

/** CPU µs of this process per call of `now` and of `before`, called in turns (which goes first alternates), after a warm-up turn. */
async function cpuInTurns(now: () => Promise<unknown>, before: () => Promise<unknown>, rounds: number): Promise<{ now: number[]; before: number[] }> {
  const cpu = async (fn: () => Promise<unknown>) => {
    const c0 = process.cpuUsage();
    await fn();
    const c = process.cpuUsage(c0);
    return c.user + c.system;
  };
  await cpu(before);
  await cpu(now);
  const out = { now: [] as number[], before: [] as number[] };
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      out.before.push(await cpu(before));
      out.now.push(await cpu(now));
    } else {
      out.now.push(await cpu(now));
      out.before.push(await cpu(before));
    }
  }
  return out;
}

/** Another tree's scenario suite run by its own runner on its own in-process server; `steps`: what one pass runs (its first). */
async function suiteAt(dir: string): Promise<{ steps: number; pass: () => Promise<number> }> {
  // The named tree may predate the adapters' wings: each module is looked for where it is now, then where it was.
  const load = <T>(path: string, before: string = path) => importFrom<T>(dir, existsSync(join(dir, path)) ? path : before);
  const [{ createEngine: engineOf }, { DEMO_SECRETS: secrets }, { scenarioFiles: filesOf }, { runFiles: runOf }, { inProcess: targetOf }] = await Promise.all([
    load<typeof import('../engine/index.ts')>('engine/index.ts'),
    load<typeof import('../adapters/harness/demo-secrets.ts')>('adapters/harness/demo-secrets.ts', 'adapters/cli/demo.ts'),
    load<typeof import('../adapters/harness/files.ts')>('adapters/harness/files.ts', 'adapters/scenarios/files.ts'),
    load<typeof import('../adapters/harness/pool.ts')>('adapters/harness/pool.ts', 'adapters/scenarios/pool.ts'),
    load<typeof import('../adapters/harness/targets.ts')>('adapters/harness/targets.ts', 'adapters/scenarios/targets.ts'),
  ]);
  const files = filesOf([join(dir, 'scenarios')]);
  const target = targetOf(engineOf());
  const pass = async () => {
    const results = await runOf(files, target, { jobs: 1, run: { secrets }, workers: {} });
    return results.reduce((steps, r) => steps + r.steps.filter((s) => !s.skipped).length, 0);
  };
  return { steps: await pass(), pass };
}
