import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRules, RuleFileError } from '../engine/index.ts';

/**
 * `signalbox check` on a rule set with several typos: one run names them all, each at its file:line:col, so an
 * analyst fixes them in one go. A typo that breaks a row's shape does not hide a typo in another row.
 */
const work = mkdtempSync(join(tmpdir(), 'signalbox-check-all-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function withTypos(edits: Record<string, Array<[string, string]>>): string {
  const dir = join(work, String(Object.keys(edits).length) + Math.random().toString(36).slice(2));
  cpSync('rules', dir, { recursive: true });
  for (const [file, replacements] of Object.entries(edits)) {
    let text = readFileSync(join(dir, file), 'utf8');
    for (const [from, to] of replacements) {
      expect(text, `${file} no longer has ${from}`).toContain(from);
      text = text.replace(from, to);
    }
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

const threeTypos = () =>
  withTypos({
    'passenger-types.yaml': [
      ['  - id: student\n', '  - id: Student\n'],
      ['when: { age: { between: [7, 15] } }', 'when: { agee: { between: [7, 15] } }'],
    ],
    'fare-factors.yaml': [['when: { internalType: STUDENT }', 'when: { internalType: STUDNT }']],
  });

describe('signalbox check, every problem at once', () => {
  it('lists three typos in two files in one run, in file and line order, with a count, and exits 1', () => {
    const dir = threeTypos();
    const run = spawnSync(process.execPath, ['bin/signalbox.js', 'check', '--rules', dir], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout.split(relative(process.cwd(), dir)).join('rules')).toBe(
      [
        'rules/fare-factors.yaml:35:27: internalType is one of CHILD_0_6, CHILD_7_15, YOUTH_16_19, YOUTH_20_25, ADULT, STUDENT, SENIOR; "STUDNT" is not',
        'rules/passenger-types.yaml:18:19: unknown fact "agee"; passengerType knows age, typingCard',
        'rules/passenger-types.yaml:47:9: rows.6.id: lower-case words joined by hyphens',
        '3 problems in 2 files',
        '',
      ].join('\n'),
    );
  }, 30_000);

  it('loadRules still refuses the broken set, listing every problem', () => {
    expect(() => loadRules(threeTypos())).toThrow(RuleFileError);
    try {
      loadRules(threeTypos());
    } catch (e) {
      expect((e as RuleFileError).problems).toHaveLength(3);
    }
  });

  it('checks the facts of the examples even while a row names an unknown fact', () => {
    const dir = withTypos({
      'passenger-types.yaml': [
        ['when: { age: { between: [7, 15] } }', 'when: { agee: { between: [7, 15] } }'],
        ['- given: { age: 25, typingCard: NONE }', '- given: { age: 25, typingCard: NOEN }'],
      ],
    });
    let problems: readonly string[] = [];
    try {
      loadRules(dir);
    } catch (e) {
      problems = (e as RuleFileError).problems;
    }
    expect(problems.map((p) => p.replace(/^.*passenger-types\.yaml/, 'passenger-types.yaml'))).toEqual([
      'passenger-types.yaml:18:19: unknown fact "agee"; passengerType knows age, typingCard',
      expect.stringMatching(/^passenger-types\.yaml:66:12: example facts do not fit passengerType: typingCard /),
    ]);
  });

  it('says so in one line when there is no problem, and exits 0', () => {
    const run = spawnSync(process.execPath, ['bin/signalbox.js', 'check'], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^\d+ rule files, \d+ decisions, \d+ rows: no problems\n$/);
  }, 30_000);
});
