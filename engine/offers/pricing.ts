import type { Money } from '../model/records.ts';
import type { RuleSet } from '../rules/ruleset.ts';
import type { Currency, Flexibility, ProductCategoryCode } from '../rules/schemas.ts';
import { referenceSource } from './price-steps.ts';
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
  steps?.push({
    term: 'base',
    op: 'plus',
    value: cat.base,
    amount: fare,
    currency,
    sources: [referenceSource(rules, 'tariff.yaml', ['categories', category, 'base'])],
  });
  const ridden = Math.max(0, minutes);
  fare += cat.perMinute * ridden;
  steps?.push({
    term: 'perMinute',
    op: 'plus',
    value: cat.perMinute * ridden,
    of: [cat.perMinute, ridden],
    amount: fare,
    currency,
    sources: [referenceSource(rules, 'tariff.yaml', ['categories', category, 'perMinute'])],
  });
  fare *= product.priceFactor;
  steps?.push({
    term: 'productFactor',
    op: 'times',
    value: product.priceFactor,
    ref: productCode,
    amount: fare,
    currency,
    sources: [referenceSource(rules, 'products.yaml', ['products', productCode, 'priceFactor'])],
  });
  fare *= flex.priceFactor;
  steps?.push({
    term: 'flexibilityFactor',
    op: 'times',
    value: flex.priceFactor,
    ref: flexibility,
    amount: fare,
    currency,
    sources: [referenceSource(rules, 'products.yaml', ['flexibilities', flexibility, 'priceFactor'])],
  });
  return fare;
}

/** The step a caller's factor is written down as: which term it is and where it comes from (only when explaining). */
export type FactorStep = Pick<PriceStep, 'term' | 'sources'> & { ref?: string };

/**
 * A passenger's share of the full fare, rounded and converted to the sales currency, with VAT when domestic. A factor
 * the caller names in `factor` is written down as a step; one it does not name is 1 and changes nothing.
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
  if (factorStep) {
    const { term, ref, sources } = factorStep;
    steps?.push({ term, op: 'times', value: factor, ...(ref ? { ref } : {}), amount, currency: tariff.currency, sources });
  }
  amount = roundTo(amount, tariff.roundTo);
  steps?.push({
    term: 'roundTo',
    op: 'round',
    value: tariff.roundTo,
    amount,
    currency: tariff.currency,
    sources: [referenceSource(rules, 'tariff.yaml', ['roundTo'])],
  });
  if (currency !== tariff.currency) {
    const conv = tariff.currencies[currency]!;
    amount *= conv.rate;
    steps?.push({
      term: 'currencyRate',
      op: 'times',
      value: conv.rate,
      ref: currency,
      amount,
      currency,
      sources: [referenceSource(rules, 'tariff.yaml', ['currencies', currency, 'rate'])],
    });
    amount = roundTo(amount, conv.roundTo);
    steps?.push({
      term: 'currencyRoundTo',
      op: 'round',
      value: conv.roundTo,
      amount,
      currency,
      sources: [referenceSource(rules, 'tariff.yaml', ['currencies', currency, 'roundTo'])],
    });
  }
  return withVat(rules, { currency, amount, scale: 2 }, international);
}

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
