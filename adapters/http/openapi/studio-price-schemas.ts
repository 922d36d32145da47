import { z } from 'zod';
import { OfferPriceExplanation } from '../../../engine/model/osdm/index.ts';
import { OffersTried } from './studio-schemas.ts';

/**
 * The studio's offers answer with every price explained (engine.explainOfferPrices): the shapes come from the engine's
 * own schema, so the page, the server and /openapi.json read the same one.
 */
export const OffersTriedExplained = OffersTried.extend({
  explanations: z
    .array(OfferPriceExplanation)
    .describe('One per offer of the answer, in its order: each part’s price and the minimal price, term by term, to the öre.'),
});
export type OffersTriedExplained = z.infer<typeof OffersTriedExplained>;
