import type { Money } from '../model/records.ts';
import type { RuleSet } from '../rules/ruleset.ts';
import type { Currency, Flexibility, ProductCategoryCode } from '../rules/schemas.ts';

/**
 * The tariff model of rules/tariff.yaml (rules/README.md "The tariff model"). All numbers come from rules/;
 * this file only multiplies and rounds.
 */
const roundTo = (amount: number, step: number) => Math.round(amount / step) * step;

/** Full adult fare in the tariff currency's minor units. */
export function fullFare(rules: RuleSet, category: ProductCategoryCode, minutes: number, productCode: string, flexibility: Flexibility): number {
  const cat = rules.tariff.categories[category];
  if (!cat) return 0;
  const product = rules.products.products[productCode]!;
  const flex = rules.products.flexibilities[flexibility];
  return (cat.base + cat.perMinute * Math.max(0, minutes)) * product.priceFactor * flex.priceFactor;
}

/** A passenger's share of the full fare, rounded and converted to the sales currency, with VAT when domestic. */
export function priceFor(rules: RuleSet, fullFareSek: number, factor: number, currency: Currency, international: boolean): Money {
  const { tariff } = rules;
  let amount = roundTo(fullFareSek * factor, tariff.roundTo);
  if (currency !== tariff.currency) {
    const conv = tariff.currencies[currency]!;
    amount = roundTo(amount * conv.rate, conv.roundTo);
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
