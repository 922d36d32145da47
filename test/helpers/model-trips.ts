import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/**
 * The trips the model-based test asks offers for: named trips of the scenarios' own fixture files, so a
 * counterexample travels on the same trains as the hand-written scenarios (one source for both).
 */
const FIXTURE_FILES = ['../../scenarios/fixtures/trips.yaml', '../../scenarios/fixtures/more-trips.yaml'];

/**
 * A few trips with different shapes: one leg, a connection, a night train (reservations), an
 * international EuroNight (no VAT), a through fare of two categories, and a cancelled train (no offers).
 */
export const TRIP_NAMES = ['sto-gbg-0800', 'upp-sto-gbg', 'sto-mal-ic', 'sto-lul-nt', 'sto-cph-en', 'mal-sto-ic-then-st', 'cancelled-christmas-eve'] as const;
export type TripName = (typeof TRIP_NAMES)[number];

let loaded: Record<string, unknown> | undefined;

/** A deep copy of the fixture trip `name`, as it goes into `tripSpecifications`. */
export function fixtureTrip(name: TripName): Record<string, unknown> {
  loaded ??= Object.assign(
    {},
    ...FIXTURE_FILES.map((f) => (parse(readFileSync(new URL(f, import.meta.url), 'utf8')) as { trips: Record<string, unknown> }).trips),
  );
  const trip = loaded![name];
  if (!trip) throw new Error(`no trip "${name}" in ${FIXTURE_FILES.join(', ')}`);
  return structuredClone(trip) as Record<string, unknown>;
}
