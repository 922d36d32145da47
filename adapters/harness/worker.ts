import { parentPort, workerData } from 'node:worker_threads';
import { createEngine } from '../../engine/index.ts';
import type { RunOptions, ScenarioResult } from './results.ts';
import { runScenario } from './runner.ts';
import { inProcess } from './targets.ts';

/** A worker thread of `signalbox test --jobs N` (pool.ts): its own engine, scenario files in, results out. */
export interface WorkerSetup {
  rulesDir?: string;
  run: RunOptions;
}
export type WorkerReply = { type: 'ready' } | { type: 'result'; index: number; result: ScenarioResult };

if (parentPort) {
  const port = parentPort;
  const setup = workerData as WorkerSetup;
  const target = inProcess(createEngine(setup.rulesDir ? { rulesDir: setup.rulesDir } : {}));
  // A scenario that throws ends the thread, and pool.ts reports it as that scenario's failure.
  port.on('message', ({ index, file }: { index: number; file: string }) => {
    void runScenario(file, target, setup.run).then((result) => port.postMessage({ type: 'result', index, result } satisfies WorkerReply));
  });
  port.postMessage({ type: 'ready' } satisfies WorkerReply);
}
