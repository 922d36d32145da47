import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEMO_SECRETS } from '../adapters/harness/demo-secrets.ts';
import { coverageMatrix } from '../adapters/harness/coverage.ts';
import { scenarioFiles } from '../adapters/harness/files.ts';
import { runScenario } from '../adapters/harness/runner.ts';
import { inProcess } from '../adapters/harness/targets.ts';
import { engine } from './helpers/server.ts';

/**
 * Every decision row and every catalogue error code is shown by some scenario, or listed with the reason in
 * scenarios/fixtures/unreachable.yaml. A new row or code without a scenario fails here, and so does a
 * listed one that a scenario now reaches (the list must not go stale).
 */
const LIST = 'scenarios/fixtures/unreachable.yaml';
const listed = parse(readFileSync(LIST, 'utf8')) as { rows: Record<string, string>; codes: Record<string, string> };

describe('scenario coverage of the rules', () => {
  it('exercises every decision row and error code, except those listed as unreachable', async () => {
    const e = engine();
    const target = inProcess(e);
    const results = [];
    for (const file of scenarioFiles(['scenarios'])) results.push(await runScenario(file, target, { secrets: DEMO_SECRETS, coverage: true }));
    const m = coverageMatrix(results, e);
    const rows = m.decisions.flatMap((d) => d.rows.map((r) => ({ name: `${d.decision}#${r.row}`, hit: r.by.length > 0 })));
    const codes = m.errors.map((c) => ({ name: c.code, hit: c.by.length > 0 }));

    expect(
      rows.filter((r) => !r.hit && !(r.name in listed.rows)).map((r) => r.name),
      `rows no scenario exercises: write a scenario, or list them in ${LIST} with the reason`,
    ).toEqual([]);
    expect(
      codes.filter((c) => !c.hit && !(c.name in listed.codes)).map((c) => c.name),
      `codes no scenario exercises: write a scenario, or list them in ${LIST} with the reason`,
    ).toEqual([]);
    expect(
      rows.filter((r) => r.hit && r.name in listed.rows).map((r) => r.name),
      `listed in ${LIST}, but exercised: take them off the list`,
    ).toEqual([]);
    expect(
      codes.filter((c) => c.hit && c.name in listed.codes).map((c) => c.name),
      `listed in ${LIST}, but exercised: take them off the list`,
    ).toEqual([]);
    const known = new Set([...rows, ...codes].map((x) => x.name));
    expect(
      [...Object.keys(listed.rows), ...Object.keys(listed.codes)].filter((n) => !known.has(n)),
      `listed in ${LIST}, but no such row or code`,
    ).toEqual([]);
  }, 120_000);
});
