import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { releaseCommand } from '../adapters/cli/release.ts';
import { openStore } from '../adapters/store/open.ts';

/**
 * `signalbox release coverage` (docs/releases.md): npm test's coverage gate on every release of a store in force or
 * scheduled. A release that adds a row no scenario exercises fails it, as the working copy would fail npm test; one
 * already superseded is not checked.
 */

let dir: string;
let store: string;
const rules = Object.fromEntries(
  readdirSync('rules')
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => [f, readFileSync(join('rules', f), 'utf8')]),
);
/** The fare factors with a row for passengers of 90 and over, which no scenario has. */
const withNonagenarians = rules['fare-factors.yaml']!.replace(
  '  - id: senior\n',
  '  - id: nonagenarian\n    when: { age: { greaterThanInclusive: 90 } }\n    then: { factor: 0.5 }\n  - id: senior\n',
);

const release = (name: string, effectiveFrom: string, files: Record<string, string>) => ({
  name,
  effectiveFrom,
  createdOn: '2026-11-01T00:00:00.000Z',
  createdBy: 'test',
  files,
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'release-coverage-'));
  store = `sqlite:${join(dir, 'store.db')}`;
  const s = await openStore(store);
  await s.putRelease(release('superseded', '2026-01-01T00:00+01:00', { ...rules, 'fare-factors.yaml': withNonagenarians }));
  await s.putRelease(release('fares-2027', '2026-12-13T00:00+01:00', { ...rules, 'fare-factors.yaml': withNonagenarians }));
  await s.putRelease(release('fares-2028', '2027-06-01T00:00+02:00', rules));
  await s.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function coverage(...args: string[]) {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((t) => ((out += String(t)), true));
  try {
    return { code: await releaseCommand(['coverage', '--store', store, ...args]), out };
  } finally {
    vi.restoreAllMocks();
  }
}

describe('signalbox release coverage', () => {
  it('holds the release in force and the scheduled one to the gate, and names the row no scenario exercises', async () => {
    const { code, out } = await coverage('--at', '2026-12-20T12:00+01:00');
    expect(code).toBe(1);
    expect(out).toContain(
      'fares-2027  in force from 2026-12-13T00:00+01:00: 1 not exercised by any scenario nor listed in scenarios/fixtures/unreachable.yaml',
    );
    expect(out).toContain('  fareFactor#nonagenarian');
    expect(out).toContain('fares-2028  scheduled from 2027-06-01T00:00+02:00: every decision row and error code exercised or listed');
    expect(out).not.toContain('superseded');
  }, 180_000);

  it('passes once the release with the gap is no longer in force', async () => {
    const { code, out } = await coverage('--at', '2027-06-01T00:00+02:00', '--json');
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject([{ release: 'fares-2028', state: 'in force', failing: 0, gaps: { rows: [], codes: [] } }]);
  }, 180_000);
});
