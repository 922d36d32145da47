import type { StoredOffer } from '../../engine/index.ts';
import { OFFERS_KEPT_MS } from './store.ts';

/**
 * The memory store's offers: short-lived quotes (bookable for 30 minutes, CONTRACT §4a) kept as JSON text and
 * forgotten some hours after they were made (by the real clock, so a sandbox clock set in the past cannot make
 * fresh offers vanish) or, oldest first, once their text takes more than `maxBytes`, so a sandbox under load keeps a
 * bounded amount of memory. Bounded by count instead, nine-passenger quotes filled the heap long before the count
 * and the process died (docs/performance.md).
 *
 * The text is written as UTF-8 into a ring of byte chunks outside the JavaScript heap, allocated once and then
 * written over, oldest quotes first. Kept as strings on the heap, every quote outlived a young-generation collection,
 * so the collector copied it twice and the process touched fresh pages for it, page faults and a share of an offers
 * request's CPU (docs/performance.md). A Buffer per quote instead cost more to put: V8 answers each new piece of
 * external memory with more frequent full collections; the ring's chunks are allocated once.
 *
 * 64 MiB holds the quotes of thousands of requests (docs/performance.md, "Caveats"): a sandbox's caller books within
 * seconds of asking.
 */
const MAX_QUOTE_BYTES = 64 * 1024 * 1024;
/** The ring is this many chunks: writing into a chunk again forgets a sixteenth of the quotes, the oldest. */
const CHUNKS = 16;

interface Quote {
  id: string;
  at: number;
  chunk: number;
  offset: number;
  length: number;
  /** A quote too big for a chunk is kept as its text (a thousand passengers' quote would be). */
  text?: string;
}

export function offerCache(maxBytes = MAX_QUOTE_BYTES) {
  const chunkBytes = Math.floor(maxBytes / CHUNKS);
  /** Allocated when first written into, so an idle store (every test's) costs nothing. */
  const chunks: Buffer[] = [];
  /** The quotes written into each chunk, forgotten when it is written into again. */
  let written: Quote[][] = [];
  let chunk = 0;
  let offset = 0;
  const offers = new Map<string, Quote>();
  /**
   * The quotes in the order they were put, oldest at `head`, for the age and size bounds; a quote put again, or
   * forgotten, stays here until its turn and is then passed over. A queue of its own: walking the Map from its oldest
   * entry would step over every entry deleted since V8 last compacted it.
   */
  let order: Quote[] = [];
  let head = 0;
  let bytes = 0;
  const forget = (id: string) => {
    const quote = offers.get(id);
    if (!quote) return;
    bytes -= quote.length;
    offers.delete(id);
  };
  /** Forgets the oldest quotes while `stale` says so (a forgotten or replaced quote is passed over). */
  const dropOldest = (stale: (quote: Quote) => boolean) => {
    while (head < order.length) {
      const quote = order[head]!;
      const current = offers.get(quote.id) === quote;
      if (current && !stale(quote)) break;
      if (current) forget(quote.id);
      head++;
    }
    if (head > 1024 && head * 2 > order.length) {
      order = order.slice(head);
      head = 0;
    }
  };
  /** A place for `most` bytes in the ring, forgetting the quotes written there before. */
  const placeFor = (most: number) => {
    if (offset + most > chunkBytes) {
      chunk = (chunk + 1) % CHUNKS;
      offset = 0;
      for (const quote of written[chunk] ?? []) if (offers.get(quote.id) === quote) forget(quote.id);
      written[chunk] = [];
    }
    chunks[chunk] ??= Buffer.allocUnsafe(chunkBytes);
  };
  const write = (id: string, text: string, at: number): Quote => {
    // At most three bytes of UTF-8 per UTF-16 unit; the exact length is known once written.
    const most = 3 * text.length;
    if (most > chunkBytes) return { id, at, chunk: -1, offset: 0, length: 2 * text.length, text };
    placeFor(most);
    const length = chunks[chunk]!.write(text, offset, 'utf8');
    const quote = { id, at, chunk, offset, length };
    (written[chunk] ??= []).push(quote);
    offset += length;
    return quote;
  };
  return {
    put(list: readonly StoredOffer[]) {
      const at = Date.now();
      for (const o of list) {
        forget(o.offerId); // put again: counted once, and its age starts again
        const quote = write(o.offerId, JSON.stringify(o), at);
        offers.set(o.offerId, quote);
        order.push(quote);
        bytes += quote.length;
      }
      const oldest = Date.now() - OFFERS_KEPT_MS;
      dropOldest((q) => q.at < oldest || bytes > maxBytes);
    },
    get(ids: readonly string[]): Map<string, StoredOffer> {
      const out = new Map<string, StoredOffer>();
      for (const id of ids) {
        const quote = offers.get(id);
        if (!quote) continue;
        const text = quote.text ?? chunks[quote.chunk]!.toString('utf8', quote.offset, quote.offset + quote.length);
        out.set(id, JSON.parse(text) as StoredOffer);
      }
      return out;
    },
    /** What the quotes kept take: their UTF-8 bytes (two a character for one kept as text). */
    get bytes() {
      return bytes;
    },
    clear() {
      offers.clear();
      order = [];
      head = 0;
      bytes = 0;
      written = [];
      chunk = 0;
      offset = 0;
    },
  };
}
