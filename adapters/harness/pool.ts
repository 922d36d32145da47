import { Worker } from 'node:worker_threads';
import type { RunOptions, ScenarioResult } from './results.ts';
import { runScenario } from './runner.ts';
import { fillWaits } from './fill-waits.ts';
import type { Target } from './targets.ts';
import type { WorkerSetup, WorkerReply } from './worker.ts';

/** How `runFiles` runs: how many at a time, with what, and who hears of each result. */
export interface PoolOptions {
  jobs: number;
  run: RunOptions;
  /**
   * For in-process runs: what each worker builds its own engine from, and how much work must be left
   * before workers are worth starting (default WORKER_START_MS). Absent: no workers (live targets).
   */
  workers?: { rulesDir?: string; startAfterMs?: number };
  /** Stop starting scenarios after the first failure (`--bail`); those already running finish. */
  bail?: boolean;
  /** Each result as it arrives (any order), e.g. for a progress line; `thread` 0 is the main thread. */
  onResult?(result: ScenarioResult, index: number, thread: number): void;
}

/**
 * A worker thread from the TypeScript sources takes a while to be ready (the rules load), and runs its
 * first few dozen scenarios slower than a warm thread: with less work than this left, it cannot pay for itself even
 * with a core to spare (docs/performance.md, "The scenario runner").
 */
const WORKER_START_MS = 1500;

/** In-process, how many scenarios the main thread runs at once at most while others wait (`fillWaits`). */
export const WAITING_AT_ONCE = 4;

/**
 * Runs scenario files `jobs` at a time and returns their results in file order, whichever finished first
 * (with `bail`, only those that ran: the files after a failure are never started).
 *
 * In-process scenarios are CPU-bound, so concurrency on one thread gains nothing: the extra jobs are
 * worker threads, each with its own engine. The main thread starts another file only while its scenarios all
 * wait for a timer or one of Node's threads (`fillWaits`: a sandbox fault's delay). A worker is slow to start
 * and to warm up (WORKER_START_MS), as long as a hundred short scenarios, so the main thread starts on the files
 * at once and workers are started only once the work left, at the pace so far, is longer than that; they join
 * as they are ready.
 * A live target does the work in another process: there the jobs are concurrent runs on this thread.
 */
export function runFiles(files: readonly string[], target: Target, options: PoolOptions): Promise<ScenarioResult[]> {
  const results = new Array<ScenarioResult>(files.length);
  let next = 0;
  let taken = 0;
  const take = () => (next < files.length ? (taken++, next++) : undefined);
  if (files.length === 0) return Promise.resolve(results);

  return new Promise((resolve) => {
    const workers: Worker[] = [];
    let completed = 0;
    const finish = (index: number, result: ScenarioResult, thread = 0) => {
      results[index] = result;
      options.onResult?.(result, index, thread);
      if (options.bail && !result.passed) next = files.length;
      if (++completed === taken && next === files.length) {
        for (const w of workers) void w.terminate();
        resolve(results.filter(Boolean));
      }
    };
    // The pace is taken after the first scenario, which also pays for warming up and the first token.
    let warm = 0;
    let spawned = !options.workers || options.jobs < 2;
    const spawnIfWorthIt = (done: number) => {
      if (done === 1) warm = performance.now();
      const left = files.length - next;
      if (spawned || done < 3 || ((performance.now() - warm) / (done - 1)) * left < (options.workers?.startAfterMs ?? WORKER_START_MS)) return;
      spawned = true;
      const setup: WorkerSetup = { run: options.run, ...(options.workers?.rulesDir ? { rulesDir: options.workers.rulesDir } : {}) };
      for (let k = 1; k < Math.min(options.jobs, left + 1); k++) workers.push(startWorker(setup, take, files, finish));
    };
    let done = 0;
    const lane = async (to: Target) => {
      for (let i = take(); i !== undefined; i = take()) {
        finish(i, await runSafely(files[i]!, to, options.run));
        spawnIfWorthIt(++done);
        // Let worker messages in between scenarios: an in-process run alone would never yield to them.
        await new Promise((r) => setImmediate(r));
      }
    };
    // With `bail`, the main thread runs strictly one file after another, so `--jobs 1 --bail` stops at the first failure.
    if (options.workers && !options.bail) void fillWaits(target, WAITING_AT_ONCE, lane);
    else for (let k = 0; k < (options.workers ? 1 : Math.min(options.jobs, files.length)); k++) void lane(target);
  });
}

/** A scenario whose run threw (a bug, or a target that cannot be reached) is a failed result, not a crash. */
async function runSafely(file: string, target: Target, options: RunOptions): Promise<ScenarioResult> {
  const started = performance.now();
  try {
    return await runScenario(file, target, options);
  } catch (e) {
    const why = e instanceof Error ? (e.cause instanceof Error ? `${e.message}: ${e.cause.message}` : e.message) : String(e);
    return {
      file,
      name: file,
      tags: [],
      passed: false,
      problems: [`${file}: could not run against ${target.name}: ${why}`],
      steps: [],
      ms: performance.now() - started,
    };
  }
}

function startWorker(
  setup: WorkerSetup,
  take: () => number | undefined,
  files: readonly string[],
  finish: (i: number, r: ScenarioResult, thread: number) => void,
): Worker {
  const worker = spawn(setup);
  let inFlight: number | undefined;
  const feed = () => {
    inFlight = take();
    if (inFlight === undefined) void worker.terminate();
    else worker.postMessage({ index: inFlight, file: files[inFlight] });
  };
  worker.on('message', (reply: WorkerReply) => {
    if (reply.type === 'result') {
      inFlight = undefined;
      finish(reply.index, reply.result, worker.threadId);
    }
    feed();
  });
  worker.on('error', (e: Error) => {
    // A worker that dies takes only its current file with it; the other lanes run the rest.
    if (inFlight === undefined) process.emitWarning(`a scenario worker thread stopped: ${e.message}; the other threads run the rest`);
    else {
      const file = files[inFlight]!;
      finish(
        inFlight,
        { file, name: file, tags: [], passed: false, problems: [`${file}: the worker running it failed: ${e.stack ?? e.message}`], steps: [], ms: 0 },
        worker.threadId,
      );
      inFlight = undefined;
    }
  });
  return worker;
}

/** The worker from the module beside this one: TypeScript in a checkout (Node strips its types), JavaScript in dist/. */
function spawn(setup: WorkerSetup): Worker {
  const here = import.meta.url;
  return new Worker(new URL(here.endsWith('.ts') ? './worker.ts' : './worker.js', here), { workerData: setup });
}
