import type { Booking, PassUse, RuleRelease, SoldPass, StoredOffer, TrainHoldings } from '../../engine/index.ts';

/**
 * How long every store keeps a quote: far beyond its 30 minutes of bookability (CONTRACT §4a), so a booking
 * request never misses an offer it may still book; then it is swept.
 */
export const OFFERS_KEPT_MS = 4 * 60 * 60 * 1000;

export interface VersionedBooking {
  booking: Booking;
  version: number;
}

/** What the holder of a train lock is told, and what it may leave with the lock when it lets go (Store.lockTrains). */
export interface TrainLock {
  /** Places that bookings of other processes took on these trains and have not committed yet: taken all the same. */
  readonly inFlightElsewhere: readonly TrainHoldings[];
  /**
   * Where the lock can tell the next holder what is in flight (SQLite under `serve --workers N`, whose primary holds
   * the locks): `work` may let the lock go before a booking's write settles, having passed on the places it takes
   * (the booking's index entries) and its write, whose settling the lock then reports. Absent (PostgreSQL, where
   * servers share no lock keeper): what `work` writes is committed before it returns.
   */
  passOn?(entries: readonly TrainHoldings[], written: Promise<void>): void;
}

/** A lock with nothing in flight elsewhere: one process alone, or a store that commits under the lock. */
export const NOTHING_IN_FLIGHT: TrainLock = { inFlightElsewhere: [] };

/**
 * Where offers and bookings live between requests. Every implementation keeps the same promises:
 * a write that returned is durable, and a booking update carries the version it was read at, so that
 * of two concurrent writers one loses (StoreConflict) instead of being merged (DESIGN "Stores").
 */
export interface Store {
  readonly kind: string;
  putOffers(offers: readonly StoredOffer[]): Promise<void>;
  getOffers(ids: readonly string[]): Promise<Map<string, StoredOffer>>;
  getBooking(id: string): Promise<VersionedBooking | undefined>;
  /** Stores a new booking at version 1. */
  insertBooking(booking: Booking): Promise<void>;
  /** Replaces a booking read at `version`; throws StoreConflict when someone wrote in between. */
  updateBooking(booking: Booking, version: number): Promise<void>;
  /**
   * What the bookings on a train (`trainKey`: vehicle number / service date, engine trainKeysOfBooking) hold
   * there: the engine's `trainHoldingsOf` of each booking, kept up to date on insert and update (a booking that
   * gave every place on the train back has no entry). Whether a provisional booking's entry still holds at a
   * given instant is the engine's call (`until`).
   */
  holdingsOnTrain(trainKey: string): Promise<TrainHoldings[]>;
  /**
   * What the travel pass (card number) pays for in the bookings that use it: the engine's `passUsesOf(booking)`,
   * kept up to date on insert and update like the train index (spec §2.7 rule 8: one journey at a time).
   */
  passUses(pass: string): Promise<PassUse[]>;
  /**
   * The travel passes the bookings sold (spec §4.2 rule 6), by index key (engine `soldPassKey`: a pass number or a
   * holder): the engine's `soldPassEntries(booking)`, kept up to date on insert and update like the pass uses
   * (a refunded pass drops out).
   */
  soldPasses(key: string): Promise<SoldPass[]>;
  /**
   * Runs `work` while no other process sharing this store decides places on these trains (a store several
   * processes write: PostgreSQL, SQLite under `serve --workers N`). Absent where one process owns the store: the
   * service's in-process lock is enough there. What `work` writes must be committed before it returns, unless it
   * passes its places on (`TrainLock.passOn`).
   */
  lockTrains?<T>(trainKeys: readonly string[], work: (lock: TrainLock) => Promise<T>): Promise<T>;
  /**
   * The rule releases (docs/releases.md), in no particular order. Every process sharing the store sees the same list;
   * a reset keeps them, as it keeps the rules.
   */
  releases(): Promise<RuleRelease[]>;
  /** Stores a new release; one whose name is taken is refused (ReleaseNameTaken): a release never changes. */
  putRelease(release: RuleRelease): Promise<void>;
  /**
   * The drafts of rule releases under review and decided (docs/releases.md, "Four eyes"), in no particular order, as
   * the studio wrote them: the studio's schema reads `data`. A reset keeps them, as it keeps the releases.
   */
  drafts(): Promise<StoredDraft[]>;
  /**
   * Stores a draft at `version`: 1 for a new one (refused with DraftConflict if the id is taken), else the next of
   * the version read (refused with DraftConflict if another reviewer wrote it in between).
   */
  putDraft(draft: StoredDraft): Promise<void>;
  /** The booking a fulfillment belongs to. */
  bookingOfFulfillment(fulfillmentId: string): Promise<string | undefined>;
  /**
   * Empties the store (sandbox reset): bookings and offers go, nothing else. With `owner`, only that client's
   * bookings go, with everything the indexes keep of them (a client's reset on a shared sandbox); offers stay.
   */
  reset(owner?: string): Promise<void>;
  close(): Promise<void>;
}

/** A draft as a store keeps it: its id, the version of its last write, and what the studio wrote. */
export interface StoredDraft {
  id: string;
  version: number;
  data: unknown;
}

export class DraftConflict extends Error {
  readonly draft: string;
  constructor(draft: string) {
    super(`draft ${draft} was written concurrently`);
    this.draft = draft;
    this.name = 'DraftConflict';
  }
}

export class ReleaseNameTaken extends Error {
  readonly release: string;
  constructor(release: string) {
    super(`a release named ${release} exists already`);
    this.release = release;
    this.name = 'ReleaseNameTaken';
  }
}

export class StoreConflict extends Error {
  readonly bookingId: string;
  constructor(bookingId: string) {
    super(`booking ${bookingId} was changed concurrently`);
    this.bookingId = bookingId;
    this.name = 'StoreConflict';
  }
}
