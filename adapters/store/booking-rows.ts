import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { decodeStoredBooking, type Booking } from '../../engine/index.ts';

/**
 * How the SQLite store keeps a booking in its row: the booking's JSON, deflated (RFC 1951) when the text would not
 * fit in one 4 KB page. A booking of two passengers or more deflates to a fraction of its text, so it fits in one page
 * instead of spilling into overflow pages. A smaller booking (most one-passenger ones) fits as it is and is kept as
 * text: a commit writes its page either way (the file takes up to a page per such booking instead of half of one),
 * and a deflate costs the writer thread the same whatever the size (Node makes and closes a zlib stream each time),
 * plus collections of its native memory (docs/performance.md). Both forms are read.
 */
export const LEVEL = 3;
/**
 * The longest JSON (UTF-8 bytes) kept as text: with the row's id, owner and version it stays under SQLite's 4,061
 * bytes of payload in a table page of 4,096 bytes, beyond which a row spills into overflow pages.
 */
export const TEXT_UP_TO = 3900;

/** The writer thread (sqlite-writer.cjs, plain CommonJS) encodes the same way, with LEVEL and TEXT_UP_TO handed to it; the bench's seeder uses this. */
export const encodeBookingJson = (json: string): Buffer | string => (Buffer.byteLength(json) <= TEXT_UP_TO ? json : deflateRawSync(json, { level: LEVEL }));

/** A booking's row read back: text or deflated JSON, checked against the stored booking's schema (X_BOOKING_UNREADABLE). */
export function decodeBooking(id: string, data: Uint8Array | string): Booking {
  return decodeStoredBooking(id, jsonOf(data));
}

/** The row's JSON, or undefined when it is not JSON at all (the schema then refuses it as a whole). */
function jsonOf(data: Uint8Array | string): unknown {
  try {
    return JSON.parse(typeof data === 'string' ? data : inflateRawSync(data).toString('utf8'));
  } catch {
    return undefined;
  }
}
