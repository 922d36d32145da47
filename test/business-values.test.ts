import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Business values live in rules/, where analysts change them; the TypeScript reads them from there.
 * These are values that were once written into the code: each pattern must stay out of it.
 */
const known: Array<{ value: string; pattern: RegExp; lives: string }> = [
  { value: 'the EuroNight category code', pattern: /category === 'EN'|'EN'\s*[,)\]]/, lives: 'products.yaml euroNight' },
  { value: 'the 2nd class private group rule', pattern: /travelClass === 'SECOND'/, lives: 'private-groups.yaml' },
  { value: 'the roll-back terms of cleanup', pattern: /refundPercent: 100/, lives: 'cleanup.yaml row roll-back' },
  { value: 'the exchange fee', pattern: /exchangeFee: (zero|\{[^}]*amount: 0)/, lives: 'exchange-guards.yaml exchangeFee' },
  { value: 'the reservation price', pattern: /reservation[^\n]*amount: 0|\{ currency, amount: 0, scale: 2 \}/, lives: 'reservation-prices.yaml' },
  { value: 'the phone number format of 86039', pattern: /\\\+\[1-9\]\\d\{6,14\}/, lives: 'cards.yaml phoneNumberPattern' },
  { value: 'the product categories', pattern: /'ST',\s*'RE'|ST\|RE\|IC/, lives: 'products.yaml productCategories' },
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('no business value is written in TypeScript', () => {
  const files = [...sources('engine'), ...sources('adapters')].map((file) => ({ file, text: readFileSync(file, 'utf8') }));
  for (const { value, pattern, lives } of known) {
    it(`${value} comes from rules/ (${lives})`, () => {
      const found = files.flatMap(({ file, text }) => text.split('\n').flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])));
      expect(found, `${value} belongs in rules/${lives}`).toEqual([]);
    });
  }
});
