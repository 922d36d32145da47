import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { deflateRawSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { randomIds } from '../adapters/service/ids.ts';
import { TEXT_UP_TO } from '../adapters/store/booking-rows.ts';
import { sqliteStore } from '../adapters/store/sqlite.ts';
import type { Booking, Requestor } from '../engine/index.ts';
import { engine, passengers, trip } from './helpers/server.ts';

const dir = mkdtempSync(join(tmpdir(), 'signalbox-rows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const requestor: Requestor = { client: 'demo-reseller', salesApplication: 'WEB_SE', salesUnitCode: 'TEST', language: 'en-GB' };
const at = (iso: string) => ({ requestor, now: new Date(iso), ids: randomIds });

/** A confirmed booking of these passengers, made by the engine as a sale through the API makes it. */
function confirmed(...ages: number[]): Booking {
  const { offers } = engine().offers(at('2026-11-20T10:00:00+01:00'), {
    tripSpecifications: [trip()],
    anonymousPassengerSpecifications: passengers(...ages),
  }).value;
  const offer = offers[0]!;
  const refs = ages.map((_, i) => `p${i + 1}`);
  const { request } = engine().readBookingRequest({
    externalRef: 'rows',
    offers: [{ offerId: offer.offerId, passengerRefs: refs }],
    passengerSpecifications: refs.map((externalRef, i) => ({ externalRef, type: 'PERSON', detail: { firstName: `Resenär ${i + 1}`, lastName: 'Åberg' } })),
    purchaser: { detail: { firstName: 'Åsa', lastName: 'Åberg', email: 'asa@example.se', phoneNumber: '+46701111111' } },
  });
  const provisional = engine().book(at('2026-11-20T10:01:00+01:00'), request, new Map([[offer.offerId, offer]])).value.booking;
  return engine().confirm(at('2026-11-20T10:05:00+01:00'), provisional).value;
}

/** The pages of the bookings table by kind: leaf, interior, overflow (SQLite's dbstat). */
function pagesOfBookings(path: string): Record<string, number> {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const rows = db.prepare("SELECT pagetype, count(*) AS n FROM dbstat WHERE name = 'bookings' GROUP BY pagetype").all() as Array<{
      pagetype: string;
      n: number;
    }>;
    return Object.fromEntries(rows.map((r) => [r.pagetype, r.n]));
  } finally {
    db.close();
  }
}

describe('SQLite booking rows', () => {
  it('every booking fits in its table page: a small one as its JSON, a big one deflated; both read back whole', async () => {
    const path = join(dir, 'sizes.db');
    const small = confirmed(35);
    const big = confirmed(35, 8, 40, 70);
    expect(Buffer.byteLength(JSON.stringify(big))).toBeGreaterThan(4096); // as JSON alone it would spill
    const store = sqliteStore(path);
    await store.insertBooking(small);
    await store.insertBooking(big);
    await store.close();

    expect(pagesOfBookings(path)['overflow'] ?? 0).toBe(0);
    const again = sqliteStore(path);
    try {
      expect((await again.getBooking(small.id))?.booking).toEqual(small);
      expect((await again.getBooking(big.id))?.booking).toEqual(big);
    } finally {
      await again.close();
    }
  });

  it('the longest booking kept as JSON text still fits in its table page', async () => {
    const path = join(dir, 'longest.db');
    const booking = confirmed(35);
    const longest = { ...booking, externalRef: 'x'.repeat(TEXT_UP_TO - Buffer.byteLength(JSON.stringify(booking)) + booking.externalRef.length) };
    expect(Buffer.byteLength(JSON.stringify(longest))).toBe(TEXT_UP_TO);
    const store = sqliteStore(path);
    await store.insertBooking(longest);
    await store.close();
    expect(pagesOfBookings(path)['overflow'] ?? 0).toBe(0);
  });

  it('reads a small booking that an earlier version wrote deflated', async () => {
    const path = join(dir, 'earlier.db');
    const booking = confirmed(35);
    await sqliteStore(path).close(); // the store's own tables
    const db = new DatabaseSync(path);
    db.prepare('INSERT INTO bookings (id, owner, version, data) VALUES (?, ?, 1, ?)').run(booking.id, booking.owner, deflateRawSync(JSON.stringify(booking)));
    db.close();

    const store = sqliteStore(path);
    try {
      expect(await store.getBooking(booking.id)).toEqual({ booking, version: 1 });
    } finally {
      await store.close();
    }
  });
});
