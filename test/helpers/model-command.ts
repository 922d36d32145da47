import { readdirSync } from 'node:fs';
import type fc from 'fast-check';
import type { Model } from './model.ts';
import { checkEveryBooking } from './model-invariants.ts';
import type { System } from './model-system.ts';

/**
 * One API operation of the model-based test. `check` says whether the model enables it now; `act`
 * sends its requests with the model's predictions and moves the model; after every command the
 * invariants are checked on every booking the model knows.
 *
 * Commands hold only their generated parameters (never state of a run), so fast-check can replay and
 * shrink them.
 */
export abstract class ApiCommand implements fc.AsyncCommand<Model, System> {
  abstract check(m: Readonly<Model>): boolean;
  protected abstract act(m: Model, s: System): Promise<void>;
  abstract toString(): string;

  async run(m: Model, s: System): Promise<void> {
    s.command = this.toString();
    s.commands.push(s.command);
    await this.act(m, s);
    await checkEveryBooking(m, s);
  }
}

/** What each file under test/property/commands/ exports as `spec`. */
export interface CommandSpec {
  /** The command's name in reports. */
  name: string;
  /** Instances with generated parameters. */
  arbitrary: fc.Arbitrary<ApiCommand>;
  /** How often fast-check picks it, relative to the others (default 1). */
  weight?: number;
  /**
   * The machine transitions this command takes, by `machine:EVENT` (`booking:CONFIRM`; creating an
   * entity is `booking:xstate.init`), each with a fixed command sequence that takes it from a model where
   * the path so far has been driven (entities are aimed at by index 0, the newest). The path-coverage
   * test (test/property/machine-paths.test.ts) strings these together along the machines' shortest paths.
   */
  drives?: Record<string, () => ApiCommand[]>;
}

const COMMANDS = new URL('../property/commands/', import.meta.url);

/** Every command of test/property/commands/, in file name order (so a seed replays the same choices). */
export async function loadCommandSpecs(): Promise<CommandSpec[]> {
  const files = readdirSync(COMMANDS).filter((f) => f.endsWith('.ts') && !f.startsWith('_')).sort();
  const specs: CommandSpec[] = [];
  for (const file of files) {
    const mod = (await import(new URL(file, COMMANDS).href)) as { spec?: CommandSpec };
    if (!mod.spec?.arbitrary) throw new Error(`test/property/commands/${file} exports no \`spec\` (a CommandSpec): see test/helpers/model-command.ts`);
    specs.push(mod.spec);
  }
  return specs;
}

/** The drivers of every transition, by `machine:EVENT`; two commands claiming one is a mistake worth hearing about. */
export function driversOf(specs: readonly CommandSpec[]): Map<string, { command: string; steps: () => ApiCommand[] }> {
  const drivers = new Map<string, { command: string; steps: () => ApiCommand[] }>();
  for (const spec of specs) {
    for (const [key, steps] of Object.entries(spec.drives ?? {})) {
      const known = drivers.get(key);
      if (known) throw new Error(`both ${known.command} and ${spec.name} say they drive ${key}: keep one`);
      drivers.set(key, { command: spec.name, steps });
    }
  }
  return drivers;
}
