import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { engine } from './helpers/server.ts';

/** Every code of spec §7 and CONTRACT §5 is in rules/errors.yaml, with texts in both languages. */
const specCodes = Array.from({ length: 43 }, (_, i) => String(86001 + i)).filter((c) => c !== '86004');
const contractCodes = [
  'RESOURCE_NOT_FOUND',
  'X_OFFER_EXPIRED',
  'X_BOOKING_EXPIRED',
  'X_CONCURRENT_AFTERSALES',
  'X_ON_HOLD_OFFER_ACTIVE',
  'X_ON_HOLD_NOT_ALLOWED',
  'X_CLEANUP_WINDOW_PASSED',
  'X_BOOKING_STATE',
  'X_OPERATION_NOT_PERMITTED',
  'X_CARD_REMOVAL',
  'X_BOOKING_INCOMPLETE',
  'X_NOT_SUPPORTED',
  'UNAUTHORIZED',
  'FORBIDDEN',
];
const statusOf: Record<string, number> = {
  RESOURCE_NOT_FOUND: 404,
  X_OFFER_EXPIRED: 409,
  X_BOOKING_EXPIRED: 409,
  X_CONCURRENT_AFTERSALES: 409,
  X_ON_HOLD_OFFER_ACTIVE: 400,
  X_ON_HOLD_NOT_ALLOWED: 400,
  X_CLEANUP_WINDOW_PASSED: 400,
  X_BOOKING_STATE: 409,
  X_OPERATION_NOT_PERMITTED: 403,
  X_CARD_REMOVAL: 400,
  X_BOOKING_INCOMPLETE: 400,
  X_NOT_SUPPORTED: 501,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
};

describe('error catalogue (spec §7, CONTRACT §5)', () => {
  const { errors } = engine().rules;
  it.each([...specCodes, ...contractCodes])('%s is catalogued in sv-SE and en-GB', (code) => {
    const entry = errors[code];
    expect(entry, `${code} missing from rules/errors.yaml`).toBeDefined();
    for (const language of ['en-GB', 'sv-SE'] as const) {
      expect(entry!.title[language].length).toBeGreaterThan(0);
      expect(entry!.detail[language].length).toBeGreaterThan(0);
    }
    expect(entry!.title['sv-SE']).not.toBe(entry!.title['en-GB']);
    expect(entry!.status).toBe(specCodes.includes(code) ? 400 : statusOf[code]);
  });

  it('names the same parameters in both languages', () => {
    const params = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [code, entry] of Object.entries(errors)) {
      expect(params(entry.detail['sv-SE']), code).toEqual(params(entry.detail['en-GB']));
    }
  });

  it('has both texts of every phrase the code says (reasons, operations, resources)', () => {
    const { texts } = engine().rules;
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
      );
    const said = [...files('engine'), ...files('adapters')].flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/phrase\((['`])([a-z0-9-]+)(\$\{)?/g)].map((m) => ({ f, key: m[2]!, prefix: m[3] !== undefined })),
    );
    expect(said.length).toBeGreaterThan(40);
    for (const { f, key, prefix } of said) {
      const found = prefix ? Object.keys(texts).some((k) => k.startsWith(key)) : key in texts;
      expect(found, `${f}: phrase ${key} is not in rules/errors.yaml texts`).toBe(true);
    }
  });
});
