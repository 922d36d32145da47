/**
 * Metamorphic test over the scenario corpus (DESIGN principle 8): an instant means the same whatever offset
 * it is written in (spec §1.7, CONTRACT §4 "Instants, not strings"). Every scenario the suite runs is run as written,
 * then with every instant it sends — request bodies with their fixture trips, queries, `clock:`, `at:` steps and
 * sandbox clock bodies — written in each of Z, +01:00, +02:00 and -05:00 (test/helpers/offset-target.ts). Each
 * answer must mean what the answer as written meant: the same status, Problem code, prices, passenger types,
 * products, places and ids, instants compared as instants (test/helpers/decisions.ts).
 *
 * The answers are compared with each other, not with the scenarios' expectations, which are written for the notation
 * the scenario sends. A failure names the scenario, the step the rewritten run failed at, and every request whose
 * answer differs.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SECRETS } from '../../adapters/harness/demo-secrets.ts';
import { scenarioFiles } from '../../adapters/harness/files.ts';
import { runScenario, type ScenarioResult } from '../../adapters/harness/runner.ts';
import { inProcess } from '../../adapters/harness/targets.ts';
import { answerDifferences, exchangeDifferences } from '../helpers/decisions.ts';
import { offsetTarget, type Exchange } from '../helpers/offset-target.ts';
import { inOffset, isInstant, OFFSETS } from '../helpers/offsets.ts';
import { engine } from '../helpers/server.ts';

/** The files `npm test` runs (scenario-corpus tests): `fixtures/` and `failing/` are skipped by scenarioFiles. */
const files = scenarioFiles(['scenarios']);
const target = inProcess(engine());

/** Where a run failed a step of its scenario that the run as written passed: the step and its first mismatches. */
function failedStep(asWritten: ScenarioResult, rewritten: ScenarioResult): string {
  const i = rewritten.steps.findIndex((s, i) => !s.passed && !s.skipped && asWritten.steps[i]?.passed);
  const step = rewritten.steps[i];
  if (!step) return '';
  const why =
    step.error ?? step.mismatches.map((m) => `${m.path}: ${m.message}, expected ${JSON.stringify(m.expected)}, got ${JSON.stringify(m.actual)}`).join('; ');
  return `  failed step ${i + 1} "${step.name}" (${step.at}): ${why.slice(0, 400)}\n`;
}

describe('the scenario corpus, every instant written in another offset', () => {
  let asWritten: { results: ScenarioResult[]; sessions: Exchange[][] };

  beforeAll(async () => {
    const { target: recorder, sessions } = offsetTarget(target, undefined);
    const results: ScenarioResult[] = [];
    for (const file of files) results.push(await runScenario(file, recorder, { secrets: DEMO_SECRETS }));
    asWritten = { results, sessions };
  }, 60_000);

  it('runs the whole corpus as written (the baseline)', () => {
    expect(asWritten.sessions).toHaveLength(files.length);
    expect(asWritten.sessions.flat().length).toBeGreaterThan(300);
  });

  for (const offset of OFFSETS)
    it(`gets answers that mean the same with every instant written in ${offset}`, async () => {
      const { target: rewriting, sessions } = offsetTarget(target, offset, (i) => asWritten.sessions[i]);
      const differing: string[] = [];
      for (const [i, file] of files.entries()) {
        const result = await runScenario(file, rewriting, { secrets: DEMO_SECRETS });
        const d = exchangeDifferences(asWritten.sessions[i]!, sessions[i]!);
        if (d.length > 0) differing.push(`${file} in ${offset}:\n${failedStep(asWritten.results[i]!, result)}  ${d.join('\n  ').replaceAll('\n', '\n  ')}`);
      }
      // The rewriting itself: every real instant that went out was written in the offset (fixture trips included).
      const sent = JSON.stringify(sessions.flatMap((s) => s.map((x) => [x.path, x.body])));
      const instants = [...sent.matchAll(/"(\d{4}-[^"]*)"/g)].map((m) => m[1]!).filter(isInstant);
      expect(instants.length).toBeGreaterThan(300);
      expect(instants.filter((t) => !t.endsWith(offset))).toEqual([]);
      if (differing.length > 0)
        expect.fail(`${differing.length} scenario(s) answered otherwise with their instants written in ${offset}:\n${differing.join('\n')}`);
    }, 60_000);
});

/** The comparison above must see what a traveller would notice, and only that. */
describe('answers compared by what they mean', () => {
  const booked = (departure: string, placeNumber: string) => ({
    booking: { bookedOffers: [{ validFrom: departure, reservations: [{ placeAllocations: [{ coachNumber: '5', placeNumber }] }] }] },
  });

  it('takes the same instant in another offset, in a field or in a text, as the same', () => {
    expect(answerDifferences(booked('2026-12-12T00:30:00+01:00', '21'), booked('2026-12-11T23:30:00Z', '21'))).toEqual([]);
    expect(answerDifferences({ detail: 'departed at 2026-12-01T08:00:00+01:00' }, { detail: 'departed at 2026-12-01T02:00:00-05:00' })).toEqual([]);
  });

  it('sees another instant, and a place sold twice', () => {
    expect(answerDifferences(booked('2026-12-12T00:30:00+01:00', '21'), booked('2026-12-12T00:30:00Z', '21'))).toHaveLength(1);
    expect(answerDifferences(booked('2026-12-12T00:30:00+01:00', '22'), booked('2026-12-11T23:30:00Z', '21'))).toEqual([
      'booking.bookedOffers[0].reservations[0].placeAllocations[0].placeNumber: "22" ≠ "21"',
    ]);
  });

  it('writes an instant in another offset to the same precision, and leaves dates and impossible instants as they are', () => {
    expect(inOffset('2026-12-12T00:30+01:00', 'Z')).toBe('2026-12-11T23:30Z');
    expect(inOffset('2026-12-12T00:30:00+01:00', '-05:00')).toBe('2026-12-11T18:30:00-05:00');
    expect(inOffset('2026-12-01T08:00:00.125+01:00', '+02:00')).toBe('2026-12-01T09:00:00.125+02:00');
    expect(['2000-12-12', '2026-02-30T08:00:00+01:00', '2026-12-01T08:00:00+25:00'].map((t) => inOffset(t, 'Z'))).toEqual([
      '2000-12-12',
      '2026-02-30T08:00:00+01:00',
      '2026-12-01T08:00:00+25:00',
    ]);
  });
});
