import type { Money } from '../model/records.ts';
import type { RuleSet } from '../rules/ruleset.ts';
import type { Currency, Flexibility, ProductCategoryCode } from '../rules/schemas.ts';
import { referenceStep } from './price-steps.ts';
import type { PriceStep } from '../model/price-explanation.ts';

/**
 * The tariff model of rules/tariff.yaml (rules/README.md "The tariff model"). All numbers come from rules/;
 * this file only multiplies and rounds. Given `steps`, each operation is written down beside it (price-steps.ts),
 * so an explanation is this very arithmetic, not a copy of it.
 */
const roundTo = (amount: number, step: number) => Math.round(amount / step) * step;

/** Full adult fare in the tariff currency's minor units. */
export function fullFare(
  rules: RuleSet,
  category: ProductCategoryCode,
  minutes: number,
  productCode: string,
  flexibility: Flexibility,
  steps?: PriceStep[],
): number {
  const cat = rules.tariff.categories[category];
  if (!cat) return 0;
  const product = rules.products.products[productCode]!;
  const flex = rules.products.flexibilities[flexibility];
  const currency = rules.tariff.currency;
  let fare = cat.base;
  steps?.push(referenceStep(rules, 'base', 'plus', cat.base, fare, currency, 'tariff.yaml', ['categories', category, 'base']));
  const ridden = Math.max(0, minutes);
  fare += cat.perMinute * ridden;
  steps?.push(
    referenceStep(rules, 'perMinute', 'plus', cat.perMinute * ridden, fare, currency, 'tariff.yaml', ['categories', category, 'perMinute'], {
      of: [cat.perMinute, ridden],
    }),
  );
  fare *= product.priceFactor;
  steps?.push(
    referenceStep(rules, 'productFactor', 'times', product.priceFactor, fare, currency, 'products.yaml', ['products', productCode, 'priceFactor'], {
      ref: productCode,
    }),
  );
  fare *= flex.priceFactor;
  steps?.push(
    referenceStep(rules, 'flexibilityFactor', 'times', flex.priceFactor, fare, currency, 'products.yaml', ['flexibilities', flexibility, 'priceFactor'], {
      ref: flexibility,
    }),
  );
  return fare;
}

/** The step a caller's factor is written down as: which term it is and where it comes from (only when explaining). */
export type FactorStep = Pick<PriceStep, 'term' | 'sources'> & { ref?: string };

/**
 * A passenger's share of the full fare, rounded and converted to the sales currency, with VAT when domestic. The
 * factor is written down as the step `factorStep` names; a caller that names none multiplies by 1, which changes nothing.
 */
export function priceFor(
  rules: RuleSet,
  fullFareSek: number,
  factor: number,
  currency: Currency,
  international: boolean,
  steps?: PriceStep[],
  factorStep?: FactorStep,
): Money {
  const { tariff } = rules;
  let amount = fullFareSek * factor;
  if (factorStep) steps?.push(factorStepOf(factorStep, factor, amount, tariff.currency));
  amount = roundTo(amount, tariff.roundTo);
  steps?.push(referenceStep(rules, 'roundTo', 'round', tariff.roundTo, amount, tariff.currency, 'tariff.yaml', ['roundTo']));
  if (currency !== tariff.currency) {
    const conv = tariff.currencies[currency]!;
    amount *= conv.rate;
    steps?.push(referenceStep(rules, 'currencyRate', 'times', conv.rate, amount, currency, 'tariff.yaml', ['currencies', currency, 'rate'], { ref: currency }));
    amount = roundTo(amount, conv.roundTo);
    steps?.push(referenceStep(rules, 'currencyRoundTo', 'round', conv.roundTo, amount, currency, 'tariff.yaml', ['currencies', currency, 'roundTo']));
  }
  return withVat(rules, { currency, amount, scale: 2 }, international);
}

const factorStepOf = ({ term, ref, sources }: FactorStep, value: number, amount: number, currency: string): PriceStep => ({
  term,
  op: 'times',
  value,
  ...(ref ? { ref } : {}),
  amount,
  currency,
  sources,
});

/** Spec §2.6 rule 9: no VAT when the trip crosses a border; otherwise the VAT included in the amount. */
export function withVat(rules: RuleSet, price: Money, international: boolean): Money {
  if (international) return { currency: price.currency, amount: price.amount, scale: 2 };
  const { percentage, countryCode } = rules.tariff.vat;
  const vat = Math.round((price.amount * percentage) / (100 + percentage));
  return { currency: price.currency, amount: price.amount, scale: 2, vats: [{ countryCode, amount: vat, percentage, scope: 'NATIONAL' }] };
}

/** The sum of prices; its VAT is the sum of theirs, so totals and parts always agree. */
export function sum(rules: RuleSet, prices: Money[], currency: Currency, international: boolean): Money {
  const amount = prices.reduce((n, p) => n + p.amount, 0);
  if (international) return { currency, amount, scale: 2 };
  const { percentage, countryCode } = rules.tariff.vat;
  const vat = prices.reduce((n, p) => n + (p.vats?.[0]?.amount ?? 0), 0);
  return { currency, amount, scale: 2, vats: [{ countryCode, amount: vat, percentage, scope: 'NATIONAL' }] };
}
