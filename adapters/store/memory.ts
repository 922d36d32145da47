import type { Booking, StoredOffer } from '../../engine/index.ts';
import { StoreConflict, type Store, type VersionedBooking } from './store.ts';

/** In-memory store for tests and scenario runs. Values are copied in and out, as a real store would. */
export function memoryStore(): Store {
  const offers = new Map<string, string>();
  const bookings = new Map<string, { data: string; version: number }>();
  const fulfillments = new Map<string, string>();
  const index = (b: Booking) => b.fulfillments.forEach((f) => fulfillments.set(f.id, b.id));
  return {
    kind: 'memory',
    async putOffers(list: readonly StoredOffer[]) {
      for (const o of list) offers.set(o.offerId, JSON.stringify(o));
    },
    async getOffers(ids) {
      const out = new Map<string, StoredOffer>();
      for (const id of ids) {
        const o = offers.get(id);
        if (o) out.set(id, JSON.parse(o) as StoredOffer);
      }
      return out;
    },
    async getBooking(id): Promise<VersionedBooking | undefined> {
      const b = bookings.get(id);
      return b ? { booking: JSON.parse(b.data) as Booking, version: b.version } : undefined;
    },
    async insertBooking(booking) {
      if (bookings.has(booking.id)) throw new StoreConflict(booking.id);
      bookings.set(booking.id, { data: JSON.stringify(booking), version: 1 });
      index(booking);
    },
    async updateBooking(booking, version) {
      const current = bookings.get(booking.id);
      if (!current || current.version !== version) throw new StoreConflict(booking.id);
      bookings.set(booking.id, { data: JSON.stringify(booking), version: version + 1 });
      index(booking);
    },
    async bookingOfFulfillment(id) {
      return fulfillments.get(id);
    },
    async reset() {
      offers.clear();
      bookings.clear();
      fulfillments.clear();
    },
    async close() {},
  };
}
