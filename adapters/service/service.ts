import {
  phrase,
  RuleViolation,
  ridesTaken,
  soldPassKey,
  trainHoldingsOf,
  travelPassesOfOffers,
  trainKeysOfBooking,
  trainKeysOfTrip,
  type AvailabilityKind,
  type AvailabilityResponses,
  type Booking,
  type BookingResponse,
  type Call,
  type Changed,
  type Decided,
  type Engine,
  type ExchangeOfferCollectionResponse,
  type ExchangeOperationResponse,
  type FulfillmentResponse,
  type IdSource,
  type OfferCollectionResponse,
  type HeldPasses,
  type Requestor,
  type SoldPass,
  type StoredOffer,
  type TrainHoldings,
  type Phrase,
} from '../../engine/index.ts';
import type { CustomerEntry } from '../../engine/rules/index.ts';
import type { Clocks } from './clock.ts';
import { releaseBook } from './releases.ts';
import { pendingFulfillments, placesTakenBySomebodyElse, withPriceChanged, type InjectedFaults } from './faults.ts';
import { NOTHING_IN_FLIGHT, StoreConflict, type Store, type TrainLock } from '../store/store.ts';

const RETRIES = 3;

/**
 * Runs `work` while holding every named train, one caller at a time per train, so two bookings in this
 * process never take the same place (read what is held, decide, write). Processes sharing a store are
 * serialised by the store's own train lock on top (`Store.lockTrains`, PostgreSQL advisory locks).
 */
function trainLocks(store: Store) {
  const tails = new Map<string, Promise<void>>();
  return async function withTrains<T>(keys: readonly string[], work: (lock: TrainLock) => Promise<T>): Promise<T> {
    const sorted = [...new Set(keys)].sort();
    let release!: () => void;
    const done = new Promise<void>((r) => {
      release = r;
    });
    const before = sorted.map((k) => tails.get(k) ?? Promise.resolve());
    const mine = Promise.all(before).then(() => done);
    sorted.forEach((k) => tails.set(k, mine));
    await Promise.all(before);
    try {
      return await (store.lockTrains ? store.lockTrains(sorted, work) : work(NOTHING_IN_FLIGHT));
    } finally {
      release();
      sorted.forEach((k) => {
        if (tails.get(k) === mine) tails.delete(k);
      });
    }
  };
}

/**
 * Places of bookings written but not yet committed (a store may commit writes in batches, adapters/store/sqlite.ts).
 * They count as taken meanwhile; once the write settles the store answers for them (an entry seen twice, here and
 * in the store, is counted once by the engine).
 */
function placesInFlight() {
  const byTrain = new Map<string, Map<string, TrainHoldings>>();
  return {
    /** Holds a booking's index entries (engine `trainHoldingsOf`) until its write settles. */
    hold(entries: readonly TrainHoldings[], written: Promise<void>): Promise<void> {
      for (const h of entries) {
        if (!byTrain.has(h.train)) byTrain.set(h.train, new Map());
        byTrain.get(h.train)!.set(h.bookingId, h);
      }
      return written.finally(() => {
        for (const h of entries) {
          const onTrain = byTrain.get(h.train);
          onTrain?.delete(h.bookingId);
          if (onTrain?.size === 0) byTrain.delete(h.train);
        }
      });
    },
    on: (keys: readonly string[]): TrainHoldings[] => keys.flatMap((k) => [...(byTrain.get(k)?.values() ?? [])]),
  };
}

/** The travel passes that pay for the offers' admissions. */
const passesOfOffers = (offers: ReadonlyMap<string, StoredOffer>) => [
  ...new Set([...offers.values()].flatMap((o) => o.admissions.flatMap((a) => a.travelPasses ?? []))),
];
/** The moments of a booking a sandbox client may travel to (its time limit, its departure, its cleanup window's end). */
export const BOOKING_MOMENTS = ['CONFIRMATION_TIME_LIMIT', 'DEPARTURE', 'CLEANUP_WINDOW_END'] as const;
type BookingMoment = (typeof BOOKING_MOMENTS)[number];
/** Bookings that use one pass are decided one at a time, like bookings on one train. */
const passLock = (pass: string) => `pass:${pass}`;

/** What the service decided, and the rule release that decided it (absent: the rules the server started with). */
export type Answered<T> = Decided<T> & { release?: string };
/** The release an engine is, to name in an answer. */
const releaseOf = (engine: Engine): { release?: string } => (engine.release === undefined ? {} : { release: engine.release });

/** The application service, as createService makes it: go to a method's definition to read what it does. */
export type Service = ReturnType<typeof createService>;

/**
 * The imperative shell around the engine. Every command has two phases: the engine reads and validates the
 * request, which says what to load (the body is never looked into before); the store gives that; the engine
 * decides on it; what it decided is stored. Booking updates are read-modify-write with the version read; a lost
 * race is retried from a fresh read, never merged.
 */
export function createService(initial: Engine, store: Store, clocks: Clocks, ids: IdSource) {
  // Each call reads the engine once and uses it throughout, so a reload never mixes two rule sets in one call.
  let workingCopy = initial;
  /**
   * Which rules decide (docs/releases.md): a new offer, the release in force at the call's instant; everything after
   * it, the release its offer was priced with (`named`). Without releases, the working copy.
   */
  const releases = releaseBook(store, () => workingCopy);
  const call = (requestor: Requestor, soldPasses: readonly SoldPass[] = []): Call => ({ requestor, now: clocks.of(requestor.client).now(), ids, soldPasses });
  /** The passes sold through the API among these card numbers (spec §4.2 rule 6: passes like those of customers.yaml). */
  const sold = async (numbers: readonly string[]) => (await Promise.all(numbers.map((n) => store.soldPasses(soldPassKey.number(n))))).flat();
  const notFound = (resource: Phrase, id: string) => new RuleViolation('RESOURCE_NOT_FOUND', { resource, id });
  const withTrains = trainLocks(store);
  const inFlight = placesInFlight();
  /** What these travel passes pay for in stored bookings (spec §2.7 rule 8: one journey at a time). */
  const passUses = async (passes: readonly string[]) => (await Promise.all(passes.map((p) => store.passUses(p)))).flat();
  /** What the bookings on these trains hold (engine/seats: whether it is still taken is decided there). */
  const onTrains = async (keys: readonly string[]) => [...(await Promise.all(keys.map((k) => store.holdingsOnTrain(k)))).flat(), ...inFlight.on(keys)];
  /** The same under a train lock: with what other processes' bookings on them have in flight. */
  const heldOnTrains = async (keys: readonly string[], lock: TrainLock) => [...(await onTrains(keys)), ...lock.inFlightElsewhere];
  const pending = pendingFulfillments();

  async function owned(client: string, id: string) {
    const found = await store.getBooking(id);
    // CONTRACT §3: another client's booking answers as if it did not exist.
    if (!found || found.booking.owner !== client) throw notFound(phrase('resource-booking'), id);
    return found;
  }

  /**
   * A change of a stored booking: read it with its version, let the engine of its release decide (`decide` gets the
   * booking, the call and that engine), store what it decided unless it is the booking read, and answer what it answered. A lost race is
   * retried from a fresh read.
   */
  async function change<R>(
    requestor: Requestor,
    id: string,
    decide: (b: Booking, c: Call, engine: Engine) => Decided<Changed<R>>,
    soldPasses: readonly SoldPass[] = [],
  ): Promise<Answered<R>> {
    for (let attempt = 1; ; attempt++) {
      const { booking, version } = await owned(requestor.client, id);
      const engine = await releases.named(booking.release);
      const decided = decide(booking, call(requestor, soldPasses), engine);
      const answer = { value: decided.value.response, traces: decided.traces, ...releaseOf(engine) };
      if (decided.value.booking === booking) return answer;
      try {
        await store.updateBooking(decided.value.booking, version);
        return answer;
      } catch (e) {
        if (!(e instanceof StoreConflict) || attempt >= RETRIES) {
          if (e instanceof StoreConflict) throw new RuleViolation('X_STORE_CONFLICT', {});
          throw e;
        }
      }
    }
  }
  /** A change whose answer is the changed booking itself. */
  const update = (requestor: Requestor, id: string, decide: (b: Booking, c: Call, engine: Engine) => Decided<Booking>, soldPasses: readonly SoldPass[] = []) =>
    change(
      requestor,
      id,
      (b, c, engine) => {
        const decided = decide(b, c, engine);
        return { value: { booking: decided.value, response: decided.value }, traces: decided.traces };
      },
      soldPasses,
    );

  /** POST /bookings/{id}/refund-offers (spec §4.1 rule 6). */
  const createRefundOffer = (requestor: Requestor, bookingId: string, body: unknown) =>
    change(requestor, bookingId, (b, c, engine) => engine.createRefundOffer(c, b, body));
  /** PATCH /bookings/{id}/refund-offers/{refundOfferId}: the refund confirmed, stored with the booking it cancels. */
  const confirmRefundOffer = (requestor: Requestor, bookingId: string, refundOfferId: string, body: unknown) =>
    change(requestor, bookingId, (b, c, engine) => engine.confirmRefundOffer(c, b, refundOfferId, body));

  return {
    /** The rules the server started with (the working copy); `signalbox serve --watch` swaps them when they change. */
    get engine(): Engine {
      return workingCopy;
    },
    setEngine(next: Engine): void {
      workingCopy = next;
    },
    /** The rule releases in the store (adapters/service/releases.ts): read at start, then every poll. */
    releases,
    /** The engine of the release a stored offer or booking was priced with: the one that renders it too. */
    engineOf: (record: { release?: string }): Promise<Engine> => releases.named(record.release),
    store,
    /** The server's clock (a sandbox's: the one its clients follow until they move their own). */
    clock: clocks.server,
    /** Each client's clock on a sandbox (adapters/service/clock.ts): a request is decided at its client's instant. */
    clocks,
    /** POST /offers: read, load what the request names (the bookings on its trains, its travel passes), decide, store the offers. */
    async offers(requestor: Requestor, body: unknown): Promise<Answered<OfferCollectionResponse>> {
      const asked = call(requestor);
      const engine = releases.at(asked.now);
      const read = engine.readOfferRequest(asked, body);
      // Capacity drives offers: the bookings on the requested trains say which places are taken.
      const { trains, travelPasses } = read.value;
      const decided = engine.decideOffers({ ...asked, soldPasses: await sold(travelPasses) }, read, await onTrains(trains), await passUses(travelPasses));
      await store.putOffers(decided.value.offers);
      return { value: decided.value.response, traces: decided.traces, ...releaseOf(engine) };
    },
    /** POST /booking. `faults`: a sandbox's faults on demand (adapters/service/faults.ts), here `placeTaken`; likewise for patchBooking and confirm. */
    async book(requestor: Requestor, body: unknown, faults: InjectedFaults = {}): Promise<Answered<BookingResponse>> {
      const { request, offerIds } = workingCopy.readBookingRequest(body);
      const offers = await store.getOffers(offerIds);
      // The booking keeps the release its (first) offer was priced with; each offer's parts keep their prices as offered.
      const engine = await releases.named([...offers.values()][0]?.release);
      const keys = [...offers.values()].flatMap((o) => trainKeysOfTrip(o.trip));
      const passes = passesOfOffers(offers);
      // Sandbox fault place-taken: somebody else holds the places asked for, just before allocation (spec §2.10 rule 3).
      const taken = () => {
        if (!faults.placeTaken) return [];
        const selections = [...request.offers.flatMap((o) => o.placeSelections ?? []), ...(request.placeSelections ?? [])];
        const offer = [...offers.values()][0];
        return placesTakenBySomebodyElse(selections, (id) => offer?.trip.legs.find((l) => l.id === offer.reservations.find((r) => r.id === id)?.legId));
      };
      const { decided, stored } = await withTrains([...keys, ...passes.map(passLock)], async (lock) => {
        const decided = engine.book(
          call(requestor, await sold(travelPassesOfOffers(offers.values()))),
          request,
          offers,
          [...(await heldOnTrains(keys, lock)), ...taken()],
          await passUses(passes),
        );
        // The next booking on these trains may decide as soon as this one is queued for the store: its places count
        // as taken until the store has them (or has refused them), in this process and, where the lock passes them
        // on, in the others. Where it cannot (PostgreSQL), other processes see them only once committed, so the
        // write is awaited before the lock goes; so it is when a travel pass pays (rare), whose uses have no such
        // overlay.
        const entries = trainHoldingsOf(decided.value.booking);
        const stored = inFlight.hold(entries, store.insertBooking(decided.value.booking));
        if (passes.length > 0 || (store.lockTrains && !lock.passOn)) await stored;
        else lock.passOn?.(entries, stored);
        return { decided, stored };
      });
      await stored;
      return { value: decided.value.response, traces: decided.traces, ...releaseOf(engine) };
    },
    /** GET /bookings/{id}: the client's booking as it stands at its clock (engine.asOf). */
    async booking(requestor: Requestor, id: string): Promise<Booking> {
      const { booking } = await owned(requestor.client, id);
      return (await releases.named(booking.release)).asOf(call(requestor), booking);
    },
    /** POST /bookings/{id}/fulfillment: the confirmed booking, stored. */
    async confirm(requestor: Requestor, id: string, faults: InjectedFaults = {}): Promise<Answered<Booking>> {
      let priceChanged: { before: Booking; after: Booking } | undefined;
      const confirmed = await update(requestor, id, (b, c, engine) => {
        const decided = engine.confirm(c, b);
        // Sandbox fault price-changed: where the confirmation would go through, the price moves instead and the
        // booking stays provisional at the new price (X_PRICE_CHANGED).
        if (!faults.priceChanged || decided.value === b || b.confirmedOn !== undefined) return decided;
        priceChanged = { before: b, after: withPriceChanged(b, faults.priceChanged.percent) };
        return { value: priceChanged.after, traces: decided.traces };
      });
      if (priceChanged) {
        const { before, after } = priceChanged;
        const [from, to] = [before.provisionalPrice.amount, after.provisionalPrice.amount];
        throw new RuleViolation('X_PRICE_CHANGED', { id, before: from, after: to, currency: after.currency }, [], confirmed.traces);
      }
      if (faults.fulfillmentPending) pending.hold(id, new Date(clocks.of(requestor.client).now().getTime() + faults.fulfillmentPending.seconds * 1000));
      if (!faults.technicalFailure) return confirmed;
      // Sandbox fault technical-failure: the operator rolls the confirmed booking back as spec §4.1 rule 6 lets it,
      // a refund of every issued ticket under overrule code TECHNICAL_FAILURE, in full (rules/refund-fees.yaml).
      const fulfillmentIds = confirmed.value.fulfillments.filter((f) => f.status === 'FULFILLED').map((f) => f.id);
      if (fulfillmentIds.length === 0) return confirmed;
      const offered = await createRefundOffer(requestor, id, { fulfillmentIds, overruleCode: 'TECHNICAL_FAILURE' });
      await confirmRefundOffer(requestor, id, offered.value.refundOffers[0]!.id, { status: 'CONFIRMED' });
      return { ...confirmed, value: (await owned(requestor.client, id)).booking };
    },
    /** Sandbox fault fulfillment-pending: whether the booking's tickets are still being issued (sandbox clock). */
    fulfillmentPending: (requestor: Requestor, bookingId: string): boolean => pending.isPending(bookingId, clocks.of(requestor.client).now()),
    /** PATCH /bookings/{id}/passengers/{passengerId}. */
    async patchPassenger(requestor: Requestor, id: string, passengerId: string, body: unknown): Promise<Answered<Booking>> {
      // A patched age reprices the booking (spec §2.7 rule 4): its passengers' bought passes must be known then too.
      const { booking } = await owned(requestor.client, id);
      const soldPasses = await sold(travelPassesOfOffers([{ passengers: booking.passengers.map((p) => p.pricing) }]));
      return update(requestor, id, (b, c, engine) => engine.patchPassenger(c, b, passengerId, body), soldPasses);
    },
    /** PATCH /bookings/{id}/purchaser. */
    patchPurchaser: (requestor: Requestor, id: string, body: unknown): Promise<Answered<Booking>> =>
      update(requestor, id, (b, c, engine) => engine.patchPurchaser(c, b, body)),
    /** PATCH /bookings/{id}: place selections are decided against what the booking's trains hold. */
    async patchBooking(requestor: Requestor, id: string, body: unknown, faults: InjectedFaults = {}): Promise<Answered<Booking>> {
      // An unknown booking is not found before its patch is read.
      const { booking } = await owned(requestor.client, id);
      const { patch, placeSelections } = workingCopy.readBookingPatch(body);
      if (!placeSelections) return update(requestor, id, (b, c, engine) => engine.patchBooking(c, b, patch));
      // Spec §2.10 rule 3: place selections are decided against what the booking's trains hold.
      const keys = trainKeysOfBooking(booking);
      return withTrains(keys, async (lock) => {
        // Sandbox fault place-taken: somebody else holds the places asked for (spec §2.10 rule 3: 86035 in a patch).
        const taken = faults.placeTaken
          ? placesTakenBySomebodyElse(patch.placeSelections ?? [], (rid) =>
              booking.trip.legs.find((l) => l.id === booking.reservations.find((r) => r.id === rid)?.legId),
            )
          : [];
        const bookings = [...(await heldOnTrains(keys, lock)), ...taken];
        return update(requestor, id, (b, c, engine) => engine.patchBooking(c, b, patch, bookings));
      });
    },
    /** POST /bookings/{id}/exchange-offers: the exchange offers stored. */
    async exchangeOffers(requestor: Requestor, id: string, body: unknown): Promise<Answered<ExchangeOfferCollectionResponse>> {
      const { booking } = await owned(requestor.client, id);
      // An exchange is a new sale: its offers (and its fee) are decided by the release in force now.
      const asked = call(requestor);
      const engine = releases.at(asked.now);
      const { request, trains, travelPasses } = engine.readExchangeOfferRequest(body);
      const decided = engine.exchangeOffers(
        { ...asked, soldPasses: await sold(travelPasses) },
        booking,
        request,
        await onTrains(trains),
        await passUses(travelPasses),
      );
      await store.putOffers(decided.value.offers);
      return { value: decided.value.response, traces: decided.traces, ...releaseOf(engine) };
    },
    /** POST /bookings/{id}/exchange-operations: the booking with the pre-booked exchange, stored. */
    async exchangeOperation(requestor: Requestor, id: string, body: unknown): Promise<Answered<ExchangeOperationResponse>> {
      await owned(requestor.client, id); // an unknown booking is not found before its request is read
      const { request, offerIds } = workingCopy.readExchangeOperationRequest(body);
      const offers = await store.getOffers(offerIds);
      // Spec §2.10: the new trip's reservations take places, decided against what its trains hold.
      const keys = [...offers.values()].flatMap((o) => trainKeysOfTrip(o.trip));
      const passes = passesOfOffers(offers);
      return withTrains([...keys, ...passes.map(passLock)], async (lock) => {
        const held = await heldOnTrains(keys, lock);
        const uses = await passUses(passes);
        const soldPasses = await sold(travelPassesOfOffers(offers.values()));
        return change(requestor, id, (b, c, engine) => engine.exchangeOperation(c, b, request, offers, held, uses), soldPasses);
      });
    },
    createRefundOffer,
    /** GET /bookings/{id}/refund-offers/{refundOfferId}. */
    readRefundOffer: (requestor: Requestor, bookingId: string, refundOfferId: string) =>
      change(requestor, bookingId, (b, c, engine) => engine.readRefundOffer(c, b, refundOfferId)),
    confirmRefundOffer,
    /** DELETE /bookings/{id}/refund-offers/{refundOfferId}. */
    deleteRefundOffer: (requestor: Requestor, bookingId: string, refundOfferId: string) =>
      update(requestor, bookingId, (b, c, engine) => engine.deleteRefundOffer(c, b, refundOfferId)),
    /** POST /bookings/{id}/release-offers (spec §4.1 rule 5). */
    createReleaseOffer: (requestor: Requestor, bookingId: string, body: unknown) =>
      change(requestor, bookingId, (b, c, engine) => engine.createReleaseOffer(c, b, body)),
    /** GET /bookings/{id}/release-offers/{releaseOfferId}. */
    readReleaseOffer: (requestor: Requestor, bookingId: string, releaseOfferId: string) =>
      change(requestor, bookingId, (b, c, engine) => engine.readReleaseOffer(c, b, releaseOfferId)),
    /** PATCH /bookings/{id}/release-offers/{releaseOfferId}. */
    confirmReleaseOffer: (requestor: Requestor, bookingId: string, releaseOfferId: string, body: unknown) =>
      change(requestor, bookingId, (b, c, engine) => engine.confirmReleaseOffer(c, b, releaseOfferId, body)),
    /** DELETE /bookings/{id}/release-offers/{releaseOfferId}. */
    deleteReleaseOffer: (requestor: Requestor, bookingId: string, releaseOfferId: string) =>
      update(requestor, bookingId, (b, c, engine) => engine.deleteReleaseOffer(c, b, releaseOfferId)),
    /** POST /bookings/{id}/on-hold-offer (spec §4.1 rule 11). */
    createOnHoldOffer: (requestor: Requestor, bookingId: string, body: unknown) =>
      change(requestor, bookingId, (b, c, engine) => engine.createOnHoldOffer(c, b, body)),
    /** PATCH /bookings/{id}/on-hold-offer/{onHoldOfferId}. */
    confirmOnHoldOffer: (requestor: Requestor, bookingId: string, onHoldOfferId: string) =>
      change(requestor, bookingId, (b, c, engine) => engine.confirmOnHoldOffer(c, b, onHoldOfferId)),
    /** DELETE /bookings/{id}/on-hold-offer/{onHoldOfferId}. */
    deleteOnHoldOffer: (requestor: Requestor, bookingId: string, onHoldOfferId: string) =>
      update(requestor, bookingId, (b, c, engine) => engine.deleteOnHoldOffer(c, b, onHoldOfferId)),
    /** GET /bookings/{id}/exchange-operations/{exchangeOperationId}. */
    readExchangeOperation: (requestor: Requestor, bookingId: string, exchangeOperationId: string) =>
      change(requestor, bookingId, (b, c, engine) => engine.readExchangeOperation(c, b, exchangeOperationId)),
    /** PATCH /bookings/{id}/exchange-operations/{exchangeOperationId}. */
    patchExchangeOperation: (requestor: Requestor, bookingId: string, exchangeOperationId: string, body: unknown) =>
      change(requestor, bookingId, (b, c, engine) => engine.patchExchangeOperation(c, b, exchangeOperationId, body)),
    /** DELETE /bookings/{id}/exchange-operations/{exchangeOperationId}. */
    deleteExchangeOperation: (requestor: Requestor, bookingId: string, exchangeOperationId: string) =>
      update(requestor, bookingId, (b, c, engine) => engine.deleteExchangeOperation(c, b, exchangeOperationId)),
    /** POST /bookings/{id}/cleanup (spec §4.1 rule 12); `osdmVersion` as osdmVersionNumber gives it. */
    cleanupBooking: (requestor: Requestor, bookingId: string, body: unknown, osdmVersion: number) =>
      update(requestor, bookingId, (b, c, engine) => engine.cleanupBooking(c, b, body, osdmVersion)),
    /**
     * Customer API: what the store knows of a customer's passes — those bought through the API (spec §4.2 rule 6) and
     * the rides each multi-ride pass has given on confirmed journeys (spec §2.7 rule 8).
     */
    async heldPasses(customer: CustomerEntry): Promise<HeldPasses> {
      const sold = await store.soldPasses(soldPassKey.holder(customer.email));
      const multiRide = [...customer.travelPasses, ...sold].filter((p) => p.ridesLeft !== undefined).map((p) => p.cardNumber);
      // Confirmed journeys only: a provisional booking holds its ride without having used it.
      const confirmed = (await passUses(multiRide)).filter((u) => u.until === undefined);
      return { sold, ridesGiven: ridesTaken(confirmed, clocks.server.now()) };
    },
    /** GET /availabilities, …/preferences, …/place-map (spec §2.11, §4.1 rule 3). */
    async availability<K extends AvailabilityKind>(requestor: Requestor, kind: K, query: unknown): Promise<Answered<AvailabilityResponses[K]>> {
      const q = workingCopy.readAvailabilityQuery(query);
      const found =
        q.contextType === 'OFFER'
          ? { offer: (await store.getOffers([q.contextId])).get(q.contextId) }
          : { booking: (await store.getBooking(q.contextId))?.booking };
      const trip = found.offer?.trip ?? found.booking?.trip;
      const bookings = trip ? await onTrains(trainKeysOfTrip(trip)) : [];
      const engine = await releases.named(found.offer?.release ?? found.booking?.release);
      return { ...engine.availability(call(requestor), kind, q, found, bookings), ...releaseOf(engine) };
    },
    /**
     * Sandbox time travel: the instant of one of a client's bookings — its confirmation time limit, its first departure,
     * or the end of its cleanup window as rules/cleanup.yaml words it.
     */
    async momentOf(client: string, id: string, moment: BookingMoment): Promise<string> {
      const { booking } = await owned(client, id);
      if (moment === 'CONFIRMATION_TIME_LIMIT') return booking.confirmationTimeLimit;
      if (moment === 'DEPARTURE') return booking.trip.legs[0]?.departure ?? booking.pass?.validFrom ?? booking.confirmationTimeLimit;
      const end = (await releases.named(booking.release)).cleanupWindowEnd(booking);
      if (!end) throw new RuleViolation('X_BOOKING_STATE', { operation: phrase('operation-time-travel-cleanup'), state: booking.machine.value });
      return end;
    },
    /** Sandbox (spec §4.1 rule 8): the operator gives any booking the after-sales override profile, or takes it away. */
    async setAfterSalesOverride(id: string, on: boolean): Promise<void> {
      for (let attempt = 1; ; attempt++) {
        const found = await store.getBooking(id);
        if (!found) throw notFound(phrase('resource-booking'), id);
        try {
          const engine = await releases.named(found.booking.release);
          await store.updateBooking(engine.setAfterSalesOverride(found.booking, on), found.version);
          return;
        } catch (e) {
          if (!(e instanceof StoreConflict) || attempt >= RETRIES) throw e instanceof StoreConflict ? new RuleViolation('X_STORE_CONFLICT', {}) : e;
        }
      }
    },
    /** GET /fulfillments/{id}: the FulfillmentResponse of one of the client's tickets. */
    async fulfillment(requestor: Requestor, id: string): Promise<{ value: FulfillmentResponse; release?: string }> {
      const bookingId = await store.bookingOfFulfillment(id);
      if (!bookingId) throw notFound(phrase('resource-fulfillment'), id);
      const found = await store.getBooking(bookingId);
      if (!found || found.booking.owner !== requestor.client) throw notFound(phrase('resource-fulfillment'), id);
      const engine = await releases.named(found.booking.release);
      return { value: engine.renderFulfillment(found.booking, id, requestor.language)!, ...releaseOf(engine) };
    },
  };
}
