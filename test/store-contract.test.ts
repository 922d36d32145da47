import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  passUsesOf,
  soldPassEntries,
  soldPassKey,
  trainHoldingsOf,
  trainKeysOfBooking,
  type Booking,
  type Requestor,
  type RuleRelease,
  type StoredOffer,
} from '../engine/index.ts';
import { randomIds } from '../adapters/service/ids.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { postgresStore } from '../adapters/store/postgres.ts';
import { sqliteStore } from '../adapters/store/sqlite.ts';
import { DraftConflict, ReleaseNameTaken, StoreConflict, type Store } from '../adapters/store/store.ts';
import { reportSkip, startPostgres, type PostgresServer } from './helpers/postgres.ts';
import { engine, passengers, trip } from './helpers/server.ts';

/**
 * The promises of adapters/store/store.ts, checked once and run against every store, so that the memory
 * store the scenarios use behaves like the SQLite and PostgreSQL stores production uses.
 * The PostgreSQL cases skip (with a printed reason) where no PostgreSQL can be started.
 */

interface Subject {
  name: string;
  /** Why this store cannot be tested here; the suite is skipped then. */
  skip?: string | undefined;
  setup?(): Promise<void>;
  teardown?(): Promise<void>;
  /** A fresh, empty store. */
  open(): Promise<Store>;
  /** Another handle on the storage of the last `open()`, as a second server process would have one. */
  openAgain?(): Promise<Store>;
  /** Offers are seen by another handle on the same storage (PostgreSQL, and SQLite's file). */
  sharesOffers?: boolean;
}

const dir = mkdtempSync(join(tmpdir(), 'signalbox-contract-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let sqlitePath = '';
let sqliteFiles = 0;
let postgres: PostgresServer | undefined;

const subjects: Subject[] = [
  { name: 'memory', open: async () => memoryStore() },
  {
    name: 'SQLite',
    open: async () => sqliteStore((sqlitePath = join(dir, `contract-${++sqliteFiles}.db`))),
    openAgain: async () => sqliteStore(sqlitePath),
    sharesOffers: true,
  },
  {
    name: 'PostgreSQL',
    skip: reportSkip('the PostgreSQL store contract'),
    setup: async () => {
      postgres = await startPostgres();
    },
    teardown: async () => {
      await postgres?.stop();
    },
    // One database for the suite; tests run one after another, so emptying it gives each a fresh store.
    open: async () => {
      const store = await postgresStore(postgres!.url());
      await store.reset();
      return store;
    },
    openAgain: () => postgresStore(postgres!.url()),
    sharesOffers: true,
  },
];

// ---- realistic values, made by the engine as a sale through the API would make them ----

const requestor: Requestor = { client: 'demo-reseller', salesApplication: 'WEB_SE', salesUnitCode: 'TEST', language: 'en-GB' };
const at = (iso: string) => ({ requestor, now: new Date(iso), ids: randomIds });

/** Offers for an adult and a child, a provisional booking of the first, and ways to confirm it. */
function sale() {
  const { offers } = engine().offers(at('2026-11-20T10:00:00+01:00'), {
    tripSpecifications: [trip()],
    anonymousPassengerSpecifications: passengers(35, 8),
  }).value;
  const offer = offers[0]!;
  const { request } = engine().readBookingRequest({
    externalRef: 'contract',
    offers: [{ offerId: offer.offerId, passengerRefs: ['p1', 'p2'] }],
    passengerSpecifications: [
      { externalRef: 'p1', type: 'PERSON', detail: { firstName: 'Ada', lastName: 'Lind' } },
      { externalRef: 'p2', type: 'PERSON', detail: { firstName: 'Bo', lastName: 'Lind' } },
    ],
    purchaser: { detail: { firstName: 'Ada', lastName: 'Lind', email: 'ada@example.se', phoneNumber: '+46701111111' } },
  });
  const provisional = engine().book(at('2026-11-20T10:01:00+01:00'), request, new Map([[offer.offerId, offer]])).value.booking;
  /** Each call confirms with fresh fulfillment ids, as two racing processes would. */
  const confirm = (): Booking => engine().confirm(at('2026-11-20T10:05:00+01:00'), provisional).value;
  return { offers, provisional, confirm };
}

const ids = (b: Booking) => b.fulfillments.map((f) => f.id);

/** Johan buys an annual second-class pass (spec §4.2): the booking, provisional and confirmed. */
function passSale() {
  const { offers } = engine().offers(at('2026-11-20T10:00:00+01:00'), {
    anonymousPassengerSpecifications: [{ externalRef: '199807079876', type: 'PERSON', age: 28 }],
    offerSearchCriteria: { productTags: ['PASS'] },
    nonTripSearchCriteria: { validFrom: '2026-12-02T00:00:00+01:00' },
  }).value;
  const offer = offers.find((o) => o.pass?.passType === 'OPR_ANNUAL_SECOND')!;
  const { request } = engine().readBookingRequest({
    externalRef: 'pass',
    offers: [{ offerId: offer.offerId, passengerRefs: ['199807079876'] }],
    passengerSpecifications: [{ externalRef: '199807079876', type: 'PERSON' }],
    purchaser: { detail: { firstName: 'Johan', lastName: 'Berg', email: 'johan.berg@example.se', phoneNumber: '+46704567890' } },
  });
  const provisional = engine().book(at('2026-11-20T10:01:00+01:00'), request, new Map([[offer.offerId, offer]])).value.booking;
  return { provisional, confirmed: engine().confirm(at('2026-11-20T10:05:00+01:00'), provisional).value };
}

/** PostgreSQL keeps one database for the suite and a reset keeps releases: each test names its own. */
let releases = 0;
const aRelease = (effectiveFrom: string): RuleRelease => ({
  name: `fares-${++releases}`,
  effectiveFrom,
  createdOn: '2026-11-28T09:00:00.000Z',
  createdBy: 'analyst-a',
  reason: 'the December timetable change',
  files: { 'tariff.yaml': 'currency: SEK\nroundTo: 100\n', 'limits.yaml': '# «å»\nlanguages: [en-GB]\n' },
});

for (const subject of subjects) {
  describe.skipIf(subject.skip !== undefined)(`store contract: ${subject.name}`, () => {
    const opened: Store[] = [];
    const open = async (again = false) => {
      const store = await (again ? subject.openAgain!() : subject.open());
      opened.push(store);
      return store;
    };
    beforeAll(async () => {
      await subject.setup?.();
    }, 30_000);
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
    });
    afterAll(async () => {
      await subject.teardown?.();
    }, 30_000);

    it('offers: what was put is got by id; unknown ids are absent; putting again replaces', async () => {
      const store = await open();
      const { offers } = sale();
      expect(offers.length).toBeGreaterThan(1);
      await store.putOffers(offers);
      const got = await store.getOffers([offers[0]!.offerId, offers[1]!.offerId, 'no-such-offer']);
      expect([...got.keys()].sort()).toEqual([offers[0]!.offerId, offers[1]!.offerId].sort());
      expect(got.get(offers[0]!.offerId)).toEqual(offers[0]);
      expect(got.get(offers[1]!.offerId)).toEqual(offers[1]);

      const replaced: StoredOffer = { ...offers[0]!, preBookableUntil: '2026-11-20T10:45:00+01:00' };
      await store.putOffers([replaced]);
      expect((await store.getOffers([replaced.offerId])).get(replaced.offerId)).toEqual(replaced);
      expect((await store.getOffers([])).size).toBe(0);
    });

    it('releases: one put is listed whole; a second of its name is refused and changes nothing; a reset keeps them', async () => {
      const store = await open();
      const release = aRelease('2026-12-13T00:00+01:00');
      const mine = async (s: Store) => (await s.releases()).filter((r) => r.name === release.name);
      expect(await mine(store)).toEqual([]);
      await store.putRelease(release);
      await expect(store.putRelease({ ...release, effectiveFrom: '2027-01-01T00:00+01:00' })).rejects.toBeInstanceOf(ReleaseNameTaken);
      await store.reset();
      expect(await mine(store)).toEqual([release]);
      if (subject.openAgain) expect(await mine(await open(true))).toEqual([release]);
    });

    it('drafts: a new one at version 1; each write at the next version, a stale or repeated one refused; a reset keeps them', async () => {
      const store = await open();
      const id = `draft-${++releases}`;
      const mine = async (s: Store) => (await s.drafts()).filter((d) => d.id === id);
      await store.putDraft({ id, version: 1, data: { state: 'IN_REVIEW' } });
      await expect(store.putDraft({ id, version: 1, data: { state: 'IN_REVIEW' } })).rejects.toBeInstanceOf(DraftConflict);
      await store.putDraft({ id, version: 2, data: { state: 'APPROVED' } });
      // A second reviewer who read version 1 decides too late: nothing changes.
      await expect(store.putDraft({ id, version: 2, data: { state: 'REJECTED' } })).rejects.toBeInstanceOf(DraftConflict);
      await store.reset();
      expect(await mine(store)).toEqual([{ id, version: 2, data: { state: 'APPROVED' } }]);
      if (subject.openAgain) expect(await mine(await open(true))).toEqual([{ id, version: 2, data: { state: 'APPROVED' } }]);
    });

    it('a new booking reads back whole, at version 1; an unknown id reads as undefined', async () => {
      const store = await open();
      const { provisional } = sale();
      await store.insertBooking(provisional);
      expect(await store.getBooking(provisional.id)).toEqual({ booking: provisional, version: 1 });
      expect(await store.getBooking('SB00000000')).toBeUndefined();
    });

    it('an update at the version read wins and bumps it; a stale version conflicts and changes nothing', async () => {
      const store = await open();
      const { provisional, confirm } = sale();
      await store.insertBooking(provisional);
      const confirmed = confirm();
      await store.updateBooking(confirmed, 1);
      expect(await store.getBooking(provisional.id)).toEqual({ booking: confirmed, version: 2 });

      // A writer that read version 1 too (before the first update) must lose, not overwrite.
      await expect(store.updateBooking(confirm(), 1)).rejects.toBeInstanceOf(StoreConflict);
      await expect(store.updateBooking(confirm(), 3)).rejects.toBeInstanceOf(StoreConflict);
      expect(await store.getBooking(provisional.id)).toEqual({ booking: confirmed, version: 2 });
    });

    it('updating a booking that was never inserted conflicts', async () => {
      const store = await open();
      const { confirm } = sale();
      await expect(store.updateBooking(confirm(), 1)).rejects.toBeInstanceOf(StoreConflict);
    });

    it('inserting an id that exists conflicts and keeps the first booking', async () => {
      const store = await open();
      const { provisional } = sale();
      await store.insertBooking(provisional);
      const error = await store.insertBooking({ ...provisional, externalRef: 'second' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreConflict);
      expect((error as StoreConflict).bookingId).toBe(provisional.id);
      expect(await store.getBooking(provisional.id)).toEqual({ booking: provisional, version: 1 });
    });

    it('fulfillments are indexed to their booking, on insert and on update, but never from a lost update', async () => {
      const store = await open();
      const first = sale();
      await store.insertBooking(first.provisional);
      const winner = first.confirm();
      const loser = first.confirm();
      expect(ids(winner).length).toBeGreaterThan(0);
      expect(ids(winner)).not.toEqual(ids(loser));
      await store.updateBooking(winner, 1);
      await expect(store.updateBooking(loser, 1)).rejects.toBeInstanceOf(StoreConflict);
      for (const id of ids(winner)) expect(await store.bookingOfFulfillment(id)).toBe(winner.id);
      for (const id of ids(loser)) expect(await store.bookingOfFulfillment(id)).toBeUndefined();

      // A booking inserted already confirmed is indexed too.
      const second = sale().confirm();
      await store.insertBooking(second);
      for (const id of ids(second)) expect(await store.bookingOfFulfillment(id)).toBe(second.id);
      expect(await store.bookingOfFulfillment('no-such-fulfillment')).toBeUndefined();
    });

    it('reset empties offers, bookings and the fulfillment index', async () => {
      const store = await open();
      const { offers, confirm } = sale();
      const booking = confirm();
      await store.putOffers(offers);
      await store.insertBooking(booking);
      await store.reset();
      expect((await store.getOffers(offers.map((o) => o.offerId))).size).toBe(0);
      expect(await store.getBooking(booking.id)).toBeUndefined();
      expect(await store.bookingOfFulfillment(ids(booking)[0]!)).toBeUndefined();
      // …and the store is usable afterwards: the same id may be inserted again.
      await store.insertBooking(booking);
      expect((await store.getBooking(booking.id))?.version).toBe(1);
    });

    it("a client's reset drops its bookings and what the indexes keep of them, and nobody else's", async () => {
      const store = await open();
      const { offers, confirm } = sale();
      const mine = confirm();
      const theirs = { ...confirm(), id: `${mine.id}-other`, owner: 'demo-other' };
      const [train] = trainKeysOfBooking(mine);
      await store.putOffers(offers);
      await store.insertBooking(mine);
      await store.insertBooking(theirs);
      await store.reset('demo-reseller');
      expect(await store.getBooking(mine.id)).toBeUndefined();
      expect(await store.bookingOfFulfillment(ids(mine)[0]!)).toBeUndefined();
      expect((await store.holdingsOnTrain(train!)).map((h) => h.bookingId)).toEqual([theirs.id]);
      expect((await store.getBooking(theirs.id))?.booking).toEqual(theirs);
      expect(await store.bookingOfFulfillment(ids(theirs)[0]!)).toBe(theirs.id);
      // Offers stay: they are bookable by their owner only, and expire.
      expect((await store.getOffers([offers[0]!.offerId])).size).toBe(1);
    });

    it('what a booking holds is found by its train, on insert and on update, never from a lost update; freed places and reset drop it', async () => {
      const store = await open();
      const { provisional, confirm } = sale();
      const [train] = trainKeysOfBooking(provisional);
      expect(train).toMatch(/^\w+\/\d{4}-\d{2}-\d{2}$/);
      expect(await store.holdingsOnTrain(train!)).toEqual([]);
      await store.insertBooking(provisional);
      // A provisional booking holds until its confirmation time limit.
      expect(await store.holdingsOnTrain(train!)).toEqual(trainHoldingsOf(provisional));
      expect((await store.holdingsOnTrain(train!))[0]!.until).toBe(provisional.confirmationTimeLimit);
      // The entry read by train is the newest version's: confirmed, it holds without a limit.
      const confirmed = confirm();
      await store.updateBooking(confirmed, 1);
      const found = await store.holdingsOnTrain(train!);
      expect(found).toEqual(trainHoldingsOf(confirmed));
      expect(found[0]!.until).toBeUndefined();
      expect(found[0]!.holdings.length).toBe(confirmed.reservations.length);
      // A lost update indexes nothing: a new trip's train of the loser is never reachable.
      const moved = { ...confirmed, trip: { ...confirmed.trip, legs: confirmed.trip.legs.map((l) => ({ ...l, vehicleNumber: 'LOST' })) } };
      await expect(store.updateBooking(moved, 1)).rejects.toBeInstanceOf(StoreConflict);
      expect(await store.holdingsOnTrain(trainKeysOfBooking(moved)[0]!)).toEqual([]);
      expect(await store.holdingsOnTrain('nothing/2026-12-01')).toEqual([]);
      // Every place given back (refund, release, exchange): the booking holds nothing on the train any more.
      const freed = { ...confirmed, reservations: confirmed.reservations.map((r) => ({ ...r, status: 'CANCELLED' as const })) };
      await store.updateBooking(freed, 2);
      expect(await store.holdingsOnTrain(train!)).toEqual([]);
      await store.updateBooking(confirmed, 3);
      await store.reset();
      expect(await store.holdingsOnTrain(train!)).toEqual([]);
    });

    it('what a travel pass pays for is found by the pass, follows updates and ends with the admission', async () => {
      const store = await open();
      const { provisional, confirm } = sale();
      const withPass = (b: Booking): Booking => ({ ...b, admissions: b.admissions.map((a) => ({ ...a, travelPasses: ['PASS-1'] })) });
      expect(await store.passUses('PASS-1')).toEqual([]);
      await store.insertBooking(withPass(provisional));
      expect(await store.passUses('PASS-1')).toEqual(passUsesOf(withPass(provisional)));
      expect((await store.passUses('PASS-1'))[0]!.until).toBe(provisional.confirmationTimeLimit);
      const confirmed = withPass(confirm());
      await store.updateBooking(confirmed, 1);
      expect(await store.passUses('PASS-1')).toEqual(passUsesOf(confirmed));
      expect((await store.passUses('PASS-1'))[0]!.until).toBeUndefined();
      // Refunded: the admission no longer travels, the pass is free.
      await store.updateBooking({ ...confirmed, admissions: confirmed.admissions.map((a) => ({ ...a, status: 'CANCELLED' as const })) }, 2);
      expect(await store.passUses('PASS-1')).toEqual([]);
      expect(await store.passUses('OTHER')).toEqual([]);
    });

    it('a sold pass is found by its number and its holder once confirmed, never from a lost update; a refund and reset drop it', async () => {
      const store = await open();
      const { provisional, confirmed } = passSale();
      const number = confirmed.fulfillments[0]!.controlNumber!;
      const byNumber = soldPassKey.number(number);
      const byHolder = soldPassKey.holder('Johan.Berg@example.se');
      await store.insertBooking(provisional);
      expect(await store.soldPasses(byNumber)).toEqual([]);
      await expect(store.updateBooking(confirmed, 7)).rejects.toBeInstanceOf(StoreConflict);
      expect(await store.soldPasses(byNumber)).toEqual([]);
      await store.updateBooking(confirmed, 1);
      const [sold] = soldPassEntries(confirmed).map(([, p]) => p);
      expect(sold).toMatchObject({
        cardNumber: number,
        cardType: 'OPR_ANNUAL_SECOND',
        validFrom: '2026-12-02',
        validTo: '2027-12-01',
        holder: 'johan.berg@example.se',
      });
      expect(await store.soldPasses(byNumber)).toEqual([sold]);
      expect(await store.soldPasses(byHolder)).toEqual([sold]);
      expect(await store.soldPasses(soldPassKey.number('OTHER'))).toEqual([]);
      await store.updateBooking({ ...confirmed, fulfillments: confirmed.fulfillments.map((f) => ({ ...f, status: 'REFUNDED' as const })) }, 2);
      expect(await store.soldPasses(byNumber)).toEqual([]);
      expect(await store.soldPasses(byHolder)).toEqual([]);
      await store.updateBooking(confirmed, 3);
      await store.reset();
      expect(await store.soldPasses(byNumber)).toEqual([]);
    });

    it('concurrent writes each get their own verdict: the winner is stored, the loser conflicts', async () => {
      const store = await open();
      const { provisional, confirm } = sale();
      await store.insertBooking(provisional);
      const confirmed = confirm();
      // Issued together (a store may commit them in one batch): one matches version 1, the other cannot.
      const results = await Promise.allSettled([
        store.updateBooking(confirmed, 1),
        store.updateBooking({ ...confirmed, externalRef: 'second' }, 1),
        store.insertBooking(provisional),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
      expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(StoreConflict);
      expect((results[2] as PromiseRejectedResult).reason).toBeInstanceOf(StoreConflict);
      expect(await store.getBooking(provisional.id)).toEqual({ booking: confirmed, version: 2 });
    });

    it('values are copied in and out, never shared with the caller', async () => {
      const store = await open();
      const { offers, provisional } = sale();
      const offer = structuredClone(offers[0]!);
      const booking = structuredClone(provisional);
      await store.putOffers([offer]);
      await store.insertBooking(booking);

      // Changing what was written, or what was read, does not change what is stored.
      offer.owner = 'someone-else';
      booking.externalRef = 'changed-after-insert';
      const read = (await store.getBooking(booking.id))!.booking;
      read.passengers[0]!.detail = { firstName: 'Changed' };
      (await store.getOffers([offer.offerId])).get(offer.offerId)!.passengers.length = 0;

      expect((await store.getOffers([offer.offerId])).get(offer.offerId)).toEqual(offers[0]);
      expect((await store.getBooking(booking.id))!.booking).toEqual(provisional);
    });

    it('of many writers that read the same version, exactly one wins', async () => {
      const store = await open();
      const { provisional, confirm } = sale();
      await store.insertBooking(provisional);
      const candidates = Array.from({ length: 8 }, confirm);
      // All writers read first (as the service does: read, decide, write); for a pooled store this also
      // opens a connection per writer, so the writes below really arrive together.
      const reads = await Promise.all(candidates.map(() => store.getBooking(provisional.id)));
      const results = await Promise.allSettled(candidates.map((b, i) => store.updateBooking(b, reads[i]!.version)));
      const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [candidates[i]!] : []));
      expect(won).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(StoreConflict);
      expect(await store.getBooking(provisional.id)).toEqual({ booking: won[0], version: 2 });
    });

    // Only for stores that outlive a handle (not memory): what a second server process would see.
    if (subject.openAgain)
      it("two handles on one storage (two processes) see each other's writes and race on versions", async () => {
        const a = await open();
        const b = await open(true);
        const { offers, provisional, confirm } = sale();
        await a.putOffers(offers);
        await a.insertBooking(provisional);
        // A write that resolved is committed: the other handle reads it at once.
        if (subject.sharesOffers) expect((await b.getOffers([offers[0]!.offerId])).get(offers[0]!.offerId)).toEqual(offers[0]);
        expect(await b.getBooking(provisional.id)).toEqual({ booking: provisional, version: 1 });

        const viaB = confirm();
        await b.updateBooking(viaB, 1);
        // The handle that wrote version 1 reads version 2 at once, not what it wrote itself.
        expect(await a.getBooking(provisional.id)).toEqual({ booking: viaB, version: 2 });
        await expect(a.updateBooking(confirm(), 1)).rejects.toBeInstanceOf(StoreConflict);
        expect(await a.getBooking(provisional.id)).toEqual({ booking: viaB, version: 2 });
        expect(await a.bookingOfFulfillment(ids(viaB)[0]!)).toBe(provisional.id);

        // Both closed, a new handle still finds everything.
        await Promise.all(opened.splice(0).map((s) => s.close()));
        const c = await open(true);
        expect(await c.getBooking(provisional.id)).toEqual({ booking: viaB, version: 2 });
      });
  });
}
