import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeStoredBooking } from '../engine/model/records.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { sqliteStore } from '../adapters/store/sqlite.ts';
import { RuleViolation } from '../engine/index.ts';
import { passengers, testServer, trip, type TestServer } from './helpers/server.ts';

/** A stored booking that is no booking is answered as a Problem of its own (X_BOOKING_UNREADABLE), never a crash. */
const dir = mkdtempSync(join(tmpdir(), 'signalbox-stored-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function sell(server: TestServer): Promise<string> {
  const offers = await server.reseller('POST', '/v3/offers', { tripSpecifications: [trip()], anonymousPassengerSpecifications: passengers(30) });
  const booking = await server.reseller('POST', '/v3/booking', {
    externalRef: 'stored',
    offers: [{ offerId: offers.body.offers[0].offerId, passengerRefs: ['p1'] }],
    passengerSpecifications: [{ externalRef: 'p1', type: 'PERSON', detail: { firstName: 'Ada', lastName: 'Lind' } }],
    purchaser: { detail: { firstName: 'Ada', lastName: 'Lind', email: 'ada@example.se', phoneNumber: '+46701111111' } },
  });
  expect(booking.status).toBe(200);
  const id = booking.body.booking.id as string;
  expect((await server.reseller('POST', `/v3/bookings/${id}/fulfillment`)).status).toBe(202);
  return id;
}

/** The answers of a read and of an after-sales request on the unreadable booking. */
async function expectUnreadable(server: TestServer, id: string, field: string) {
  const read = await server.reseller('GET', `/v3/bookings/${id}`);
  expect(read.status).toBe(500);
  expect(read.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(read.body).toMatchObject({ code: 'X_BOOKING_UNREADABLE', status: 500 });
  expect(read.body.detail).toContain(id);
  expect(read.body.detail).toContain(field);
  expect(JSON.stringify(read.body)).not.toMatch(/\bat .*\.ts:\d+/);
  const refund = await server.reseller('POST', `/v3/bookings/${id}/refund-offers`, { fulfillmentIds: ['F1'] });
  expect(refund.status).toBe(500);
  expect(refund.body.code).toBe('X_BOOKING_UNREADABLE');
}

describe('a corrupt stored booking', () => {
  it('in SQLite, a row whose booking lacks a field or is not JSON at all is answered X_BOOKING_UNREADABLE', async () => {
    const path = join(dir, 'corrupt.db');
    const first = await testServer({ store: sqliteStore(path) });
    const lacking = await sell(first);
    const garbled = await sell(first);
    await first.app.close();

    const db = new DatabaseSync(path);
    const row = db.prepare('SELECT data FROM bookings WHERE id = ?').get(lacking) as { data: string | Uint8Array };
    expect(typeof row.data).toBe('string');
    const booking = JSON.parse(row.data as string) as Record<string, unknown>;
    delete booking['confirmationTimeLimit'];
    db.prepare('UPDATE bookings SET data = ? WHERE id = ?').run(JSON.stringify(booking), lacking);
    db.prepare('UPDATE bookings SET data = ? WHERE id = ?').run('{"id": "cut sh', garbled);
    db.close();

    const second = await testServer({ store: sqliteStore(path) });
    try {
      await expectUnreadable(second, lacking, '/confirmationTimeLimit');
      await expectUnreadable(second, garbled, '/');
      // Every other request goes on being served.
      expect((await second.reseller('POST', '/v3/offers', { tripSpecifications: [trip()], anonymousPassengerSpecifications: passengers(30) })).status).toBe(
        200,
      );
    } finally {
      await second.app.close();
    }
  });

  it('in SQLite, a booking another process rewrites in a state its machine does not have is answered X_BOOKING_UNREADABLE at once', async () => {
    const path = join(dir, 'rewritten.db');
    const server = await testServer({ store: sqliteStore(path) });
    try {
      const id = await sell(server);
      // Another handle on the file: the server's copy of what it wrote no longer serves, the file's row is read.
      const db = new DatabaseSync(path);
      const row = db.prepare('SELECT data FROM bookings WHERE id = ?').get(id) as { data: string };
      const corrupt = { ...(JSON.parse(row.data) as Record<string, unknown>), machine: { value: 'SHIPPED' } };
      db.prepare('UPDATE bookings SET data = ?, version = version + 1 WHERE id = ?').run(JSON.stringify(corrupt), id);
      db.close();
      await expectUnreadable(server, id, '/machine/value');
    } finally {
      await server.app.close();
    }
  });

  it('a readable booking is given back as it was read, keys in their order', async () => {
    const store = memoryStore();
    const server = await testServer({ store });
    try {
      const id = await sell(server);
      const { booking } = (await store.getBooking(id))!;
      const text = JSON.stringify(booking);
      const read = JSON.parse(text) as unknown;
      expect(decodeStoredBooking(id, read)).toBe(read);
      expect(JSON.stringify(decodeStoredBooking(id, read))).toBe(text);
      expect(() => decodeStoredBooking(id, { ...booking, currency: 'USD' })).toThrow(RuleViolation);
    } finally {
      await server.app.close();
    }
  });
});
