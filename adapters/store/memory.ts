import {
  passesOfBooking,
  passUsesOf,
  soldPassEntries,
  soldPassKeysOf,
  trainHoldingsOf,
  trainKeysOfBooking,
  type Booking,
  type PassUse,
  type RuleRelease,
  type SoldPass,
  type TrainHoldings,
} from '../../engine/index.ts';
import { jsonCopy } from './json-copy.ts';
import { offerCache } from './offer-cache.ts';
import { DraftConflict, ReleaseNameTaken, StoreConflict, type Store, type StoredDraft, type VersionedBooking } from './store.ts';

/**
 * In-memory store for tests and scenario runs. Values are copied in and out, as a real store would, and as JSON would
 * (jsonCopy: without writing the text and parsing it again).
 */
export function memoryStore(): Store {
  const offers = offerCache();
  const bookings = new Map<string, { booking: Booking; version: number }>();
  const fulfillments = new Map<string, string>();
  /** Per train, what each booking holds there (copied out like everything else). */
  const trains = new Map<string, Map<string, TrainHoldings>>();
  /** Per travel pass, what it pays for in each booking. */
  const passes = new Map<string, Map<string, PassUse[]>>();
  /** Per sold-pass key, the pass each booking sold. */
  const sold = new Map<string, Map<string, SoldPass>>();
  const releases = new Map<string, RuleRelease>();
  const drafts = new Map<string, StoredDraft>();
  const index = (b: Booking) => {
    for (const key of soldPassKeysOf(b)) sold.get(key)?.delete(b.id);
    for (const [key, pass] of soldPassEntries(b)) {
      if (!sold.has(key)) sold.set(key, new Map());
      sold.get(key)!.set(b.id, pass);
    }
    const uses = passUsesOf(b);
    for (const pass of passesOfBooking(b)) {
      const mine = uses.filter((u) => u.pass === pass);
      if (mine.length > 0) {
        if (!passes.has(pass)) passes.set(pass, new Map());
        passes.get(pass)!.set(b.id, mine);
      } else passes.get(pass)?.delete(b.id);
    }
    b.fulfillments.forEach((f) => fulfillments.set(f.id, b.id));
    const held = new Map(trainHoldingsOf(b).map((h) => [h.train, h]));
    for (const key of trainKeysOfBooking(b)) {
      const h = held.get(key);
      if (h) {
        if (!trains.has(key)) trains.set(key, new Map());
        trains.get(key)!.set(b.id, h);
      } else trains.get(key)?.delete(b.id);
    }
  };
  return {
    kind: 'memory',
    async putOffers(list) {
      offers.put(list);
    },
    async getOffers(ids) {
      return offers.get(ids);
    },
    async getBooking(id): Promise<VersionedBooking | undefined> {
      const b = bookings.get(id);
      // Only the engine's bookings are ever put here: a copy needs no check against the schema (the stores that read
      // rows written elsewhere, SQLite's file and PostgreSQL, do check).
      return b ? { booking: jsonCopy(b.booking), version: b.version } : undefined;
    },
    async insertBooking(booking) {
      if (bookings.has(booking.id)) throw new StoreConflict(booking.id);
      const copy = jsonCopy(booking);
      bookings.set(booking.id, { booking: copy, version: 1 });
      index(copy);
    },
    async updateBooking(booking, version) {
      const current = bookings.get(booking.id);
      if (!current || current.version !== version) throw new StoreConflict(booking.id);
      const copy = jsonCopy(booking);
      bookings.set(booking.id, { booking: copy, version: version + 1 });
      index(copy);
    },
    async holdingsOnTrain(key) {
      return [...(trains.get(key)?.values() ?? [])].map(jsonCopy);
    },
    async passUses(pass) {
      return [...(passes.get(pass)?.values() ?? [])].flatMap(jsonCopy);
    },
    async soldPasses(key) {
      return [...(sold.get(key)?.values() ?? [])].map(jsonCopy);
    },
    async bookingOfFulfillment(id) {
      return fulfillments.get(id);
    },
    async releases() {
      return [...releases.values()].map(jsonCopy);
    },
    async putRelease(release) {
      if (releases.has(release.name)) throw new ReleaseNameTaken(release.name);
      releases.set(release.name, jsonCopy(release));
    },
    async drafts() {
      return [...drafts.values()].map(jsonCopy);
    },
    async putDraft(draft) {
      if ((drafts.get(draft.id)?.version ?? 0) !== draft.version - 1) throw new DraftConflict(draft.id);
      drafts.set(draft.id, jsonCopy(draft));
    },
    async reset(owner) {
      if (owner !== undefined) {
        for (const { booking: b } of [...bookings.values()].filter(({ booking }) => booking.owner === owner)) {
          bookings.delete(b.id);
          b.fulfillments.forEach((f) => fulfillments.delete(f.id));
          for (const key of soldPassKeysOf(b)) sold.get(key)?.delete(b.id);
          for (const pass of passesOfBooking(b)) passes.get(pass)?.delete(b.id);
          for (const key of trainKeysOfBooking(b)) trains.get(key)?.delete(b.id);
        }
        return;
      }
      offers.clear();
      bookings.clear();
      fulfillments.clear();
      trains.clear();
      passes.clear();
      sold.clear();
    },
    async close() {},
  };
}
