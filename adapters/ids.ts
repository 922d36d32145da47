import { randomBytes, randomUUID } from 'node:crypto';
import type { IdSource } from '../engine/index.ts';

/** Crockford base32 without I, L, O, U: easy to read out over the phone. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function code(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[bytes[i]! % 32];
  return out;
}

/** Booking ids are short codes a traveller can read (booking.bookingCode = booking.id, spec §2.6 rule 1); the rest are UUIDs. */
export const randomIds: IdSource = {
  next: (kind) => (kind === 'booking' ? `SB${code(8)}` : kind === 'pass' ? `OPR${code(10)}` : randomUUID()),
};

/** Predictable ids for tests: `offer-1`, `part-2`, … */
export function sequentialIds(): IdSource {
  const counters = new Map<string, number>();
  return {
    next(kind) {
      const n = (counters.get(kind) ?? 0) + 1;
      counters.set(kind, n);
      return `${kind}-${n}`;
    },
  };
}
