import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { simulateCases } from '../adapters/analysis/simulate.ts';
import { renderSimulation } from '../adapters/cli/simulate.ts';
import { boundaryCasesOf, factCatalogue, type DecisionName } from '../engine/index.ts';
import { engine } from './helpers/server.ts';

/**
 * `signalbox simulate --boundaries` as an analyst reads it in an 80-column terminal: the facts, the deciding row and
 * the outcome as `key: value` text in one language. The output for passengerType is pinned in
 * test/golden/simulate/ (UPDATE_GOLDEN=1 rewrites it after a deliberate change; review the diff).
 */
const golden = 'test/golden/simulate/passenger-type-boundaries.txt';
const cli = (...args: string[]) => spawnSync(process.execPath, ['bin/signalbox.js', ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
const boundaries = (decision: string, language = 'en-GB', width = 80) =>
  renderSimulation(simulateCases(engine(), decision, boundaryCasesOf(engine().rules, decision as DecisionName)), { language, width });

describe('signalbox simulate --boundaries', () => {
  it('prints the boundary cases of passengerType as a table of facts, row and outcome, 80 columns wide', () => {
    const run = cli('simulate', 'passengerType', '--boundaries');
    expect(run.status, run.stderr).toBe(0);
    if (process.env['UPDATE_GOLDEN'] || !existsSync(golden)) {
      mkdirSync('test/golden/simulate', { recursive: true });
      writeFileSync(golden, run.stdout);
    }
    expect(run.stdout).toBe(readFileSync(golden, 'utf8'));
    expect(run.stdout.split('\n').filter((line) => line.length > 80)).toEqual([]);
  }, 30_000);

  it('fits every decision in 80 columns, a table where its facts leave room for the outcome and a block per case where not', () => {
    for (const decision of Object.keys(factCatalogue)) {
      const text = boundaries(decision);
      expect(
        text.split('\n').filter((line) => line.length > 80),
        decision,
      ).toEqual([]);
      expect(text, decision).not.toContain('{"');
    }
    expect(boundaries('onHold')).toMatch(/^1 {2}row \S+\n {3}channelAllowsOnHold: (true|false), /);
  });

  it('shows the texts of an outcome in the language asked for, and uses the width it is given', () => {
    const wide = boundaries('passengerType', 'sv-SE', 200);
    expect(wide).toContain('internalType: STUDENT, responseType: PERSON, description: Studerande');
    expect(wide).not.toContain('Student');
    expect(boundaries('passengerType', 'en-GB', 200)).toContain('description: Child 0–6 years');
  });

  it('keeps --json as data, and refuses a language the rules do not have', () => {
    const json = cli('simulate', 'passengerType', '--boundaries', '--json');
    expect(JSON.parse(json.stdout)[0]).toMatchObject({ row: 'child-0-6', outcome: { description: { 'en-GB': 'Child 0–6 years', 'sv-SE': 'Barn 0–6 år' } } });
    const bad = cli('simulate', 'passengerType', '--boundaries', '--language', 'de-DE');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('--language is one of en-GB, sv-SE\n');
  }, 30_000);
});
