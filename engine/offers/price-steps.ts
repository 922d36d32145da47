import type { DecisionTrace } from '../rules/decision.ts';
import type { RuleSet } from '../rules/ruleset.ts';
import type { valueFiles } from '../rules/schemas.ts';
import type { PriceSource, PriceStep } from '../model/price-explanation.ts';

/**
 * The arithmetic of a price, written down as it is done (the shapes: model/price-explanation.ts). The functions that price (pricing.ts, admission-prices.ts,
 * ancillaries.ts, reservations.ts) take an optional list and push a step beside each operation they make; on POST
 * /offers the list is absent and nothing is recorded. Folding the steps in order (`plus`, `times`, `round` to a
 * multiple) gives the price again, to the öre: a property test holds the two together.
 */

/** A value of a reference-data file, with its place. */
export const referenceSource = (rules: RuleSet, file: keyof typeof valueFiles, path: Array<string | number>): PriceSource => ({
  file,
  path,
  at: rules.referenceAt(file, path),
});

/** A step whose value comes from a reference-data file (`extra`: the factors of a product, or what the value is of). */
export const referenceStep = (
  rules: RuleSet,
  term: PriceStep['term'],
  op: PriceStep['op'],
  value: number,
  amount: number,
  currency: string,
  file: keyof typeof valueFiles,
  path: Array<string | number>,
  extra: Pick<PriceStep, 'of' | 'ref'> = {},
): PriceStep => ({ term, op, value, ...extra, amount, currency, sources: [referenceSource(rules, file, path)] });

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
