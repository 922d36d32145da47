import type { StoredOffer } from '../../engine/index.ts';

/**
 * Offers are short-lived quotes (bookable for 30 minutes, CONTRACT §4a), not something accepted: the
 * single-process stores keep them in memory as JSON text, never on disk, and forget them some hours
 * after they were made (by the real clock, so a sandbox clock set in the past cannot make fresh offers
 * vanish) or when too many pile up. Bookings, which are accepted, always go to disk.
 */
const KEEP_MS = 4 * 60 * 60 * 1000;
const MAX_OFFERS = 250_000;

export function offerCache() {
  const offers = new Map<string, { data: string; at: number }>();
  const prune = () => {
    const oldest = Date.now() - KEEP_MS;
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
