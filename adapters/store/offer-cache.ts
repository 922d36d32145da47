import type { StoredOffer } from '../../engine/index.ts';
import { OFFERS_KEPT_MS } from './store.ts';

/**
 * The memory store's offers: short-lived quotes (bookable for 30 minutes, CONTRACT §4a) kept as JSON text and
 * forgotten some hours after they were made (by the real clock, so a sandbox clock set in the past cannot make
 * fresh offers vanish) or, oldest first, once their text takes more than `maxBytes`, so a sandbox under load keeps a
 * bounded amount of memory. Bounded by count instead (250,000 quotes), 9-passenger quotes (about 60 KB of text
 * each) filled the 4 GiB heap after about 140,000 and the process died.
 *
 * A character is counted as two bytes, as V8 stores it once one character of the text is outside Latin-1 (an en dash
 * in a passenger type's description is). Kept as UTF-8 Buffers instead, outside the heap, a quote cost 1.5–4× more
 * to put: V8 answers the growth of external memory with more frequent full collections.
 *
 * 64 MiB holds the quotes of about 4,000 two-passenger requests (16 KB each) or 1,100 nine-passenger ones: a
 * sandbox's caller books within seconds of asking. With 512 MiB, a server under load kept its heap near that size,
 * and the collector's work made an offers request cost about 1.3× as much CPU (docs/performance.md).
 */
const MAX_QUOTE_BYTES = 64 * 1024 * 1024;

interface Quote {
  id: string;
  data: string;
  at: number;
}

export function offerCache(maxBytes = MAX_QUOTE_BYTES) {
  const offers = new Map<string, Quote>();
  /**
   * The quotes in the order they were put, oldest at `head`; a quote put again, or forgotten, stays here until its
   * turn and is then passed over. A queue of its own: walking the Map from its oldest entry would step over every
   * entry deleted since V8 last compacted it, thousands once the bound is reached.
   */
  let order: Quote[] = [];
  let head = 0;
  let bytes = 0;
  const forget = (id: string) => {
    const quote = offers.get(id);
    if (!quote) return;
    bytes -= 2 * quote.data.length;
    offers.delete(id);
  };
  const prune = () => {
    const oldest = Date.now() - OFFERS_KEPT_MS;
    while (head < order.length) {
      const quote = order[head]!;
      const current = offers.get(quote.id) === quote;
      if (current && quote.at >= oldest && bytes <= maxBytes) break;
      if (current) forget(quote.id);
      head++;
    }
    if (head > 1024 && head * 2 > order.length) {
      order = order.slice(head);
      head = 0;
    }
  };
  return {
    put(list: readonly StoredOffer[]) {
      const at = Date.now();
      for (const o of list) {
        forget(o.offerId); // put again: counted once, and its age starts again
        const quote = { id: o.offerId, data: JSON.stringify(o), at };
        offers.set(o.offerId, quote);
        order.push(quote);
        bytes += 2 * quote.data.length;
      }
      prune();
    },
    get(ids: readonly string[]): Map<string, StoredOffer> {
      const out = new Map<string, StoredOffer>();
      for (const id of ids) {
        const quote = offers.get(id);
        if (quote) out.set(id, JSON.parse(quote.data) as StoredOffer);
      }
      return out;
    },
    /** What the quotes' text takes, two bytes a character. */
    get bytes() {
      return bytes;
    },
    clear() {
      offers.clear();
      order = [];
      head = 0;
      bytes = 0;
    },
  };
}
