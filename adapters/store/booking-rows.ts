import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Booking } from '../../engine/index.ts';

/**
 * How the SQLite store keeps a booking in its row: the booking's JSON, deflated (RFC 1951). A 2-passenger
 * booking is ~6 KB of JSON and ~1.6 KB deflated, so it fits in one 4 KB page instead of spilling into overflow
 * pages, and every durable commit writes a quarter of the bytes (issue "Benchmarks": under 4 KB per booking).
 * Level 3 costs ~20 µs per write (on the store's writer thread, sqlite-writer.cjs) and ~8 µs per read on the bench
 * machine (docs/performance.md). Rows written as JSON text by earlier versions are read as they are.
 */
export const LEVEL = 3;

/** The writer thread (sqlite-writer.cjs, plain CommonJS) deflates the same way, with LEVEL handed to it; the bench's seeder uses this. */
export const encodeBookingJson = (json: string): Buffer => deflateRawSync(json, { level: LEVEL });

export function decodeBooking(data: Buffer | string): Booking {
  return JSON.parse(typeof data === 'string' ? data : inflateRawSync(data).toString('utf8')) as Booking;
}
