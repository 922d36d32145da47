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
   * entity is `booking:xstate.init`, its driver makes what it needs first, e.g. offers and a booking),
   * each with a fixed command sequence that takes it once the path so far has been driven (aim at
   * entities by index 0: the newest). The path-coverage test (test/property/machine-paths.test.ts)
   * strings these together along the machines' shortest paths; where several commands drive one
   * event, it tries them in file order until the model records the transition.
   */
  drives?: Record<string, () => ApiCommand[]>;
}

const COMMANDS = new URL('../property/commands/', import.meta.url);

/** Every command of test/property/commands/, in file name order (so a seed replays the same choices). */
export async function loadCommandSpecs(): Promise<CommandSpec[]> {
  const files = readdirSync(COMMANDS)
    .filter((f) => f.endsWith('.ts') && !f.startsWith('_'))
    .sort();
  const specs: CommandSpec[] = [];
  for (const file of files) {
    const mod = (await import(new URL(file, COMMANDS).href)) as { spec?: CommandSpec };
    if (!mod.spec?.arbitrary) throw new Error(`test/property/commands/${file} exports no \`spec\` (a CommandSpec): see test/helpers/model-command.ts`);
    specs.push(mod.spec);
  }
  return specs;
}

/** A command sequence that takes one transition, and which command's spec offers it. */
export interface Driver {
  command: string;
  steps: () => ApiCommand[];
}

/**
 * The drivers of every transition, by `machine:EVENT`, in file order. Several commands may drive one
 * (a refund, a release and an on-hold offer all create an aftersales offer): the path test tries them.
 */
export function driversOf(specs: readonly CommandSpec[]): Map<string, Driver[]> {
  const drivers = new Map<string, Driver[]>();
  for (const spec of specs) {
    for (const [key, steps] of Object.entries(spec.drives ?? {})) drivers.set(key, [...(drivers.get(key) ?? []), { command: spec.name, steps }]);
  }
  return drivers;
}
