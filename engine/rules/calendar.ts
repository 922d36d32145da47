/**
 * The operator's calendar (CONTRACT §4, spec §1.7): a timestamp's offset is notation, the instant is the meaning.
 * Every calendar question — a train's operating day, a pass's validity days, a passenger's age on the day of
 * travel — is answered here, in the operator's time zone (rules/timetable.yaml `timeZone`), from the instant.
 * No decision reads the date part of a time string: `2026-12-12T00:30:00+01:00` and `2026-12-11T23:30:00Z` are
 * one instant and so one operating day, 2026-12-12 in Stockholm.
 */
export interface Calendar {
  /** The IANA time zone the calendar reads instants in. */
  readonly timeZone: string;
  /** The local date (YYYY-MM-DD) of an instant. */
  dayOf(instant: string | Date): string;
  /** Age in whole years on the local day of `instant` of someone born on `dateOfBirth` (YYYY-MM-DD). */
  ageOn(dateOfBirth: string, instant: string | Date): number;
}

/** Whether the platform knows the time zone (rules are checked with this before a calendar is made of them). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** How many instants a calendar remembers the day of before it starts afresh: a bound on memory, not a rule. */
const REMEMBERED_INSTANTS = 10_000;

export function calendarIn(timeZone: string): Calendar {
  // en-CA writes dates as YYYY-MM-DD; the zone's rules (summer time included) come from the platform's tz data.
  const format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  // Formatting is the costly part, and the same instants come back (a timetable's departures, a pass's validity):
  // each instant's day is formatted once.
  const days = new Map<number, string>();
  const dayOf = (instant: string | Date) => {
    const t = typeof instant === 'string' ? Date.parse(instant) : instant.getTime();
    if (Number.isNaN(t)) throw new RangeError(`not an instant: ${String(instant)}`);
    let day = days.get(t);
    if (day === undefined) {
      if (days.size >= REMEMBERED_INSTANTS) days.clear();
      days.set(t, (day = format.format(t)));
    }
    return day;
  };
  return {
    timeZone,
    dayOf,
    ageOn: (dateOfBirth, instant) => ageOnDay(dateOfBirth, dayOf(instant)),
  };
}

/** Whole years from a date of birth to a day, both YYYY-MM-DD: the birthday counts from its own day on. */
export function ageOnDay(dateOfBirth: string, day: string): number {
  const [by, bm, bd] = dateOfBirth.split('-').map(Number) as [number, number, number];
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/** The day after or before a date (YYYY-MM-DD), by whole days: calendar arithmetic, no time zone involved. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
