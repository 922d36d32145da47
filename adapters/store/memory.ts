import type { Booking } from '../../engine/index.ts';
import { trainKeysOfBooking } from '../../engine/seats/train.ts';
import { offerCache } from './offer-cache.ts';
import { StoreConflict, type Store, type VersionedBooking } from './store.ts';

/** In-memory store for tests and scenario runs. Values are copied in and out, as a real store would. */
export function memoryStore(): Store {
  const offers = offerCache();
  const bookings = new Map<string, { data: string; version: number }>();
  const fulfillments = new Map<string, string>();
  const trains = new Map<string, Set<string>>();
  const index = (b: Booking) => {
    b.fulfillments.forEach((f) => fulfillments.set(f.id, b.id));
    for (const key of trainKeysOfBooking(b)) {
      if (!trains.has(key)) trains.set(key, new Set());
      trains.get(key)!.add(b.id);
    }
  };
  return {
    kind: 'memory',
    async putOffers(list) { offers.put(list); },
    async getOffers(ids) { return offers.get(ids); },
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
    async bookingsOnTrain(key) {
      return [...(trains.get(key) ?? [])].map((id) => JSON.parse(bookings.get(id)!.data) as Booking);
    },
    async bookingOfFulfillment(id) {
      return fulfillments.get(id);
    },
    async reset() {
      offers.clear();
      bookings.clear();
      fulfillments.clear();
      trains.clear();
    },
    async close() {},
  };
}
