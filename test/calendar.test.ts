/**
 * Replay: FC_SEED=<seed> npx vitest run test/calendar.test.ts
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, ageOnDay, calendarIn, isTimeZone } from '../engine/rules/calendar.ts';
import { engine } from './helpers/server.ts';
import { runs, seed } from './helpers/facts.ts';
import { inOffset, OFFSETS } from './helpers/offsets.ts';

/** The operator's calendar (CONTRACT §4): days and ages from instants, in the zone of rules/timetable.yaml. */
describe("the operator's calendar", () => {
  const calendar = engine().rules.calendar;

  it('reads the zone rules/timetable.yaml names', () => {
    expect(calendar.timeZone).toBe('Europe/Stockholm');
    expect(isTimeZone('Europe/Stockholm')).toBe(true);
    expect(isTimeZone('Europe/Atlantis')).toBe(false);
  });

  it('gives the local day of an instant, summer time included', () => {
    expect(calendar.dayOf('2026-12-12T00:30:00+01:00')).toBe('2026-12-12');
    expect(calendar.dayOf('2026-12-11T23:30:00Z')).toBe('2026-12-12');
    expect(calendar.dayOf('2026-12-11T22:59:59Z')).toBe('2026-12-11');
    // 00:30 on 25 October 2026 is summer time (+02:00) in Stockholm: 22:30 UTC the evening before.
    expect(calendar.dayOf('2026-10-24T22:30:00Z')).toBe('2026-10-25');
    expect(calendar.dayOf('2026-10-24T21:30:00Z')).toBe('2026-10-24');
    expect(calendar.dayOf(new Date('2026-06-30T22:00:00Z'))).toBe('2026-07-01');
  });

  it('counts an age on the local day of travel; a birthday counts from its own day on', () => {
    expect(calendar.ageOn('2000-12-12', '2026-12-11T23:30:00Z')).toBe(26);
    expect(calendar.ageOn('2000-12-12', '2026-12-11T22:30:00Z')).toBe(25);
    expect(ageOnDay('2008-02-29', '2026-02-28')).toBe(17);
    expect(ageOnDay('2008-02-29', '2026-03-01')).toBe(18);
  });

  it('adds whole days to a date across months and years', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-11-15', 29)).toBe('2026-12-14');
  });

  it('refuses what is not an instant', () => {
    expect(() => calendarIn('Europe/Stockholm').dayOf('not a time')).toThrow(RangeError);
  });

  const settings = { seed: seed(), numRuns: runs(500) };
  it(`gives one day for one instant, whatever offset it is written with (seed ${settings.seed})`, () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2035, 0, 1) }).map((ms) => Math.floor(ms / 60_000) * 60_000),
        fc.constantFrom(...OFFSETS),
        (ms, offset) => {
          const written = inOffset(new Date(ms).toISOString().replace('.000Z', 'Z'), offset);
          expect(Date.parse(written)).toBe(ms);
          expect(calendar.dayOf(written)).toBe(calendar.dayOf(new Date(ms)));
        },
      ),
      settings,
    );
  });
});
