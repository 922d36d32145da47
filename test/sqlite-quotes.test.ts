import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { quotesFile } from '../adapters/store/sqlite-quotes.ts';
import { OFFERS_KEPT_MS } from '../adapters/store/store.ts';

/**
 * The SQLite store's quotes live in a file of their own (`<file>-offers`), which forgets the oldest quotes once they
 * are older than they are kept or once newer ones fill it: a file that only grew made every quote dearer to write.
 */
describe('the SQLite store keeps a bounded file of quotes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'signalbox-quotes-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(() => vi.useRealTimers());
  let files = 0;
  const quote = (n: number) => JSON.stringify({ offerId: `offer-${n}`, text: 'x'.repeat(1000) });
  /** Writes quotes `from` … `to` in batches of two, as an offers request of two offers does. */
  const write = (file: ReturnType<typeof quotesFile>, from: number, to: number) => {
    for (let n = from; n <= to; n += 2) file.write(new Map([n, n + 1].filter((m) => m <= to).map((m) => [`offer-${m}`, quote(m)])));
  };

  it('forgets the oldest quotes once newer ones take more than its bound, and keeps the newest', () => {
    // 256 steps of 4,000 bytes: about a thousand of these quotes.
    const file = quotesFile(join(dir, `${++files}-offers`), 256 * 4000);
    write(file, 1, 3000);
    expect(file.read('offer-1')).toBeUndefined();
    expect(file.read('offer-1900')).toBeUndefined();
    expect(file.read('offer-2100')).toBe(quote(2100));
    expect(file.read('offer-3000')).toBe(quote(3000));
    file.close();
  });

  it('forgets quotes older than they are kept, newer ones or not', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-12-02T08:00:00Z') });
    const file = quotesFile(join(dir, `${++files}-offers`), 256 * 4000);
    write(file, 1, 10);
    vi.setSystemTime(Date.now() + OFFERS_KEPT_MS + 1000);
    write(file, 11, 20);
    expect(file.read('offer-1')).toBeUndefined();
    expect(file.read('offer-10')).toBeUndefined();
    expect(file.read('offer-20')).toBe(quote(20));
    file.close();
  });

  it('after a restart, finds the quotes of the run before, and forgets them once they are older than kept', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-12-02T08:00:00Z') });
    const path = join(dir, `${++files}-offers`);
    const first = quotesFile(path, 256 * 4000);
    write(first, 1, 100);
    first.close();
    const second = quotesFile(path, 256 * 4000);
    expect(second.read('offer-100')).toBe(quote(100));
    vi.setSystemTime(Date.now() + OFFERS_KEPT_MS + 1000);
    write(second, 101, 102);
    expect(second.read('offer-1')).toBeUndefined();
    expect(second.read('offer-100')).toBeUndefined();
    expect(second.read('offer-102')).toBe(quote(102));
    second.close();
  });

  it('reads a quote written again under the same id as its newest text', () => {
    const file = quotesFile(join(dir, `${++files}-offers`));
    file.write(new Map([['offer-1', 'old']]));
    file.write(new Map([['offer-1', 'new']]));
    expect(file.read('offer-1')).toBe('new');
    file.clear();
    expect(file.read('offer-1')).toBeUndefined();
    file.close();
  });
});
