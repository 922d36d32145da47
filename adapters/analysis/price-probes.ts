import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { createEngine, RuleViolation, type Engine, type RuleSet } from '../../engine/index.ts';
import type { ImpactReport } from '../http/openapi/studio-schemas.ts';
import { sequentialIds } from '../service/ids.ts';
import { fixtureTrips, offersRequestFor } from './trips.ts';

/**
 * The offer prices an edit changes: every probe of `price-probes.yaml` in the fixtures (one passenger of every age,
 * alone, with no card and with each card; whole parties) priced on each fixture trip it names, on the old and on the
 * new rules. A decision's outcome says a 16-year-old is now a child; this says what that costs her on which train.
 */

const Probes = z.strictObject({
  salesApplication: z.string(),
  trips: z.array(z.string()).min(1),
  alone: z.strictObject({ ages: z.tuple([z.number().int().min(0), z.number().int().min(0)]), cards: z.array(z.string()).default([]) }).optional(),
  parties: z
    .array(z.strictObject({ name: z.string(), passengers: z.array(z.strictObject({ age: z.number().int().min(0), cards: z.array(z.string()).optional() })) }))
    .default([]),
});
type Probes = z.infer<typeof Probes>;

type PriceChange = ImpactReport['prices'][number];

interface Probe {
  /** Who travels, in words; `alone` probes of one card are merged over ages afterwards. */
  who: string;
  card?: string;
  age?: number;
  passengers: Array<{ age: number; cards?: string[] }>;
}

function readProbes(fixtures: string): Probes | undefined {
  const file = join(fixtures, 'price-probes.yaml');
  return existsSync(file) ? Probes.parse(parse(readFileSync(file, 'utf8'))) : undefined;
}

function probesOf(p: Probes): Probe[] {
  const out: Probe[] = [];
  if (p.alone) {
    for (const card of [undefined, ...p.alone.cards])
      for (let age = p.alone.ages[0]; age <= p.alone.ages[1]; age++)
        out.push({ who: card ?? 'no card', ...(card ? { card } : {}), age, passengers: [{ age, ...(card ? { cards: [card] } : {}) }] });
  }
  for (const party of p.parties) out.push({ who: party.name, passengers: party.passengers });
  return out;
}

interface Priced {
  summary: string;
  currency: string;
  amount: number;
}

/** Each offer's least price (`offerSummary.minimalPrice`) by its product id, or nothing where the request is refused. */
function offerPrices(engine: Engine, salesApplication: string, request: Record<string, unknown>, now: Date): Map<string, Priced> {
  const out = new Map<string, Priced>();
  try {
    const { value } = engine.offers(
      { requestor: { client: 'studio', salesApplication, salesUnitCode: 'STUDIO', language: 'en-GB' }, now, ids: sequentialIds() },
      request,
    );
    const offers =
      (
        value.response as {
          offers?: Array<{
            products?: Array<{ id: string; summary?: string; flexibility?: string }>;
            offerSummary?: { minimalPrice?: { currency: string; amount: number } };
          }>;
        }
      ).offers ?? [];
    for (const o of offers) {
      const product = o.products?.[0];
      const price = o.offerSummary?.minimalPrice;
      if (product && price)
        out.set(product.id, { summary: [product.summary, product.flexibility].filter(Boolean).join(', '), currency: price.currency, amount: price.amount });
    }
  } catch (e) {
    if (!(e instanceof RuleViolation)) throw e;
  }
  return out;
}

/** `16`, `16–17`, `0–6, 20` for a sorted list of ages. */
function ageRanges(ages: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < ages.length;) {
    let j = i;
    while (j + 1 < ages.length && ages[j + 1] === ages[j]! + 1) j++;
    parts.push(i === j ? `${ages[i]}` : `${ages[i]}–${ages[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}

export function comparePrices(old: RuleSet, next: RuleSet, fixtures: string, now: Date): PriceChange[] {
  const probes = readProbes(fixtures);
  if (!probes) return [];
  // Changes of one trip, offer, card and price pair are one line, whatever ages show them.
  const before = createEngine({ rules: old });
  const after = createEngine({ rules: next });
  const merged = new Map<string, { change: Omit<PriceChange, 'passengers'>; who: string; ages: number[] }>();
  const trips = new Map(fixtureTrips(fixtures).map((t) => [t.name, t.trip]));
  for (const trip of probes.trips) {
    const given = trips.get(trip);
    if (!given) continue;
    for (const probe of probesOf(probes)) {
      const request = offersRequestFor(given, probe.passengers, now);
      const a = offerPrices(before, probes.salesApplication, request, now);
      const b = offerPrices(after, probes.salesApplication, request, now);
      for (const offer of new Set([...a.keys(), ...b.keys()])) {
        const x = a.get(offer);
        const y = b.get(offer);
        if (x?.amount === y?.amount) continue;
        const key = JSON.stringify([trip, offer, probe.age === undefined ? probe.who : (probe.card ?? ''), x?.amount, y?.amount]);
        const entry = merged.get(key) ?? {
          change: { trip, offer, summary: (y ?? x)!.summary, currency: (y ?? x)!.currency, from: x?.amount ?? null, to: y?.amount ?? null },
          who: probe.who,
          ages: [],
        };
        if (probe.age !== undefined) entry.ages.push(probe.age);
        merged.set(key, entry);
      }
    }
  }
  return [...merged.values()].map(({ change, who, ages }) => ({
    ...change,
    passengers: ages.length ? `aged ${ageRanges(ages)}, ${who}` : who,
  }));
}
