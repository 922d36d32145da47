import type { StoredOffer } from '../../engine/index.ts';
import { OFFERS_KEPT_MS } from './store.ts';

/**
 * The memory store's offers: short-lived quotes (bookable for 30 minutes, CONTRACT §4a) kept as JSON text
 * and forgotten some hours after they were made (by the real clock, so a sandbox clock set in the past
 * cannot make fresh offers vanish) or when too many pile up, so a long-running sandbox does not grow forever.
 */
const MAX_OFFERS = 250_000;

export function offerCache() {
  const offers = new Map<string, { data: string; at: number }>();
  const prune = () => {
    const oldest = Date.now() - OFFERS_KEPT_MS;
    for (const [id, entry] of offers) {
      if (entry.at >= oldest && offers.size <= MAX_OFFERS) break;
      offers.delete(id);
    }
  };
  return {
    put(list: readonly StoredOffer[]) {
      const at = Date.now();
      for (const o of list) {
        offers.delete(o.offerId); // re-inserted at the end: Map order stays the order of age
        offers.set(o.offerId, { data: JSON.stringify(o), at });
      }
      prune();
    },
    get(ids: readonly string[]): Map<string, StoredOffer> {
      const out = new Map<string, StoredOffer>();
      for (const id of ids) {
        const entry = offers.get(id);
        if (entry) out.set(id, JSON.parse(entry.data) as StoredOffer);
      }
      return out;
    },
    clear() { offers.clear(); },
  };
}
