import { z } from 'zod';
import type { DecisionTrace } from '../rules/decision.ts';
import type { RuleSet } from '../rules/ruleset.ts';
import type { valueFiles } from '../rules/schemas.ts';

/**
 * The arithmetic of a price, written down as it is done. The functions that price (pricing.ts, admission-prices.ts,
 * ancillaries.ts, reservations.ts) take an optional list and push a step beside each operation they make; on POST
 * /offers the list is absent and nothing is recorded. Folding the steps in order (`plus`, `times`, `round` to a
 * multiple) gives the price again, to the öre: a property test holds the two together.
 */

/** Where a term comes from: the row of a decision (as its trace names it), or a value of a reference-data file. */
export const PriceSource = z.union([
  z.strictObject({
    decision: z.string(),
    row: z.string(),
    at: z.string().describe('file:line:col of the row'),
    facts: z.record(z.string(), z.unknown()).describe('The facts the decision saw'),
  }),
  z.strictObject({
    file: z.string().describe('The reference-data file, e.g. tariff.yaml'),
    path: z.array(z.union([z.string(), z.number()])).describe('The value inside it, e.g. ["categories", "ST", "base"]'),
    at: z.string().describe('file:line:col of the value'),
  }),
]);
export type PriceSource = z.infer<typeof PriceSource>;

/** What a step stands for; the studio names each in words. */
export const PriceTerm = z.enum([
  'base',
  'perMinute',
  'productFactor',
  'flexibilityFactor',
  'fareFactor',
  'travelPass',
  'roundTo',
  'currencyRate',
  'currencyRoundTo',
  'reservationPrice',
  'ancillaryPrice',
  'ancillaryFactor',
  'passPrice',
  'passenger',
  'part',
]);

export const PriceStep = z.strictObject({
  term: PriceTerm,
  op: z.enum(['plus', 'times', 'round']).describe('plus: add the value; times: multiply by it; round: to the nearest multiple of it'),
  value: z.number(),
  of: z.tuple([z.number(), z.number()]).optional().describe('A value that is a product, as its two factors (perMinute, minutes)'),
  ref: z.string().optional().describe('The passenger or offer part the term adds, or the travel pass that pays'),
  amount: z.number().describe('The amount after this step, in minor units of `currency` (before a rounding it may have a fraction)'),
  currency: z.string(),
  sources: z.array(PriceSource).describe('The rule rows and reference-data values the term comes from'),
});
export type PriceStep = z.infer<typeof PriceStep>;

/** The steps that made one amount, and that amount: what an offer part costs, or the offer's minimal price. */
export const PriceCalculation = z.strictObject({
  amount: z.number().int().describe('The price in the answer, minor units'),
  currency: z.string(),
  vat: z.number().int().optional().describe('The VAT included in the amount, when domestic'),
  steps: z.array(PriceStep),
});
export type PriceCalculation = z.infer<typeof PriceCalculation>;

/** A value of a reference-data file, with its place. */
export const referenceSource = (rules: RuleSet, file: keyof typeof valueFiles, path: Array<string | number>): PriceSource => ({
  file,
  path,
  at: rules.referenceAt(file, path),
});

/** The rows a decision fired, as sources. */
export const decisionSources = (trace: DecisionTrace | undefined): PriceSource[] =>
  trace ? trace.fired.map((f) => ({ decision: trace.decision, row: f.row, at: f.at, facts: trace.facts })) : [];

/** Adds each amount, as `sum` in pricing.ts does, one step per amount. */
export function sumSteps(term: 'passenger' | 'part', amounts: ReadonlyArray<{ ref: string; amount: number }>, currency: string): PriceStep[] {
  let total = 0;
  return amounts.map(({ ref, amount }) => {
    total += amount;
    return { term, op: 'plus', value: amount, ref, amount: total, currency, sources: [] };
  });
}
