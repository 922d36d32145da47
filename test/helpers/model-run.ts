import { resolve } from 'node:path';
import fc from 'fast-check';
import { seed as fixedSeed } from './facts.ts';
import { newModel, type Model } from './model.ts';
import type { ApiCommand, CommandSpec } from './model-command.ts';
import { writeScenario } from './model-scenario.ts';
import { PropertyViolation, System } from './model-system.ts';
import { testServer } from './server.ts';

/**
 * Running command sequences against a fresh in-process server, and the property around it: seeds,
 * sizes, and what a failure leaves behind (the shrunk sequence as a scenario file).
 */

export interface Run {
  model: Model;
  system: System;
}

/** A command as fast-check runs it (an ApiCommand, or a wrapper of one). */
export type ModelCommand = fc.AsyncCommand<Model, System, boolean>;

/** A run that threw: what was sent up to the failure, and why. */
class RunFailure extends Error {
  override name = 'RunFailure';
  override readonly cause: unknown;
  readonly run: Run;
  constructor(cause: unknown, run: Run) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.cause = cause;
    this.run = run;
  }
}

/**
 * Runs `commands` (those the model enables) on a fresh server: memory store, virtual clock at START,
 * sequential ids; deterministic, so a sequence replays exactly. Rejects with a RunFailure.
 */
export async function runModel(commands: Iterable<ModelCommand>): Promise<Run> {
  const server = await testServer();
  const run: Run = { model: newModel(), system: new System(server.app) };
  try {
    await fc.asyncModelRun(() => ({ model: run.model, real: run.system }), commands);
    return run;
  } catch (e) {
    throw new RunFailure(e, run);
  } finally {
    await server.app.close();
  }
}

/**
 * The seed and the number of runs. `npm test`: the fixed seed of test/helpers/facts.ts and `fast` runs.
 * FC_SEED replays a seed, FC_RUNS sets the runs, FC_PATH (with FC_SEED) replays one shrunk counterexample.
 */
export function propertySettings(fast: number): { seed: number; numRuns: number; path?: string } {
  const path = process.env['FC_PATH'];
  return { seed: fixedSeed(), numRuns: Number(process.env['FC_RUNS'] ?? fast), ...(path ? { path } : {}) };
}

/**
 * Command sequences of `min`–`max` commands picked by weight among the specs: fast-check's `commands`
 * (which shrinks whole sequences, dropping commands the model did not enable), generating at least
 * `min` so that runs reach deep states, while shrinking may go below it.
 */
export function commandSequences(specs: readonly CommandSpec[], size: { min: number; max: number }): fc.Arbitrary<Iterable<ModelCommand>> {
  const arbitraries = specs.flatMap((s) => Array.from({ length: s.weight ?? 1 }, () => s.arbitrary));
  return new AtLeast(fc.commands(arbitraries, { maxCommands: size.max, size: 'max' }), size.min);
}

class AtLeast<T> extends fc.Arbitrary<Iterable<T>> {
  private readonly inner: fc.Arbitrary<Iterable<T>>;
  private readonly min: number;
  constructor(inner: fc.Arbitrary<Iterable<T>>, min: number) {
    super();
    this.inner = inner;
    this.min = min;
  }
  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<Iterable<T>> {
    for (let attempt = 0; ; attempt++) {
      const v = this.inner.generate(mrng, biasFactor);
      if ([...v.value_].length >= this.min || attempt >= 100) return v;
    }
  }
  canShrinkWithoutContext(value: unknown): value is Iterable<T> {
    return this.inner.canShrinkWithoutContext(value);
  }
  shrink(value: Iterable<T>, context: unknown): fc.Stream<fc.Value<Iterable<T>>> {
    return this.inner.shrink(value, context);
  }
}

/** What the passing runs did: how deep they went, for the report and for tuning weights. */
export class Stats {
  runs = 0;
  commands = 0;
  requests = 0;
  readonly byCommand = new Map<string, number>();
  readonly taken = new Map<string, number>();
  readonly finalStates = new Map<string, number>();

  add({ model, system }: Run): void {
    this.runs++;
    this.commands += system.commands.length;
    this.requests += system.steps.length;
    for (const c of system.commands) {
      const name = c.replace(/\(.*$/, '');
      this.byCommand.set(name, (this.byCommand.get(name) ?? 0) + 1);
    }
    for (const t of model.taken) this.taken.set(t, (this.taken.get(t) ?? 0) + 1);
    for (const b of model.bookings) this.finalStates.set(b.state, (this.finalStates.get(b.state) ?? 0) + 1);
  }

  toString(): string {
    const list = (m: Map<string, number>) =>
      [...m]
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} ${n}`)
        .join(', ');
    return [
      `${this.runs} runs, ${(this.commands / Math.max(1, this.runs)).toFixed(1)} commands and ${(this.requests / Math.max(1, this.runs)).toFixed(1)} requests a run`,
      `commands run: ${list(this.byCommand)}`,
      `bookings ended: ${list(this.finalStates)}`,
      `transitions taken (in how many runs): ${list(this.taken)}`,
    ].join('\n  ');
  }
}

/** Where a counterexample's scenario goes (.gitignore has it). */
export const FAILURES = resolve(import.meta.dirname, '../../.scenario-failures');

/**
 * Runs a fixed command sequence (a path test, an example); should it fail, writes what was sent as a
 * scenario and fails with the reason and the scenario's path.
 */
export async function runOrWriteScenario(commands: ApiCommand[], label: string): Promise<Run> {
  try {
    return await runModel(commands);
  } catch (e) {
    if (!(e instanceof RunFailure)) throw e;
    const file = writeScenario(resolve(FAILURES, `${label.replace(/[^\w.-]+/g, '_')}.yaml`), e.run.system.steps, {
      name: `Failure of ${label}`,
      failure: e.message,
      tags: ['property', 'counterexample'],
    });
    throw new Error(`${e.message}\n\nThe sequence [${commands.join(', ')}] as a scenario: ${file}\nRun it: npx signalbox test ${file}`, { cause: e });
  }
}

/**
 * Checks the property "every run of a generated sequence keeps every invariant". On failure it replays
 * the shrunk sequence once more to record it, writes it as a scenario, and fails with fast-check's
 * report (seed, path, the commands) and the scenario's path.
 */
export async function checkSequences(
  arbitrary: fc.Arbitrary<Iterable<ModelCommand>>,
  settings: { seed: number; numRuns: number; path?: string },
  label = 'model',
  stats?: Stats,
): Promise<void> {
  const result = await fc.check(
    fc.asyncProperty(arbitrary, async (commands) => {
      const run = await runModel(commands);
      stats?.add(run);
    }),
    settings,
  );
  if (!result.failed) return;
  const report = fc.defaultReportMessage(result) ?? 'the property failed';
  const counterexample = result.counterexample?.[0];
  let file = '';
  let why = '';
  if (counterexample) {
    const replay = await runModel(counterexample).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (replay instanceof RunFailure) {
      why = `\n\n${replay.message}`;
      file = writeScenario(resolve(FAILURES, `${label}-${settings.seed}.yaml`), replay.run.system.steps, {
        name: `Counterexample of the ${label} property, seed ${settings.seed}`,
        description: `Written by test/helpers/model-run.ts from the shrunk command sequence; replay the property with FC_SEED=${settings.seed} FC_PATH=${result.counterexamplePath ?? ''}.`,
        failure: replay.message,
        tags: ['property', 'counterexample'],
      });
    } else {
      file = '(the shrunk sequence passed when replayed: the failure depends on something outside the model — time, order of tests?)';
    }
  }
  const violation = result.errorInstance instanceof RunFailure && result.errorInstance.cause instanceof PropertyViolation;
  throw new Error(
    `${report}${why}\n\n${violation ? 'The system broke a property.' : 'The run failed (harness or model error?).'}\nThe shrunk sequence as a scenario: ${file}\nRun it: npx signalbox test ${file}`,
  );
}
