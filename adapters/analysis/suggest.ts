import { dirname, join, relative } from 'node:path';
import { Document, isCollection, visit } from 'yaml';
import { createEngine, type DecisionName, type DecisionTrace, type RuleSet } from '../../engine/index.ts';
import { DEMO_SECRETS } from '../harness/demo-secrets.ts';
import { runScenario } from '../harness/runner.ts';
import { inProcess, type Target } from '../harness/targets.ts';
import { pinnedExpectation, type Answer } from './answer-diff.ts';
import { runRecorded } from './impact.ts';
import type { Mutant } from './mutants.ts';
import type { MutantResult } from './mutate.ts';
import { simulateCases } from './simulate.ts';
import {
  boundaryProbes,
  gridProbes,
  probeSteps,
  probeTrips,
  probeWords,
  randomProbes,
  refundProbes,
  searchOf,
  type Probe,
  type ProbeTrip,
  type Search,
} from './suggest-probes.ts';

/**
 * For a mutant no scenario kills, the scenario that would: an offers request the rules as they are and the mutant
 * answer differently, and a step that pins the real rules' answer where the two differ. The requests are tried on
 * the real rules first, in batches, keeping the facts each asked the mutated decision; only a request whose facts
 * the mutant decides otherwise is sent to the mutant. The scenario is run on both before it is handed out: it
 * passes on the real rules and fails on the mutant, or it is not suggested.
 */
export interface Suggestion {
  /** A file name for it, without `.yaml`: decision, row and what changed (`fareFactor-youth-16-19-factor`). */
  name: string;
  text: string;
  /** The request whose answer it pins (an offers request, or a refund offer's after the booking it refunds). */
  request: { method: 'POST'; path: string; body: unknown };
  probe: Probe;
}

export interface SuggestOptions {
  /** The fixtures folder (scenarios/fixtures): its trips are the trips tried, and the scenario `uses:` them. */
  fixtures: string;
  /** The scenario's clock, before the fixture trips leave. */
  now?: Date;
  /** Where the scenario will be written (its `uses:` are relative to it); the fixtures' sibling `suggested/`. */
  dir?: string;
  /** How many random requests after the boundary ones and the grid, drawn from `seed`. */
  randomRuns?: number;
  seed?: number;
}

type AnyMutant = Omit<Mutant, 'text'> | MutantResult;

/** Where suggested scenarios go: `suggested/` beside the fixtures folder (scenarios/suggested/). */
export const suggestedDir = (fixtures: string) => join(dirname(fixtures), 'suggested');

const CLOCK = '2026-11-20T10:00:00+01:00';
const BATCH = 60;
/** Requests sent to the mutant before giving up: each candidate costs two scenario runs. */
const CANDIDATES = 6;

interface Known {
  target: Target;
  trips: ProbeTrip[];
  grid: Probe[];
  /** What the search tries (suggest-probes.yaml). */
  search: Search;
  /** Each request's traces on the real rules, by the request as JSON. */
  traces: Map<string, readonly DecisionTrace[]>;
}
/** What the real rules answered, kept between mutants: the grid's requests are the same for each. */
const known = new WeakMap<RuleSet, Map<string, Known>>();

function knownOf(original: RuleSet, fixtures: string, clock: string): Known {
  const byFixtures = known.get(original) ?? new Map<string, Known>();
  known.set(original, byFixtures);
  const key = `${fixtures}\n${clock}`;
  let k = byFixtures.get(key);
  if (!k) {
    const trips = probeTrips(fixtures);
    const search = searchOf(fixtures);
    k = { target: inProcess(createEngine({ rules: original })), trips, search, grid: gridProbes(original, trips, search), traces: new Map() };
    byFixtures.set(key, k);
  }
  return k;
}

const keyOf = (p: Probe) => JSON.stringify(p);

function usesOf(probes: readonly Probe[], trips: readonly ProbeTrip[], fixtures: string, dir: string): string[] {
  const files = new Set(probes.flatMap((p) => p.trips.map((t) => trips.find((x) => x.name === t)!.file)));
  return [...files].sort().map((f) => relative(dir, join(fixtures, f)).split('\\').join('/'));
}

/** Collections short enough for one line are written on one, as the scenarios are. */
function yamlText(value: unknown): string {
  const doc = new Document(value);
  visit(doc, (_key, node) => {
    if (isCollection(node) && JSON.stringify(node.toJSON()).length <= 100) node.flow = true;
  });
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}

function scenarioText(header: string[], scenario: Record<string, unknown>): string {
  return [...header.map((l) => `# ${l}`.trimEnd()), yamlText(scenario)].join('\n');
}

interface Context {
  original: Known;
  other: Target;
  fixtures: string;
  dir: string;
  clock: string;
  file: string;
}

/**
 * Sends the probes not yet sent to the real rules and keeps the traces of each one's last step: offers requests all
 * in one scenario, each refund (four steps that depend on each other) in one of its own.
 */
async function traceOnOriginal(probes: readonly Probe[], c: Context): Promise<void> {
  const fresh = [...new Map(probes.filter((p) => !c.original.traces.has(keyOf(p))).map((p) => [keyOf(p), p])).values()];
  const plain = fresh.filter((p) => !p.refund);
  for (const group of [...(plain.length ? [plain] : []), ...fresh.filter((p) => p.refund).map((p) => [p])]) {
    const answers = await answersOf(group, c.original.target, c);
    group.forEach((p, i) => c.original.traces.set(keyOf(p), answers[i]?.traces ?? []));
  }
}

/** Each probe's last answer (with its traces), the probes sent in one scenario on the target. */
async function answersOf(probes: readonly Probe[], target: Target, c: Context): Promise<Array<(Answer & { traces: readonly DecisionTrace[] }) | undefined>> {
  const steps = probes.flatMap((p, i) => {
    const all = probeSteps(p, i);
    return all.map((step, j) => ({ name: j === all.length - 1 ? `probe ${i}` : `probe ${i} step ${j + 1}`, ...step }));
  });
  const text = scenarioText([], { name: 'probes', clock: c.clock, uses: usesOf(probes, c.original.trips, c.fixtures, c.dir), steps });
  const { answers } = await runRecorded(c.file, target, { secrets: DEMO_SECRETS, texts: new Map([[c.file, text]]), keepGoing: true });
  const out: Array<(Answer & { traces: readonly DecisionTrace[] }) | undefined> = probes.map(() => undefined);
  for (const a of answers) {
    const i = Number(/^probe (\d+)$/.exec(a.step?.name ?? '')?.[1] ?? Number.NaN);
    if (Number.isInteger(i)) out[i] = { status: a.result.status, body: a.result.body, traces: a.result.traces ?? [] };
  }
  return out;
}

function nameOf(m: AnyMutant): string {
  const what = m.kind === 'row-removed' ? 'removed' : m.kind === 'rows-swapped' ? 'swapped' : (/^[^:]+:\s*(\S+)/.exec(m.change)?.[1] ?? m.kind);
  return [m.decision, m.row, what]
    .join('-')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * What a search looks for: a request whose traces ask `decision` facts that `wanted` accepts, and whose answers on the
 * real rules and on `other` a step can tell apart; the phases say which requests to try, in order.
 */
export interface Sought {
  decision: DecisionName;
  other: RuleSet;
  wanted: (facts: Readonly<Record<string, unknown>>) => boolean;
  phases: Array<(known: { trips: ProbeTrip[]; search: Search; grid: Probe[] }) => Promise<Probe[]> | Probe[]>;
  /** The file name, without `.yaml`. */
  name: string;
  /** The scenario's name. */
  title: string;
  /** The comment at the top of the scenario: what wrote it and what it tells apart. */
  header: string[];
}

export async function suggestScenario(original: RuleSet, mutant: RuleSet, m: AnyMutant, options: SuggestOptions): Promise<Suggestion | undefined> {
  // Machine mutants have no facts to search: only a decision's mutant gets a suggestion.
  if (!Object.hasOwn(original.decisions, m.decision)) return undefined;
  const decision = m.decision as DecisionName;
  const engines = [createEngine({ rules: original }), createEngine({ rules: mutant })] as const;
  const decided = new Map<string, boolean>();
  /** Whether the mutant decides these facts otherwise. */
  const wanted = (facts: Readonly<Record<string, unknown>>) => {
    const key = JSON.stringify(facts);
    if (!decided.has(key)) {
      const [a, b] = engines.map((e) => simulateCases(e, decision, [facts])[0]!.outcome);
      decided.set(key, JSON.stringify(a) !== JSON.stringify(b));
    }
    return decided.get(key)!;
  };
  return searchScenario(original, options, {
    decision,
    other: mutant,
    wanted,
    phases: [
      ({ trips, search }) => boundaryProbes(original, mutant, decision, trips, search),
      ({ trips, search }) => refundProbes(original, mutant, decision, trips, search),
      ...gridAndRandom(original, options),
    ],
    name: nameOf(m),
    title: `${m.decision} ${m.change.length > 100 ? `${m.change.slice(0, 99)}…` : m.change}`,
    header: [
      'Written by `signalbox mutate --suggest`: it kills these mutants, which no scenario killed.',
      `  ${m.at}  ${m.change}`,
      'The rules as they are answer this request as it expects; the mutant answers otherwise. Keep it if this is',
      'the answer the spec wants (a better name, tags and a spec reference help), or delete it.',
    ],
  });
}

/** The last phases of every search: the grid of kinds of passenger and trips, then random requests from the seed. */
export const gridAndRandom = (original: RuleSet, options: SuggestOptions): Sought['phases'] => [
  ({ grid }) => grid,
  ({ trips }) => randomProbes(original, trips, options.randomRuns ?? 100, options.seed ?? 20261128),
];

/** The first request, in the order of the phases, that the sought scenario can be written for; tried on few. */
export async function searchScenario(original: RuleSet, options: SuggestOptions, sought: Sought): Promise<Suggestion | undefined> {
  const dir = options.dir ?? suggestedDir(options.fixtures);
  const clock = options.now ? options.now.toISOString() : CLOCK;
  const c: Context = {
    original: knownOf(original, options.fixtures, clock),
    other: inProcess(createEngine({ rules: sought.other })),
    fixtures: options.fixtures,
    dir,
    clock,
    file: join(dir, `${sought.name}.yaml`),
  };
  /** Whether the probe asked the decision facts the search wants. */
  const reaches = (p: Probe) => (c.original.traces.get(keyOf(p)) ?? []).some((t) => t.decision === sought.decision && sought.wanted(t.facts));
  const tried = new Set<string>();
  let sent = 0;
  for (const phase of sought.phases) {
    const probes = await phase(c.original);
    for (let i = 0; i < probes.length && sent < CANDIDATES; i += BATCH) {
      const batch = probes.slice(i, i + BATCH);
      await traceOnOriginal(batch, c);
      for (const probe of batch) {
        if (sent >= CANDIDATES || tried.has(keyOf(probe)) || !reaches(probe)) continue;
        tried.add(keyOf(probe));
        sent++;
        const found = await written(probe, sought, c);
        if (found) return found;
      }
    }
  }
  return undefined;
}

/** The scenario for one probe, if the two answers differ in something a step can pin and it tells them apart. */
async function written(probe: Probe, sought: Sought, c: Context): Promise<Suggestion | undefined> {
  const [a] = await answersOf([probe], c.original.target, c);
  const [b] = await answersOf([probe], c.other, c);
  if (!a || !b) return undefined;
  const expect = pinnedExpectation(a, b);
  if (!expect) return undefined;
  const steps = probeSteps(probe);
  const asked: Record<string, unknown> = steps.at(-1)!;
  const last = { name: probeWords(probe), ...asked, expect };
  const text = scenarioText(['yaml-language-server: $schema=../../schemas/scenario.schema.json', '', ...sought.header], {
    name: sought.title,
    tags: ['suggested'],
    clock: c.clock,
    uses: usesOf([probe], c.original.trips, c.fixtures, c.dir),
    steps: [...steps.slice(0, -1), last],
  });
  const texts = new Map([[c.file, text]]);
  const onOriginal = await runScenario(c.file, c.original.target, { secrets: DEMO_SECRETS, texts });
  const onOther = await runScenario(c.file, c.other, { secrets: DEMO_SECRETS, texts });
  if (!onOriginal.passed || onOther.passed) return undefined;
  return { name: sought.name, text, request: { method: 'POST', path: String(asked['post']), body: asked['body'] }, probe };
}
