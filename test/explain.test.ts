import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { painter } from '../adapters/cli/colour.ts';
import { renderExplanation } from '../adapters/cli/rules.ts';
import { engine } from './helpers/server.ts';

/**
 * `signalbox explain`: an analyst sees which row decided, where it is, and why the others did not. The explanation
 * of one case is pinned in test/golden/explain/ (UPDATE_GOLDEN=1 rewrites it after a deliberate change; review the diff).
 */
const golden = 'test/golden/explain/passenger-type-student-17.txt';
describe('signalbox explain', () => {
  it('names the deciding row with file:line and the first failing condition of the others', () => {
    const text = renderExplanation(engine().explain('passengerType', { age: 17, cards: ['SWE_STUDENT'] }));
    expect(text).toContain('decided by: row "student" at rules/passenger-types.yaml:');
    expect(text).toMatch(/✓ student {2}\(rules\/passenger-types\.yaml:\d+:\d+\)/);
    expect(text).toContain('FAIL typingCard: NONE  (actual SWE_STUDENT)  ← first failing condition');
  });

  it('shows each condition as the rule file writes it, with the actual value: the golden explanation of a 17-year-old student', () => {
    const text = renderExplanation(engine().explain('passengerType', { age: 17, typingCard: 'SWE_STUDENT' }));
    if (process.env['UPDATE_GOLDEN'] || !existsSync(golden)) {
      mkdirSync(dirname(golden), { recursive: true });
      writeFileSync(golden, text);
    }
    expect(text).toBe(readFileSync(golden, 'utf8'));
    // The file says between: [16, 64]; the engine tests it as two comparisons, shown as the one the analyst wrote.
    expect(readFileSync('rules/passenger-types.yaml', 'utf8')).toContain('when: { age: { between: [16, 64] }, typingCard: SWE_STUDENT }');
    expect(text).toContain('    ok   age: { between: [16, 64] }  (actual 17)\n    ok   typingCard: SWE_STUDENT  (actual SWE_STUDENT)\n');
    expect(text).not.toContain('greaterThanInclusive 16');
  });

  it('marks a between that fails on its upper bound once, as the first failing condition', () => {
    const text = renderExplanation(engine().explain('passengerType', { age: 30, typingCard: 'NONE' }));
    expect(text).toContain(
      '· youth-20-25  (rules/passenger-types.yaml:29:5)\n    FAIL age: { between: [20, 25] }  (actual 30)  ← first failing condition\n    ok   typingCard: NONE',
    );
  });

  it('shows both sides of a comparison between instants', () => {
    const x = engine().explain('onHold', {
      channelAllowsOnHold: true,
      bookingState: 'PREBOOKED',
      passPurchase: false,
      activeOnHoldOffer: false,
      alreadyOnHold: false,
      contactComplete: true,
      now: '2026-11-30T08:00:00Z',
      departure: '2026-12-01T07:00:00Z',
      provisionalTimeLimit: '2026-11-30T09:00:00Z',
    });
    expect(x.rows.find((r) => r.fired)!.row).toBe('too-close-to-departure');
    expect(renderExplanation(x)).toContain(
      'now: { after: { fact: departure, minus: PT24H } }  (actual 2026-11-30T08:00:00Z, departure = 2026-12-01T07:00:00Z)',
    );
  });

  it('prints the same as data with --json, and refuses facts of the wrong type', () => {
    const out = execFileSync(process.execPath, ['bin/signalbox.js', 'explain', 'passengerType', '--facts', '{"age":17,"cards":["SWE_STUDENT"]}', '--json'], {
      encoding: 'utf8',
    });
    const json = JSON.parse(out);
    expect(json.outcome).toMatchObject({ internalType: 'STUDENT', responseType: 'PERSON' });
    expect(json.rows.find((r: { fired: boolean }) => r.fired).row).toBe('student');
    expect(() => engine().explain('passengerType', { age: 'seventeen' })).toThrow(/age/);
  });

  it('names a missing or wrong fact with what it may be, and takes a declared default', () => {
    expect(() => engine().explain('nightGender', { compartment: 'PRIVATE', accommodationType: 'COUCHETTE', genderCount: 2 })).toThrow(
      'nightGender needs the fact gender: one of NONE, MEN, LADIES, MIXED',
    );
    expect(() => engine().explain('passengerType', { age: 'seventeen' })).toThrow('age is a whole number from 0 to 130; "seventeen" is not');
    expect(() => engine().explain('passengerType', { age: 17, typingcard: 'NONE' })).toThrow(
      'typingcard is not a fact of passengerType; its facts are age, typingCard',
    );
    // typingCard is declared with the default NONE: leaving it out is not an error.
    expect(engine().explain('passengerType', { age: 17 }).facts).toEqual({ age: 17, typingCard: 'NONE' });
  });

  it('reads facts from a YAML file, and points at a syntax error instead of throwing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'signalbox-explain-'));
    try {
      const file = join(dir, 'facts.yaml');
      writeFileSync(file, 'age: 17\ncards: [SWE_STUDENT]\n');
      const ok = spawnSync(process.execPath, ['bin/signalbox.js', 'explain', 'passengerType', '--facts', file], {
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
      });
      expect(ok.stdout).toContain('decided by: row "student"');
      expect(ok.stdout).not.toContain('\u001b[');
      const bad = spawnSync(process.execPath, ['bin/signalbox.js', 'explain', 'passengerType', '--facts', '{"age": 17,'], { encoding: 'utf8' });
      expect(bad.status).toBe(1);
      expect(bad.stderr).toBe('--facts:1:12: Flow map must end with a }\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('colours on a terminal unless NO_COLOR is set', () => {
    const x = engine().explain('passengerType', { age: 17 });
    expect(renderExplanation(x, painter({ isTTY: true }, {}))).toContain('\u001b[32m✓ youth-16-19');
    expect(renderExplanation(x, painter({ isTTY: true }, { NO_COLOR: '1' }))).not.toContain('\u001b[');
    expect(renderExplanation(x, painter({ isTTY: false }, {}))).not.toContain('\u001b[');
  });

  it('signalbox --version prints the package version', () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(execFileSync(process.execPath, ['bin/signalbox.js', '--version'], { encoding: 'utf8' })).toBe(`signalbox ${version}\n`);
  }, 20_000);
});
