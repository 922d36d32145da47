import type { Booking, StoredOffer } from '../../engine/index.ts';

/**
 * Where offers and bookings live between requests. Every implementation keeps the same promises:
 * a write that returned is durable, and a booking update carries the version it was read at, so that
 * of two concurrent writers one loses (StoreConflict) instead of being merged (DESIGN "Stores").
 */
export interface VersionedBooking {
  booking: Booking;
  version: number;
}

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
   * The bookings that hold or held places on a train (`trainKey`: vehicle number / service date, engine
   * trainKeysOfBooking), kept up to date on insert and update. Whether each still holds is the engine's call.
   */
  bookingsOnTrain(trainKey: string): Promise<Booking[]>;
  /** The booking a fulfillment belongs to. */
  bookingOfFulfillment(fulfillmentId: string): Promise<string | undefined>;
  /** Empties the store (sandbox reset): bookings and offers go, nothing else. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export class StoreConflict extends Error {
  constructor(readonly bookingId: string) {
    super(`booking ${bookingId} was changed concurrently`);
    this.name = 'StoreConflict';
  }
}
