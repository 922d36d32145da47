import { describe, expect, it } from 'vitest';
import type { StoredOffer } from '../engine/index.ts';
import { offerCache } from '../adapters/store/offer-cache.ts';
import { engine, engineCall, passengers, trip } from './helpers/server.ts';

/**
 * The memory store's quotes (`--store memory`, the sandbox of CI and of scenario runs) are bounded by their size:
 * kept as JavaScript strings and bounded by count, 9-passenger quotes filled the heap and the process died. They are
 * kept as UTF-8 in a ring of chunks, written over oldest first.
 */
const call = engineCall();
const nine = { tripSpecifications: [trip()], anonymousPassengerSpecifications: passengers(35, 8, 40, 17, 70, 1, 22, 5, 64) };
const quotes = (): StoredOffer[] => engine().offers(call, nine).value.offers;

describe('the memory store keeps a bounded amount of quotes', () => {
  it('forgets the oldest quotes first once they hold more than their bound, and keeps the newest', () => {
    const first = quotes();
    const size = 2 * JSON.stringify(first).length;
    const cache = offerCache(20 * size);
    cache.put(first);
    let last = first;
    for (let i = 0; i < 100; i++) cache.put((last = quotes()));

    expect(cache.bytes).toBeLessThanOrEqual(20 * size);
    expect(cache.bytes).toBeGreaterThan(15 * size);
    expect(cache.get(first.map((o) => o.offerId)).size).toBe(0);
    expect([...cache.get(last.map((o) => o.offerId)).values()]).toEqual(last);
  });

  it('gives back copies: changing an offer read does not change the quote', () => {
    const cache = offerCache();
    const [offer] = quotes();
    cache.put([offer!]);
    const read = cache.get([offer!.offerId]).get(offer!.offerId)!;
    read.admissions[0]!.price.amount = 1;
    expect(cache.get([offer!.offerId]).get(offer!.offerId)).toEqual(offer);
  });

  it('keeps a quote put again as the newest: the bound forgets the others first', () => {
    const first = quotes();
    const size = 2 * JSON.stringify(first).length;
    const cache = offerCache(3 * size);
    const second = quotes();
    cache.put(first);
    cache.put(second);
    cache.put(first);
    cache.put(quotes());
    cache.put(quotes());
    expect(cache.get(second.map((o) => o.offerId)).size).toBe(0);
    expect(cache.get(first.map((o) => o.offerId)).size).toBe(first.length);
  });

  it('gives back every quote it still keeps exactly as put, however often its space was written over', () => {
    const lists = Array.from({ length: 12 }, quotes);
    const size = 2 * JSON.stringify(lists[0]).length;
    const cache = offerCache(4 * size); // a ring of 16 chunks, each smaller than one request's quotes
    const kept: StoredOffer[] = [];
    for (let round = 0; round < 5; round++)
      for (const list of lists) {
        cache.put(list);
        kept.push(...list);
        expect(cache.bytes).toBeLessThanOrEqual(4 * size);
      }
    const read = cache.get(kept.map((o) => o.offerId));
    expect(read.size).toBeGreaterThan(0);
    for (const o of kept) if (read.has(o.offerId)) expect(read.get(o.offerId)).toEqual(o);
    // The newest request's quotes are always kept.
    expect(cache.get(lists[11]!.map((o) => o.offerId)).size).toBe(lists[11]!.length);
  });

  it('keeps a quote bigger than a chunk of its ring as text', () => {
    const list = quotes();
    const cache = offerCache(4 * JSON.stringify(list[0]).length);
    cache.put(list.slice(0, 1));
    expect(cache.get([list[0]!.offerId]).get(list[0]!.offerId)).toEqual(list[0]);
  });

  it('counts a quote put again once', () => {
    const cache = offerCache();
    const list = quotes();
    cache.put(list);
    const bytes = cache.bytes;
    cache.put(list);
    expect(cache.bytes).toBe(bytes);
  });
});
