import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `signalbox check --suggest` as an analyst runs it on a working copy whose edit makes two passenger types overlap
 * and leaves an age with none: the problems, then one counterexample scenario per finding, written beside the
 * fixtures, each passing on the serving rules (here the repository's own rules/, given as a folder).
 */
const cli = (...args: string[]) => spawnSync(process.execPath, ['bin/signalbox.js', ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

describe('signalbox check --suggest', () => {
  const work = mkdtempSync(join(tmpdir(), 'check-suggest-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('writes a counterexample for each gap and overlap, pinning what the serving rules answer, and still exits 1', () => {
    const rules = join(work, 'rules');
    cpSync('rules', rules, { recursive: true });
    cpSync('scenarios/fixtures', join(work, 'scenarios', 'fixtures'), { recursive: true });
    const file = join(rules, 'passenger-types.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('between: [7, 15]', 'between: [7, 16]').replace('between: [20, 25]', 'between: [21, 25]'));

    const r = cli('check', '--rules', rules, '--suggest', '--serving', 'rules', '--scenarios', join(work, 'scenarios'));
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/passenger-types\.yaml:\d+:\d+: no row matches \{"age":20,"typingCard":"NONE"\}/);
    expect(r.stdout).toContain('counterexamples of the gaps and overlaps:');
    const suggested = join(work, 'scenarios', 'suggested');
    expect(readdirSync(suggested).sort()).toEqual([
      'passengerType-gap-age-20-typingCard-NONE.yaml',
      'passengerType-overlap-child-7-15-pensioner.yaml',
      'passengerType-overlap-child-7-15-student.yaml',
      'passengerType-overlap-child-7-15-youth-16-19.yaml',
    ]);
    expect(readFileSync(join(suggested, 'passengerType-overlap-child-7-15-youth-16-19.yaml'), 'utf8')).toMatch(
      /read with row "child-7-15" deciding[\s\S]*\$passengers: \[16\][\s\S]*type: YOUTH/,
    );
    // They are scenarios like any other: they pass on the rules that serve.
    const run = cli('test', suggested);
    expect(run.status, run.stdout).toBe(0);
    expect(run.stdout).toContain('4 passed, 0 failed');
  }, 60_000);

  it('says so when the serving rules do not load', () => {
    const rules = join(work, 'rules-2');
    cpSync('rules', rules, { recursive: true });
    const file = join(rules, 'passenger-types.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('between: [7, 15]', 'between: [7, 16]'));
    const r = cli('check', '--rules', rules, '--suggest', '--serving', join(work, 'nothing'));
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/no counterexamples: the serving rules \(--serving .*nothing\) do not load/);
  });
});
