import fc from 'fast-check';
import { z } from 'zod';
import { INSTANT } from '../../engine/rules/facts.ts';

/** fast-check arbitraries for the facts of a decision, read off its zod schema in the fact catalogue. */
export function factsArbitrary(schema: z.ZodObject): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.fromEntries(Object.entries(schema.shape).map(([name, s]) => [name, arbitraryOf(s as z.ZodType)]));
  return fc.record(fields);
}

/** Instants within a few days, to the minute, so that ±24 h comparisons land on both sides (and on the boundary). */
const instants = fc.integer({ min: 0, max: 6 * 24 * 60 }).map((m) => new Date(Date.UTC(2026, 10, 20) + m * 60_000).toISOString());

function arbitraryOf(s: z.ZodType): fc.Arbitrary<unknown> {
  if (s instanceof z.ZodDefault) return arbitraryOf(s.def.innerType as z.ZodType);
  if (s.description === INSTANT) return instants;
  if (s instanceof z.ZodNumber) {
    const min = Number.isFinite(s.minValue) ? (s.minValue as number) : -1000;
    const max = Number.isFinite(s.maxValue) ? (s.maxValue as number) : 1000;
    return fc.integer({ min, max });
  }
  if (s instanceof z.ZodEnum) return fc.constantFrom(...(s.options as string[]));
  if (s instanceof z.ZodBoolean) return fc.boolean();
  return fc.string();
}

/** The seed of a property run: FC_SEED when given (to replay a failure), else a fixed one so `npm test` is deterministic. */
export const seed = () => Number(process.env['FC_SEED'] ?? 20261122);
export const runs = (fast: number) => Number(process.env['FC_RUNS'] ?? fast);
/**
 * A property test's time limit: `floor` for the runs of `npm test`, and as much per run as `perRun` for the many more
 * of `npm run test:deep` (FC_RUNS), so that asking for more runs never turns into a timeout.
 */
export const timeLimit = (numRuns: number, perRun: number, floor = 120_000) => Math.max(floor, numRuns * perRun);
