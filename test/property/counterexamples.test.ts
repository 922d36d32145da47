/**
 * The counterexample writer is honest: over edits of the passenger types' age bounds drawn at random (each makes check
 * find a gap or an overlap), every counterexample scenario `check --suggest` would write passes on the serving rules,
 * fails on the reading of the edit it names, and asks the decision the very case check found (its last request's
 * trace has the facts the table tests, as the finding has them).
 *
 * Replay: FC_SEED=<seed> npx vitest run test/property/counterexamples.test.ts
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { counterexamples, withReading } from '../../adapters/analysis/counterexamples.ts';
import { runRecorded } from '../../adapters/analysis/impact.ts';
import { DEMO_SECRETS } from '../../adapters/harness/demo-secrets.ts';
import { inProcess } from '../../adapters/harness/targets.ts';
import { createEngine, defaultRulesDir, factCatalogue } from '../../engine/index.ts';
import { caseFindings } from '../../engine/rules/index.ts';
import { runs, seed, timeLimit } from '../helpers/facts.ts';

const FILE = join(defaultRulesDir(), 'passenger-types.yaml');

type AgeBound = { get(k: string): unknown; set(k: string, v: unknown): void };
const ageOf = (doc: ReturnType<typeof parseDocument>, row: number) => doc.getIn(['rows', row, 'when', 'age']) as AgeBound | undefined;
const betweenOf = (age: AgeBound | undefined) => age?.get('between') as { items: Array<{ value: number }> } | undefined;

/** The table with one row's age bound moved: `between: [a, b]` or `greaterThanInclusive: a`. */
function moved(text: string, row: number, which: 0 | 1, by: number): string {
  const doc = parseDocument(text);
  const age = ageOf(doc, row);
  const between = betweenOf(age);
  if (between) between.items[which]!.value += by;
  else if (age) age.set('greaterThanInclusive', (age.get('greaterThanInclusive') as number) + by);
  return doc.toString({ lineWidth: 0 });
}

/** The youngest age a passenger can have (the fact catalogue): a lower bound at or below it moved lower moves no age. */
const YOUNGEST = factCatalogue.passengerType.shape.age.minValue!;
function movesAnAge(text: string, row: number, which: 0 | 1, by: number): boolean {
  const between = betweenOf(ageOf(parseDocument(text), row));
  return !(between && which === 0 && by < 0 && between.items[0]!.value <= YOUNGEST);
}

describe('counterexample scenarios', () => {
  const rules = createEngine().rules;
  const serving = inProcess(createEngine({ rules }));
  const text = readFileSync(FILE, 'utf8');
  const rows = rules.decisions.passengerType.rows.length;
  const dir = mkdtempSync(join(tmpdir(), 'counterexamples-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const settings = { seed: seed(), numRuns: runs(16) };

  it(
    `pass on the serving rules, fail on the edit's reading and ask the decision the case check found (seed ${settings.seed})`,
    { timeout: timeLimit(settings.numRuns, 2_000) },
    async () => {
      console.info(`counterexamples: seed ${settings.seed}, ${settings.numRuns} edits of passenger-types.yaml`);
      let written = 0;
      const edit = fc
        .record({
          row: fc.integer({ min: 0, max: rows - 1 }),
          which: fc.constantFrom(0 as const, 1 as const),
          by: fc.constantFrom(-2, -1, 1, 2),
          search: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        })
        .filter(({ row, which, by }) => movesAnAge(text, row, which, by));
      await fc.assert(
        fc.asyncProperty(edit, async ({ row, which, by, search }) => {
          const edited = moved(text, row, which, by);
          const findings = caseFindings(FILE, edited);
          // An edit that moves some age's row always opens a gap or makes rows overlap.
          expect(findings.length, `row ${row} bound ${which} ${by > 0 ? '+' : ''}${by}`).toBeGreaterThan(0);
          for (const c of await counterexamples(rules, FILE, edited, { fixtures: 'scenarios/fixtures', dir, randomRuns: 20, seed: search })) {
            if (!c.suggestion) continue;
            written++;
            const finding = findings.find((f) => f.at === c.finding.at)!;
            const reading = finding.readings.find((r) => r.says === c.reading)!;
            const file = join(dir, `${c.suggestion.name}.yaml`);
            const texts = new Map([[file, c.suggestion.text]]);
            const run = await runRecorded(file, serving, { secrets: DEMO_SECRETS, texts });
            expect(run.result.problems, `${c.finding.message}: the scenario loads`).toEqual([]);
            expect(run.result.passed, `${c.finding.message}: passes on the serving rules`).toBe(true);
            const asked = run.answers.at(-1)!.result.traces?.filter((t) => t.decision === 'passengerType') ?? [];
            expect(
              asked.some((t) => finding.tested.every((k) => t.facts[k] === finding.facts[k])),
              `${c.finding.message}: the last request asks passengerType ${JSON.stringify(finding.facts)}`,
            ).toBe(true);
            const onReading = await runRecorded(file, inProcess(createEngine({ rules: withReading(rules, finding, reading) })), {
              secrets: DEMO_SECRETS,
              texts,
            });
            expect(onReading.result.passed, `${c.finding.message}: fails read with ${c.reading}`).toBe(false);
          }
        }),
        settings,
      );
      console.info(`counterexamples: ${written} written`);
      expect(written).toBeGreaterThan(0);
    },
  );
});
