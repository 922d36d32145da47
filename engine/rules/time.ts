/**
 * Time arithmetic for rules: ISO 8601 durations without years or months, and instants as ISO strings.
 * The engine never reads a clock; `now` always comes in from the caller.
 */
const DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** Durations come from rules/ (a handful of values): each is read once. */
const durations = new Map<string, number>();

export function durationMs(iso: string): number {
  let ms = durations.get(iso);
  if (ms === undefined) {
    ms = readDuration(iso);
    if (durations.size < 1000) durations.set(iso, ms);
  }
  return ms;
}

function readDuration(iso: string): number {
  const m = DURATION.exec(iso);
  if (!m || iso === 'P' || iso.endsWith('T')) throw new Error(`not an ISO 8601 duration: ${iso}`);
  const [, w, d, h, min, s] = m;
  return ((((Number(w ?? 0) * 7 + Number(d ?? 0)) * 24 + Number(h ?? 0)) * 60 + Number(min ?? 0)) * 60 + Number(s ?? 0)) * 1000;
}

export function plus(instant: string | Date, iso: string): Date {
  return new Date(new Date(instant).getTime() + durationMs(iso));
}

/** Minutes between two instants, rounded down. */
export function minutesBetween(from: string | Date, to: string | Date): number {
  return Math.floor((new Date(to).getTime() - new Date(from).getTime()) / 60_000);
}

/** ISO 8601 date-time with a UTC offset (spec §1.7): 2026-12-01T08:00:00+01:00 or …Z. */
export const DATE_TIME_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * True when a string of DATE_TIME_WITH_OFFSET's form names a real instant: a day the month has, hours, minutes,
 * seconds and offset in range. JavaScript's Date would turn 2026-02-30 into 2 March, and +25:00 into NaN.
 */
export function isRealInstant(text: string): boolean {
  if (!DATE_TIME_WITH_OFFSET.test(text)) return false;
  // The form is known now: read the fields at their places (every request's instants pass here; no allocation).
  const two = (at: number) => (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48;
  const year = two(0) * 100 + two(2);
  const month = two(5);
  const day = two(8);
  const hour = two(11);
  const minute = two(14);
  const second = text.charCodeAt(16) === 58 ? two(17) : 0; // ':'
  const utc = text.endsWith('Z');
  const offsetHours = utc ? 0 : two(text.length - 5);
  const offsetMinutes = utc ? 0 : two(text.length - 2);
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offsetHours <= 23 &&
    offsetMinutes <= 59
  );
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The earlier of two instants, as an ISO string in UTC. */
export function earliest(a: string | Date, b: string | Date): string {
  return new Date(Math.min(new Date(a).getTime(), new Date(b).getTime())).toISOString();
}
