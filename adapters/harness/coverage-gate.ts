import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { CoverageMatrix } from './coverage.ts';

/**
 * The coverage gate (docs/scenarios.md): every decision row and catalogue error code is exercised by some scenario,
 * or listed with the reason in the fixtures' `unreachable.yaml`. `npm test` holds the working copy to it, and
 * `signalbox release coverage` every rule release in force or scheduled.
 */

export interface Unreachable {
  rows: Record<string, string>;
  codes: Record<string, string>;
}

/** The rows and codes listed as unreachable, with the reason; none when the fixtures have no list. */
export function readUnreachable(fixtures: string): Unreachable {
  const file = join(fixtures, 'unreachable.yaml');
  if (!existsSync(file)) return { rows: {}, codes: {} };
  const listed = parse(readFileSync(file, 'utf8')) as Partial<Unreachable> | null;
  return { rows: listed?.rows ?? {}, codes: listed?.codes ?? {} };
}

export interface CoverageGaps {
  /** `decision#row` no scenario exercises and the list does not give a reason for. */
  rows: string[];
  /** Catalogue codes no scenario answers and the list does not give a reason for. */
  codes: string[];
  /** Listed, but exercised after all: the list has gone stale. */
  listedButExercised: string[];
  /** Listed, but the rules have no such row or code. */
  listedButUnknown: string[];
}

export function coverageGaps(m: CoverageMatrix, listed: Unreachable): CoverageGaps {
  const rows = m.decisions.flatMap((d) => d.rows.map((r) => ({ name: `${d.decision}#${r.row}`, hit: r.by.length > 0, why: listed.rows })));
  const codes = m.errors.map((c) => ({ name: c.code, hit: c.by.length > 0, why: listed.codes }));
  const all = [...rows, ...codes];
  const known = new Set(all.map((x) => x.name));
  return {
    rows: rows.filter((r) => !r.hit && !(r.name in listed.rows)).map((r) => r.name),
    codes: codes.filter((c) => !c.hit && !(c.name in listed.codes)).map((c) => c.name),
    listedButExercised: all.filter((x) => x.hit && x.name in x.why).map((x) => x.name),
    listedButUnknown: [...Object.keys(listed.rows), ...Object.keys(listed.codes)].filter((n) => !known.has(n)),
  };
}
