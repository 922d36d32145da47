import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** `signalbox mutate` as a shell or CI sees it: the score table, the JSON report, and the exit status of each answer. */
const cli = (...args: string[]) =>
  spawnSync(process.execPath, ['bin/signalbox.js', 'mutate', ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

describe('signalbox mutate', () => {
  it('prints the score of the decision named, and exits 0 when it is not under --min-score', () => {
    const r = cli('reservationPrice', '--min-score', '100');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^decision +score +killed\/valid +by scenarios +mutants +scenarios$/m);
    expect(r.stdout).toMatch(/^reservationPrice +100\.0 % +\d+\/\d+ /m);
    expect(r.stdout).toMatch(/^overall +100\.0 % /m);
  }, 60_000);

  it('answers the whole report as JSON', () => {
    const r = cli('reservationPrice', '--json');
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { decisions: Array<{ decision: string }>; mutants: Array<{ decision: string; verdict: string }> };
    expect(report.decisions.map((d) => d.decision)).toEqual(['reservationPrice']);
    expect(report.mutants.length).toBeGreaterThan(0);
    expect(report.mutants.every((m) => m.decision === 'reservationPrice')).toBe(true);
  }, 60_000);

  it('refuses a name that is neither a decision nor a machine, and a score that is no number, with its usage (exit 2)', () => {
    const unknown = cli('fareFactors');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^no decision or machine called fareFactors; the decisions are .*fareFactor.*; the machines .*booking/);
    expect(unknown.stderr).toContain('usage: signalbox mutate');
    const notANumber = cli('reservationPrice', '--min-score', 'most');
    expect(notANumber.status).toBe(2);
    expect(notANumber.stderr).toContain('usage: signalbox mutate');
  });
});
