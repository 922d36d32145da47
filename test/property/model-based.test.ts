/**
 * Model-based test of the Reseller API: random sequences of API operations run in-process
 * through the HTTP adapter, each checked against a deliberately small model (test/helpers/model.ts),
 * with the invariants of test/helpers/model-system.ts (every response) and model-invariants.ts (every
 * booking, after every command).
 *
 * WHERE TO ADD A COMMAND: one file under test/property/commands/ that exports `spec` (a CommandSpec,
 * test/helpers/model-command.ts): a class extending ApiCommand with `check` (does the model enable it
 * now?), `act` (send the requests with `s.send`, each with the model's prediction as `expect`, then
 * move the model, `fire` for machine events) and `toString`; its arbitrary and weight; and in `drives`
 * the machine transitions it takes (`booking:REFUND` …), which the path-coverage test
 * (machine-paths.test.ts) requires of every transition of machines/*.ts. New booking states go into
 * ALLOWED in test/helpers/model-invariants.ts. Files are picked up by name; nothing else to register.
 *
 * Replay: FC_SEED=<seed> npx vitest run test/property (FC_PATH=<path> as well for the shrunk case only).
 * A failure writes the shrunk sequence as a scenario under .scenario-failures/ and prints its path.
 */
import { describe, it } from 'vitest';
import { loadCommandSpecs } from '../helpers/model-command.ts';
import { checkSequences, commandSequences, propertySettings, Stats } from '../helpers/model-run.ts';

const specs = await loadCommandSpecs();
const settings = propertySettings(80);
/** Sequences long enough to confirm, let expire and re-read several bookings in one run. */
const SIZE = { min: 20, max: 50 };

describe('the Reseller API against its model', () => {
  it(
    `keeps every invariant over ${settings.numRuns} random sequences of ${SIZE.min}–${SIZE.max} operations (seed ${settings.seed})`,
    async () => {
      const stats = new Stats();
      await checkSequences(commandSequences(specs, SIZE), settings, 'model-based', stats);
      console.info(`model-based: ${stats.toString()}`);
    },
    Math.max(60_000, settings.numRuns * 2_000),
  );
});
