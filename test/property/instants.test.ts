/**
 * Replay: FC_SEED=<seed> npx vitest run test/property/instants.test.ts
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRealInstant } from '../../engine/rules/time.ts';
import { runs, seed } from '../helpers/facts.ts';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * Request instants (spec §1.7) must name a real instant: 2026-02-30 or +25:00 are refused at their field. The check
 * reads the fields at their places; here it is held against what Date makes of the same fields.
 */
describe('a request instant is real', () => {
  const settings = { seed: seed(), numRuns: runs(2000) };
  it(`exactly when its day is in its month and its time and offset are in range (seed ${settings.seed})`, () => {
    console.info(`instants: seed ${settings.seed}, ${settings.numRuns} runs`);
    fc.assert(
      fc.property(
        fc.record({
          year: fc.integer({ min: 1896, max: 2404 }),
          month: fc.integer({ min: 0, max: 13 }),
          day: fc.integer({ min: 0, max: 32 }),
          hour: fc.integer({ min: 0, max: 25 }),
          minute: fc.integer({ min: 0, max: 61 }),
          second: fc.option(fc.integer({ min: 0, max: 61 })),
          zone: fc.option(fc.record({ sign: fc.constantFrom('+', '-'), hours: fc.integer({ min: 0, max: 25 }), minutes: fc.integer({ min: 0, max: 61 }) })),
        }),
        ({ year, month, day, hour, minute, second, zone }) => {
          const text = `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}${second === null ? '' : `:${pad(second)}`}${
            zone === null ? 'Z' : `${zone.sign}${pad(zone.hours)}:${pad(zone.minutes)}`
          }`;
          const date = new Date(Date.UTC(year, month - 1, day));
          const dayExists = month >= 1 && month <= 12 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
          const real = dayExists && hour <= 23 && minute <= 59 && (second ?? 0) <= 59 && (zone === null || (zone.hours <= 23 && zone.minutes <= 59));
          expect(isRealInstant(text), text).toBe(real);
        },
      ),
      settings,
    );
  });

  it('knows the leap days', () => {
    expect(['2000-02-29T00:00Z', '2024-02-29T00:00Z', '2100-02-29T00:00Z', '2026-02-29T00:00Z'].map(isRealInstant)).toEqual([true, true, false, false]);
  });

  it('refuses what is not of the form', () => {
    for (const text of ['2026-12-01', '2026-12-01T08:00', '2026-12-01T08:00:00+0100', ' 2026-12-01T08:00:00Z', '2026-12-01T08:00:00.5+01:00x'])
      expect(isRealInstant(text), text).toBe(false);
    expect(isRealInstant('2026-12-01T08:00:00.125+01:00')).toBe(true);
  });
});
