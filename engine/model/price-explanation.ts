import { z } from 'zod';

/**
 * The shapes of an offer's prices explained (engine.explainOfferPrices, offers/explain-prices.ts): each price as the
 * steps that made it, each step with the rule row or reference-data value it comes from. Not OSDM: the engine's own
 * answer to "why this price", shown by the studio.
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
const PriceTerm = z.enum([
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

/** One priced part of an offer, with the arithmetic that gave its price. */
export const ExplainedPart = z.strictObject({
  ...PriceCalculation.shape,
  id: z.string().describe('The offer part, as the answer names it'),
  kind: z.enum(['admission', 'reservation', 'ancillary']),
  passengerRefs: z.array(z.string()),
  legId: z.string().optional(),
  item: z.string().optional().describe('The ancillary item (ancillary-items.yaml)'),
  inMinimalPrice: z.boolean().describe('The part counts towards the offer’s minimal price'),
  passengers: z
    .array(z.strictObject({ passengerRef: z.string(), ...PriceCalculation.shape }))
    .optional()
    .describe('Offer mode COLLECTIVE: each passenger’s share, which the part adds up'),
});

/** Why an offer costs what it costs: every part's price, term by term, and the minimal price as the sum of its parts. */
export const OfferPriceExplanation = z.strictObject({
  offerId: z.string(),
  currency: z.string(),
  parts: z.array(ExplainedPart),
  minimalPrice: PriceCalculation,
});
export type OfferPriceExplanation = z.infer<typeof OfferPriceExplanation>;
export type ExplainedPart = z.infer<typeof ExplainedPart>;
