import { isRealInstant } from '../../engine/rules/time.ts';

/**
 * The same instant in another notation (spec §1.7: the offset is notation, not meaning; CONTRACT §4). What the
 * metamorphic tests send instead of a request's own times, and how they compare answers that may echo either.
 */
export const OFFSETS = ['Z', '+01:00', '+02:00', '-05:00'] as const;
export type Offset = (typeof OFFSETS)[number];

const minutesOf = (offset: Offset) => (offset === 'Z' ? 0 : (offset.startsWith('-') ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6))));

/** A date-time with an offset that names a real instant; 2026-02-30T… or +25:00 are left as the request wrote them (they test refusals). */
export const isInstant = (v: unknown): v is string => typeof v === 'string' && isRealInstant(v);

/**
 * `text`'s instant written in `offset`, to the same precision: `2026-12-12T00:30+01:00` in `Z` is `2026-12-11T23:30Z`,
 * `2026-12-01T08:00:00.125+01:00` keeps its milliseconds. Anything but a real instant is returned unchanged.
 */
export function inOffset(text: string, offset: Offset): string {
  if (!isInstant(text)) return text;
  const local = new Date(Date.parse(text) + minutesOf(offset) * 60_000).toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  const seconds = text.charAt(16) === ':';
  const fraction = /\.(\d+)/.exec(text.slice(19))?.[1]?.length ?? 0;
  const digits = seconds ? 19 + (fraction > 0 ? 1 + Math.min(fraction, 3) : 0) : 16;
  return `${local.slice(0, digits)}${offset}`;
}

/** A copy of `value` with every instant in it (at any depth) written in `offset`; dates such as a `dateOfBirth` are not instants and stay. */
export function rewriteInstants(value: unknown, offset: Offset): unknown {
  if (typeof value === 'string') return inOffset(value, offset);
  if (Array.isArray(value)) return value.map((v) => rewriteInstants(v, offset));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteInstants(v, offset)]));
  return value;
}

/** A path with the instants of its query written in `offset` (`?validFrom=2026-12-01T00:00:00%2B01:00`). */
export function rewritePath(path: string, offset: Offset): string {
  const at = path.indexOf('?');
  if (at < 0) return path;
  const query = new URLSearchParams(path.slice(at + 1));
  let changed = false;
  for (const [k, v] of [...query]) {
    const w = inOffset(v, offset);
    if (w !== v) {
      query.set(k, w);
      changed = true;
    }
  }
  return changed ? `${path.slice(0, at + 1)}${query.toString()}` : path;
}

/** Instants inside a text: `Train 421 departed at 2026-12-01T08:00:00+01:00: …`. */
const WITHIN_TEXT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})/g;

/** A text with every instant in it written as UTC (`toISOString`); a whole instant is a text with one. */
const textAsInstants = (text: string) => text.replace(WITHIN_TEXT, (t) => (isRealInstant(t) ? new Date(t).toISOString() : t));

/** `value` with every instant written as UTC (`toISOString`), in texts too, so that two answers compare by what they mean. */
export function asInstants(value: unknown): unknown {
  if (typeof value === 'string') return textAsInstants(value);
  if (Array.isArray(value)) return value.map(asInstants);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asInstants(v)]));
  return value;
}

/**
 * `answer` with each instant (or text with instants) that means the same as `baseline`'s at the same place spelled as
 * `baseline` spells it. A scenario's expectations are written for the notation it sends (an echoed `2026-12-01T08:00:00+01:00`),
 * so this lets the runner go on with its steps where only the notation differs; a different instant stays as it is.
 */
export function inNotationOf(answer: unknown, baseline: unknown): unknown {
  if (typeof answer === 'string') return typeof baseline === 'string' && textAsInstants(answer) === textAsInstants(baseline) ? baseline : answer;
  if (Array.isArray(answer)) return answer.map((v, i) => inNotationOf(v, Array.isArray(baseline) ? baseline[i] : undefined));
  if (answer !== null && typeof answer === 'object') {
    const base = baseline !== null && typeof baseline === 'object' ? (baseline as Record<string, unknown>) : {};
    return Object.fromEntries(Object.entries(answer).map(([k, v]) => [k, inNotationOf(v, base[k])]));
  }
  return answer;
}
