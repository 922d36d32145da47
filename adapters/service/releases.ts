import { compileRuleSet, RuleFileError, RuleViolation, type Engine, type RuleRelease, type RuleSet, type RuleSource } from '../../engine/index.ts';
import type { Store } from '../store/store.ts';

/**
 * A release's files as rule sources, shown as `releases/NAME/FILE`: a trace's `file:line` and check's problems say
 * which release a row belongs to.
 */
const sourcesOfRelease = (release: Pick<RuleRelease, 'name' | 'files'>): RuleSource[] =>
  Object.keys(release.files)
    .sort()
    .map((file) => ({ file: `releases/${release.name}/${file}`, text: release.files[file]! }));

/** The order releases come into force: by their instant, and for one instant the later made last (it decides). */
export const inForceOrder = (a: Pick<RuleRelease, 'effectiveFrom' | 'createdOn'>, b: Pick<RuleRelease, 'effectiveFrom' | 'createdOn'>): number =>
  Date.parse(a.effectiveFrom) - Date.parse(b.effectiveFrom) || Date.parse(a.createdOn) - Date.parse(b.createdOn);

/** A release's rules compiled as `signalbox check` compiles `rules/`: the rule set, or check's problems. */
export function compileRelease(release: Pick<RuleRelease, 'name' | 'files'>): { rules?: RuleSet; problems: readonly string[] } {
  try {
    return { rules: compileRuleSet(sourcesOfRelease(release)), problems: [] };
  } catch (e) {
    if (e instanceof RuleFileError) return { problems: e.problems };
    throw e;
  }
}

/** A release in force from `from` (epoch milliseconds: instants compared as instants, whatever their offsets). */
interface Scheduled {
  name: string;
  from: number;
  engine: Engine;
}

/**
 * The engine of a release in force at an instant: the latest whose effectiveFrom is at or before it (of two at the same
 * instant, the one made last); before the first, undefined (the rules the server started with decide). `schedule` is
 * in `inForceOrder`.
 */
function inForceAt(schedule: readonly Scheduled[], now: number): Scheduled | undefined {
  for (let i = schedule.length - 1; i >= 0; i--) if (schedule[i]!.from <= now) return schedule[i];
  return undefined;
}

/**
 * The rule releases a server decides with (docs/releases.md), read from its store at start and again every poll, so
 * a release another process scheduled goes live at its instant without a restart. Requests never read the store for
 * them: the list is kept in memory, sorted by instant, and each release is compiled once into an engine of its own.
 * `workingCopy` gives the rules the server started with (`serve --watch` may swap them).
 */
export function releaseBook(store: Store, workingCopy: () => Engine) {
  let schedule: Scheduled[] = [];
  const engines = new Map<string, Engine>();
  /** Releases whose rules do not compile with this version of signalbox: said once, never in force here. */
  const broken = new Map<string, readonly string[]>();

  async function refresh(): Promise<void> {
    const stored = await store.releases();
    for (const release of stored) {
      if (engines.has(release.name) || broken.has(release.name)) continue;
      const { rules, problems } = compileRelease(release);
      if (rules) engines.set(release.name, workingCopy().withRelease(release.name, rules));
      else {
        broken.set(release.name, problems);
        process.stderr.write(`signalbox: the rule release ${release.name} does not compile and is not in force here:\n  ${problems.join('\n  ')}\n`);
      }
    }
    schedule = stored
      .filter((r) => engines.has(r.name))
      .sort(inForceOrder)
      .map((r) => ({ name: r.name, from: Date.parse(r.effectiveFrom), engine: engines.get(r.name)! }));
  }

  return {
    refresh,
    /** The engine that decides at `now`: the release in force, else the working copy. */
    at(now: Date): Engine {
      return schedule.length === 0 ? workingCopy() : (inForceAt(schedule, now.getTime())?.engine ?? workingCopy());
    },
    /**
     * The engine of the release a stored offer or booking names (undefined: the working copy). A name this process
     * has not read yet (another process made the release since the last poll) sends it to the store at once.
     */
    async named(name: string | undefined): Promise<Engine> {
      if (name === undefined) return workingCopy();
      if (!engines.has(name) && !broken.has(name)) await refresh();
      const engine = engines.get(name);
      if (!engine) throw new RuleViolation('X_RELEASE_UNAVAILABLE', { release: name });
      return engine;
    },
    /** The releases this process knows, in the order they come into force. */
    scheduled: (): ReadonlyArray<{ name: string; effectiveFrom: Date }> => schedule.map((s) => ({ name: s.name, effectiveFrom: new Date(s.from) })),
    /** Reads the store again every `ms` until stopped; a failed read is said on stderr and the list kept. */
    poll(ms: number): () => void {
      let said = false;
      const timer = setInterval(() => {
        refresh().then(
          () => (said = false),
          (e: unknown) => {
            if (!said) process.stderr.write(`signalbox: cannot read the rule releases: ${(e as Error).message}\n`);
            said = true;
          },
        );
      }, ms);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
