import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { z } from 'zod';
import { parseSource, RuleFileError, type SourceFile } from '../../engine/rules/index.ts';
import { ApiStep, ClockStep, Fixtures, Scenario } from './schema.ts';

/** A scenario file read, validated, and joined with the fixtures it uses. */
export interface LoadedScenario {
  file: string;
  source: SourceFile;
  scenario: Scenario;
  /** `at` is the step's `file:line`; `index` its place under `steps:` (for locating its parts). */
  steps: Array<{ step: ApiStep | ClockStep; at: string; index: number }>;
  fixtures: Fixtures;
  /** The scenario's rule releases, each replaced file read (file name → text). */
  releases: ScenarioReleaseFiles[];
}

/** A scenario's rule release with the texts of the files it replaces (targets.ts makes it a release of the run's rules). */
export interface ScenarioReleaseFiles {
  name: string;
  effectiveFrom: string;
  reason?: string;
  replace: Record<string, string>;
}

/** Each issue at the value it is about; an unknown key at the key itself rather than at its object. */
const zodProblems = (source: SourceFile, error: z.ZodError, prefix: PropertyKey[] = []) =>
  error.issues.map((i) => {
    const path = [...prefix, ...i.path];
    const at = i.code === 'unrecognized_keys' && i.keys.length === 1 ? [...path, i.keys[0]!] : path;
    return `${source.at(at)}: ${path.join('.')}: ${i.message}`;
  });

/** `file:line:col: …` problems in the order they appear in the file. */
const position = (problem: string) => (/:(\d+):(\d+): /.exec(problem) ?? [0, 0, 0]).slice(1).map(Number) as [number, number];
const byPosition = (a: string, b: string) => {
  const [la, ca] = position(a);
  const [lb, cb] = position(b);
  return la - lb || ca - cb;
};

const readProblem = (e: unknown) => ((e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message);

/**
 * Files already parsed and validated, by path, kept while their text is the same: a run parses the
 * shared fixture files once, and a process that runs a scenario again (bench, watch) parses nothing.
 * Parsing YAML with positions is most of a short scenario's time otherwise.
 */
const parsedScenarios = new Map<string, { text: string; value: Omit<LoadedScenario, 'fixtures' | 'releases'> }>();
const parsedFixtures = new Map<string, { text: string; value: Fixtures }>();

/** Reads and validates a scenario and the fixtures it uses; throws RuleFileError with `file:line:col` problems. */
export function loadScenario(file: string, given?: string): LoadedScenario {
  let text: string;
  try {
    text = given ?? readFileSync(file, 'utf8');
  } catch (e) {
    throw new RuleFileError([`${file}:1:1: cannot read the scenario: ${readProblem(e)}`]);
  }
  let own = parsedScenarios.get(file);
  if (own?.text !== text) {
    own = { text, value: parseScenario(file, text) };
    parsedScenarios.set(file, own);
  }
  const { source, scenario } = own.value;
  const problems: string[] = [];
  const fixtures: Fixtures = { trips: {}, passengers: {}, purchasers: {} };
  scenario.uses.forEach((use, i) => {
    // Named as the scenario's own path is (relative stays relative), so reports read the same on every machine.
    const shown = isAbsolute(use) ? use : join(dirname(file), use);
    const path = resolve(shown);
    try {
      const ftext = readFileSync(path, 'utf8');
      let cached = parsedFixtures.get(path);
      if (cached?.text !== ftext) {
        const fsource = parseSource(shown, ftext);
        const fp = Fixtures.safeParse(fsource.data);
        if (!fp.success) {
          problems.push(...zodProblems(fsource, fp.error));
          return;
        }
        cached = { text: ftext, value: fp.data };
        parsedFixtures.set(path, cached);
      }
      Object.assign(fixtures.trips, cached.value.trips);
      Object.assign(fixtures.passengers, cached.value.passengers);
      Object.assign(fixtures.purchasers, cached.value.purchasers);
    } catch (e) {
      problems.push(e instanceof RuleFileError ? e.problems.join('\n') : `${source.at(['uses', i])}: cannot read fixtures ${use}: ${readProblem(e)}`);
    }
  });
  const releases = scenario.releases.map(({ replace, ...release }) => ({
    ...release,
    replace: Object.fromEntries(
      Object.entries(replace).flatMap(([name, path]) => {
        try {
          return [[name, readFileSync(resolve(isAbsolute(path) ? path : join(dirname(file), path)), 'utf8')]];
        } catch (e) {
          problems.push(
            `${source.at(['releases', scenario.releases.findIndex((r) => r.name === release.name), 'replace', name])}: cannot read ${path}: ${readProblem(e)}`,
          );
          return [];
        }
      }),
    ),
  }));
  if (problems.length > 0) throw new RuleFileError(problems);
  return { ...own.value, fixtures, releases };
}

function parseScenario(file: string, text: string): Omit<LoadedScenario, 'fixtures' | 'releases'> {
  const source = parseSource(file, text);
  const parsed = Scenario.safeParse(source.data);
  const problems = parsed.success ? [] : zodProblems(source, parsed.error);
  // The steps are checked even when the rest is broken, so one run lists every problem of the file.
  const rawSteps = (source.data as { steps?: unknown } | null)?.steps;
  const steps = (Array.isArray(rawSteps) ? rawSteps : []).flatMap((raw: unknown, index) => {
    const isClock = raw !== null && typeof raw === 'object' && ('advance' in raw || 'at' in raw);
    const result = (isClock ? ClockStep : ApiStep).safeParse(raw);
    if (!isClock && raw !== null && typeof raw === 'object') problems.push(...bareAges(source, (raw as { body?: unknown }).body, ['steps', index, 'body']));
    if (!result.success) {
      problems.push(...zodProblems(source, result.error, ['steps', index]));
      return [];
    }
    const { line } = source.locate(['steps', index]);
    return [{ step: result.data, at: `${file}:${line}`, index }];
  });
  if (!parsed.success || problems.length > 0) throw new RuleFileError(problems.sort(byPosition));
  return { file, source, scenario: parsed.data, steps };
}

const PASSENGER_LISTS = new Set(['anonymousPassengerSpecifications', 'passengerSpecifications']);
const isAges = (v: unknown) => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'number');

/**
 * A bare list of ages where the API wants passenger objects (`anonymousPassengerSpecifications: [35, 8]`) is
 * what the `$passengers` shorthand is for; said here, at its place, rather than as the API's `expected object`.
 */
function bareAges(source: SourceFile, value: unknown, keys: PropertyKey[]): string[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const here = [...keys, Array.isArray(value) ? Number(k) : k];
    if (PASSENGER_LISTS.has(k) && isAges(v)) {
      const shorthand = k === 'passengerSpecifications' ? '$passengerSpecifications' : '$passengers';
      return [
        `${source.at(here)}: ${here.join('.')}: a list of ages is written { ${shorthand}: ${JSON.stringify(v).replace(/,/g, ', ')} } (passengers p1…p${(v as unknown[]).length}, docs/scenarios.md)`,
      ];
    }
    return bareAges(source, v, here);
  });
}

/**
 * A scenario's `name` and `tags`, read leniently (a file broken elsewhere still has them), for
 * `--grep`/`--tags` and for naming a file that cannot run.
 */
export function readHeader(file: string): { name: string | undefined; tags: string[] } {
  try {
    const data = parseSource(file, readFileSync(file, 'utf8')).data as { name?: unknown; tags?: unknown } | null;
    return {
      name: typeof data?.name === 'string' ? data.name : undefined,
      tags: Array.isArray(data?.tags) ? data.tags.filter((t): t is string => typeof t === 'string') : [],
    };
  } catch {
    return { name: undefined, tags: [] };
  }
}
