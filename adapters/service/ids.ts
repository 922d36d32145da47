import { randomFillSync } from 'node:crypto';
import type { IdSource } from '../../engine/index.ts';

/** Crockford base32 without I, L, O, U: easy to read out over the phone. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Random bytes drawn 4 KiB at a time, as crypto.randomUUID does. */
const pool = Buffer.allocUnsafe(4096);
let drawn = pool.length;
const text = Buffer.allocUnsafe(36);
const HEX = Buffer.from('0123456789abcdef', 'latin1');

/** The next `n` random bytes of the pool, refilled when fewer are left: one call into the system per 4 KiB. */
function draw(n: number): number {
  if (drawn + n > pool.length) {
    randomFillSync(pool);
    drawn = 0;
  }
  drawn += n;
  return drawn - n;
}

/** A code of `length` letters and digits for people to read, from the pool's bytes. */
function code(length: number): string {
  const at = draw(length);
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[pool[at + i]! % 32];
  return out;
}

/**
 * A UUID (RFC 9562) as one flat string: version 4, all random, or version 7, whose first 48 bits are the time in
 * milliseconds and the rest random. crypto.randomUUID joins its 20 pieces with `+`, and V8 keeps such a string as a
 * tree of its pieces until it is read whole; an offer has dozens of ids, each copied flat again when the answer and
 * the quote are serialised, a measurable share of an offers request's CPU (docs/performance.md).
 */
function uuid(version: 4 | 7): string {
  const from = draw(16);
  if (version === 7) {
    // Big-endian milliseconds over the first six bytes: 2^48 ms reach the year 10889.
    let ms = Date.now();
    for (let i = 5; i >= 0; i--) {
      pool[from + i] = ms % 256;
      ms = Math.floor(ms / 256);
    }
  }
  let at = 0;
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) text[at++] = 0x2d; // '-'
    const byte = pool[from + i]!;
    // The version in the 7th byte's high nibble, the variant (10xx) in the 9th byte's high bits.
    const b = i === 6 ? (byte & 0x0f) | (version << 4) : i === 8 ? (byte & 0x3f) | 0x80 : byte;
    text[at++] = HEX[b >> 4]!;
    text[at++] = HEX[b & 0x0f]!;
  }
  return text.toString('latin1', 0, 36);
}

/**
 * Booking ids are short codes a traveller can read (booking.bookingCode = booking.id, spec §2.6 rule 1); the rest
 * are UUIDs. Offer ids are time-ordered (version 7): the SQLite store keys its quotes by them, and a key that grows
 * with time is written at the end of the index instead of anywhere in it (docs/performance.md).
 */
export const randomIds: IdSource = {
  next: (kind) => (kind === 'booking' ? `SB${code(8)}` : kind === 'pass' ? `OPR${code(10)}` : uuid(kind === 'offer' ? 7 : 4)),
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
