/**
 * Metamorphic test over generated sales (DESIGN principle 8): the model-based test's command sequences
 * (offers, bookings, confirmations, aftersales, time passing; test/property/commands/) are run against their model
 * as usual, written as a scenario (test/helpers/model-scenario.ts), and that scenario is run twice more: as written,
 * and with every instant it sends written in an offset fast-check picks among Z, +01:00, +02:00 and -05:00
 * (test/helpers/offset-target.ts). The answers must mean the same, request by request (test/helpers/decisions.ts).
 *
 * Replay: FC_SEED=<seed> npx vitest run test/property/offset-model.test.ts (FC_RUNS for more sequences). A failure
 * leaves the shrunk sale under .scenario-failures/ and names the offset it was sent in.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_SECRETS } from '../../adapters/harness/demo-secrets.ts';
import { runScenario } from '../../adapters/harness/runner.ts';
import { inProcess } from '../../adapters/harness/targets.ts';
import { exchangeDifferences } from '../helpers/decisions.ts';
import { loadCommandSpecs } from '../helpers/model-command.ts';
import { commandSequences, FAILURES, propertySettings, runModel, type ModelCommand } from '../helpers/model-run.ts';
import { writeScenario } from '../helpers/model-scenario.ts';
import { offsetTarget, type Exchange } from '../helpers/offset-target.ts';
import { isInstant, OFFSETS, type Offset } from '../helpers/offsets.ts';
import { engine } from '../helpers/server.ts';

const specs = await loadCommandSpecs();
/** Fewer and shorter sequences than the model-based test: each is run three times here, and that test covers depth. */
// Each sale runs three times (the model, as written, in the offset), and the model-based test already explores the
// sales themselves: a deep run (FC_RUNS) sends a tenth of its runs here, never fewer than the default.
const base = propertySettings(15);
const settings = process.env['FC_RUNS'] ? { ...base, numRuns: Math.max(15, Math.ceil(base.numRuns / 10)) } : base;
const SIZE = { min: 10, max: 30 };

const dir = mkdtempSync(join(tmpdir(), 'signalbox-offsets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The recorders live as long as the file, so the scenario runner's tokens (kept per target) are fetched once; each
 * sale is the latest session of each.
 */
const target = inProcess(engine());
const asWritten = offsetTarget(target, undefined);
const latest = () => asWritten.sessions[asWritten.sessions.length - 1];
const rewriting = new Map(OFFSETS.map((o) => [o, offsetTarget(target, o, latest)] as const));

/** How many instants went out written in an offset, across the run: the rewriting must have had something to rewrite. */
let instantsSent = 0;
const instantsIn = (exchanges: readonly Exchange[], offset: Offset) =>
  [...JSON.stringify(exchanges.map((x) => [x.path, x.body])).matchAll(/"(\d{4}-\d\d-\d\dT[^"]*)"/g)].filter((m) => isInstant(m[1]) && m[1].endsWith(offset))
    .length;

/** Where the sale, sent with its instants in `offset`, answered otherwise than as written (empty: the same). */
async function differences(commands: Iterable<ModelCommand>, offset: Offset, file: string): Promise<string[]> {
  const run = await runModel(commands);
  // A sale that sent nothing but the reads after each command is no scenario (and has no instants to write).
  if (run.system.steps.every((r) => r.observational)) return [];
  writeScenario(file, run.system.steps, { name: `A generated sale, its instants in ${offset}`, tags: ['property', 'offsets'] });
  const written = await runScenario(file, asWritten.target, { secrets: DEMO_SECRETS });
  if (!written.passed)
    throw new Error(
      `the sale written as a scenario does not run as written: ${JSON.stringify(written.problems.length > 0 ? written.problems : written.steps.find((s) => !s.passed))}`,
    );
  const { target: sent, sessions } = rewriting.get(offset)!;
  const result = await runScenario(file, sent, { secrets: DEMO_SECRETS });
  const d = exchangeDifferences(latest()!, sessions[sessions.length - 1] as Exchange[]);
  instantsSent += instantsIn(sessions[sessions.length - 1]!, offset);
  const failed = result.steps.find((s) => !s.passed && !s.skipped);
  return failed ? [`failed step "${failed.name}": ${failed.error ?? failed.mismatches.map((m) => `${m.path}: ${m.message}`).join('; ')}`, ...d] : d;
}

describe('generated sales, every instant written in another offset', () => {
  it(
    `get answers that mean the same over ${settings.numRuns} sales of ${SIZE.min}–${SIZE.max} operations (seed ${settings.seed})`,
    async () => {
      let sales = 0;
      const result = await fc.check(
        fc.asyncProperty(commandSequences(specs, SIZE), fc.constantFrom(...OFFSETS), async (commands, offset) => {
          sales++;
          const d = await differences(commands, offset, join(dir, 'sale.yaml'));
          if (d.length > 0) throw new Error(`in ${offset}:\n  ${d.join('\n  ').replaceAll('\n', '\n  ')}`);
        }),
        settings,
      );
      console.info(`offset-model: seed ${settings.seed}, ${sales} sales run, ${instantsSent} instants sent in the offset picked`);
      expect(instantsSent).toBeGreaterThan(sales);
      if (!result.failed) return;
      // The shrunk sale, kept where the model-based test keeps its counterexamples, to be read or replayed.
      const [commands, offset] = result.counterexample!;
      const file = resolve(FAILURES, `offsets-${settings.seed}.yaml`);
      const why = await differences(commands, offset, file);
      throw new Error(
        `${fc.defaultReportMessage(result) ?? 'the property failed'}\n\nThe shrunk sale, written as a scenario: ${file}\nSent with its instants in ${offset}, it answered otherwise:\n  ${why.length > 0 ? why.join('\n  ').replaceAll('\n', '\n  ') : String(result.errorInstance)}`,
      );
    },
    Math.max(120_000, settings.numRuns * 2_000),
  );
});
