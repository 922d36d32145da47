import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { phrase, RuleViolation } from '../../engine/index.ts';
import { TripSpecification } from '../../engine/model/osdm/index.ts';
import type { OffersTry } from '../http/openapi/studio-schemas.ts';
import { Fixtures } from '../harness/schema.ts';

/**
 * Whole offers requests for "try": a trip the scenarios' fixtures name (scenarios/fixtures/*.yaml `trips`) and the
 * passengers' ages and cards, as an analyst would say them. A trip that has already left is moved forward by whole
 * days to a week from now, so the page answers any day as the scenarios answer on theirs.
 */

const DAY = 86_400_000;

/** Each fixture trip with the fixture file it is written in (`file`, a name in `dir`), for a scenario's `uses:`. */
export function fixtureTrips(dir: string): Array<{ name: string; file: string; trip: TripSpecification; summary: string }> {
  const out: Array<{ name: string; file: string; trip: TripSpecification; summary: string }> = [];
  if (existsSync(dir)) {
    for (const file of readdirSync(dir)
      .filter((f) => /\.ya?ml$/.test(f))
      .sort()) {
      const fixtures = Fixtures.safeParse(parse(readFileSync(join(dir, file), 'utf8')) ?? {});
      for (const [name, given] of Object.entries(fixtures.success ? fixtures.data.trips : {})) {
        // Only trips an offers request may carry as they are (a scenario's templated ones are left out).
        const trip = TripSpecification.safeParse(given);
        if (trip.success) out.push({ name, file, trip: trip.data, summary: summaryOf(trip.data) });
      }
    }
  }
  return out;
}

function summaryOf(trip: TripSpecification): string {
  return trip.legs
    .map(({ timedLeg: { service, start } }) =>
      `${service.productCategory?.shortName ?? ''} ${service.publishedServiceName ?? ''} ${start.serviceDeparture.timetabledTime}`.trim(),
    )
    .join(' + ');
}

/** The same trip `days` later: every date-time in it moved, its offset kept. */
function shifted(trip: unknown, days: number): unknown {
  if (days === 0) return trip;
  return JSON.parse(JSON.stringify(trip), (_key, value: unknown) => {
    if (typeof value !== 'string') return value;
    const m = /^(\d{4}-\d{2}-\d{2})(T.*)$/.exec(value);
    if (!m || Number.isNaN(Date.parse(value))) return value;
    return new Date(Date.parse(`${m[1]}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10) + m[2];
  });
}

const firstDeparture = (trip: TripSpecification): number => Date.parse(trip.legs[0]!.timedLeg.start.serviceDeparture.timetabledTime);

export function offersRequestOf(fixtures: string, asked: z.infer<typeof OffersTry>, now: Date): Record<string, unknown> {
  const found = fixtureTrips(fixtures).find((t) => t.name === asked.trip);
  if (!found) throw new RuleViolation('86001', { reason: phrase('field-invalid', { field: 'trip', problem: asked.trip }) }, [{ requestPointer: '#/trip' }]);
  return offersRequestFor(found.trip, asked.passengers, now);
}

/** The offers request for a trip and the passengers' ages and cards. */
export function offersRequestFor(trip: TripSpecification, passengers: z.infer<typeof OffersTry>['passengers'], now: Date): Record<string, unknown> {
  const departure = firstDeparture(trip);
  const days = departure < now.getTime() ? Math.ceil((now.getTime() + 7 * DAY - departure) / DAY) : 0;
  return {
    tripSpecifications: [shifted(trip, days)],
    anonymousPassengerSpecifications: passengers.map((p, i) => ({
      externalRef: `p${i + 1}`,
      type: 'PERSON',
      age: p.age,
      ...(p.cards && p.cards.length > 0 ? { cards: p.cards.map((code) => ({ type: 'REDUCTION_CARD', code })) } : {}),
    })),
  };
}
