import { describe, expect, it } from 'vitest';
import { randomIds } from '../adapters/service/ids.ts';

/** The ids a server gives offers, parts and fulfillments: what a reseller stores and sends back. */
describe('random ids', () => {
  it('are version 4 UUIDs (RFC 9562), all different', () => {
    const ids = Array.from({ length: 5000 }, () => randomIds.next('part'));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('give offers version 7 UUIDs, all different, that begin with the time they were made', () => {
    const before = Date.now();
    const ids = Array.from({ length: 5000 }, () => randomIds.next('offer'));
    const after = Date.now();
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
    const made = (id: string) => parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
    expect(made(ids[0]!)).toBeGreaterThanOrEqual(before);
    expect(made(ids.at(-1)!)).toBeLessThanOrEqual(after);
  });

  it('use every hex digit in every random position', () => {
    const ids = Array.from({ length: 2000 }, () => randomIds.next('part').replace(/-/g, ''));
    for (let position = 0; position < 32; position++) {
      if (position === 12 || position === 16) continue; // the version, and the variant's two fixed bits
      expect(new Set(ids.map((id) => id[position])).size).toBe(16);
    }
  });

  it('keep booking codes short and readable, and pass numbers apart', () => {
    expect(randomIds.next('booking')).toMatch(/^SB[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(randomIds.next('pass')).toMatch(/^OPR[0-9A-HJKMNP-TV-Z]{10}$/);
  });
});
