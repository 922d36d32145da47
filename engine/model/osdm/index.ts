/**
 * The engine's second entry point: every OSDM 3.4 shape it reads and answers, as zod schemas. The HTTP adapter
 * builds its OpenAPI document and response checks from them; an embedder validates with them. Beside them, the
 * engine's own answer to "why this price" (engine.explainOfferPrices), which the studio shows and documents, and a
 * rule release's shape (docs/releases.md), which the studio lists: both readable without the rest of the engine.
 */
export * from './shapes.ts';
export * from './trip.ts';
export * from './offer-request.ts';
export * from './offer-response.ts';
export * from './booking-request.ts';
export * from './booking-response.ts';
export * from './booking-patch-requests.ts';
export * from './aftersales-requests.ts';
export * from './aftersales-response.ts';
export * from './seat-response.ts';
export * from './customer-requests.ts';
export * from './customer-response.ts';
export * from '../price-explanation.ts';
export { RuleRelease } from '../release.ts';
