/**
 * signalbox's embedding API: the operator's rules as a pure engine. Give it a request, the time and an
 * id source; it returns what to store, what to answer and the trace of every decision it made. It never
 * reads a clock, randomness, the environment or files while deciding.
 *
 *   const engine = createEngine();                       // rules/ shipped with the package
 *   const call = { requestor, now: new Date(), ids };
 *   const { value: offers } = engine.offers(call, offerRequest);
 */
import type { z } from 'zod';
// Bottom up, layer by layer (docs/architecture.md).
import { boundaryCases } from './rules/boundaries.ts';
import type { DecisionTrace, Explanation } from './rules/decision.ts';
import { factProblems, FactsError } from './rules/fact-messages.ts';
import { factAliases, factCatalogue, type DecisionName } from './rules/facts.ts';
import { loadRules } from './rules/load.ts';
import { limitPointers } from './rules/pointer-limit.ts';
import type { RuleSet } from './rules/ruleset.ts';
import type { Language } from './rules/schemas.ts';
import { parseRequest } from './rules/validate.ts';
import { fill, phrase, renderProblem, type Problem, RuleViolation, violation } from './rules/violation.ts';
import { makeContext, type Context } from './model/context.ts';
import { BookingPatch } from './model/osdm/booking-patch-requests.ts';
import type * as A from './model/osdm/aftersales-response.ts';
import type * as B from './model/osdm/booking-response.ts';
import type { OfferCollectionRequest } from './model/osdm/offer-request.ts';
import type { OfferCollectionResponse as OfferCollectionResponseSchema } from './model/osdm/offer-response.ts';
import type * as P from './model/osdm/seat-response.ts';
import type { Booking, ExchangeOperation, IdSource, Requestor, SoldPass, StoredOffer, Warning } from './model/records.ts';
import { trainKeysOfOfferRequest } from './model/train.ts';
import { asOsdmAge } from './model/osdm/offer-request.ts';
import { isConfirmed, isExpired } from './state/booking-state.ts';
import { cleanupBooking, cleanupWindowEnd } from './aftersales/cleanup.ts';
import { travelPassesOfOfferRequest, type PassUse } from './holdings/pass-uses.ts';
import { bookingIdOf, holdingsOf, type OnTrain } from './holdings/place-holdings.ts';
import { readAvailabilityQuery, subjectOf, type AvailabilityQuery } from './seats/availability.ts';
import { renderCoachLayout, renderCounts, renderPlaceMap, renderPreferences } from './seats/place-map.ts';
import { createOffers, readOfferRequest } from './offers/create.ts';
import { renderOfferCollection, type OfferCollection } from './offers/render.ts';
import { explainOfferPrices } from './offers/explain-prices.ts';
import type { OfferPriceExplanation } from './model/price-explanation.ts';
import { createBooking, readBookingRequest } from './booking/create.ts';
import { confirmBooking } from './booking/lifecycle.ts';
import { patchBooking, patchPassenger, patchPurchaser } from './booking/patch.ts';
import { renderExchangeOffer, renderExchangeOperation, renderOnHoldOffer, renderRefundOffer, renderReleaseOffer } from './booking/render-aftersales.ts';
import { renderBooking, renderFulfillment } from './booking/render.ts';
import { confirmOnHoldOffer, createOnHoldOffer, deleteOnHoldOffer } from './aftersales/on-hold.ts';
import { confirmRefundOffer, createRefundOffer, deleteRefundOffer } from './aftersales/refund.ts';
import { confirmReleaseOffer, createReleaseOffer, deleteReleaseOffer } from './aftersales/release.ts';
import {
  confirmPendingExchange,
  createExchangeOffers,
  createExchangeOperation,
  deleteExchangeOperation,
  expireOperations,
  findOperation,
  patchExchangeOperation,
  ExchangeOfferRequest,
  ExchangeOperationRequest,
} from './aftersales/exchange.ts';

/** The three availability answers (CONTRACT §6). */
export type AvailabilityKind = 'counts' | 'preferences' | 'place-map';

export interface EngineOptions {
  /** A compiled rule set; defaults to loading `rulesDir`. */
  rules?: RuleSet;
  /** Folder of rule files; defaults to the rules/ shipped with signalbox. */
  rulesDir?: string;
  /** Key that signs ticket barcodes. */
  ticketKey?: string;
  /**
   * The rule release these rules are (docs/releases.md): named in every trace, and kept with the offers the engine
   * makes and the bookings it makes of them. Absent for the rules the server started with.
   */
  release?: string;
}

/** The inputs every call needs: who asks, when, and where new ids come from. */
export interface Call {
  requestor: Requestor;
  now: Date;
  ids: IdSource;
  /**
   * The travel passes sold through the API that the request's cards name (`Store.soldPasses` of a read request's
   * `travelPasses`, or of `travelPassesOfOffers`): passes like those of customers.yaml (spec §4.2 rule 6).
   */
  soldPasses?: readonly SoldPass[];
}

/** An offer request read (Engine.readOfferRequest): validated, with what the caller loads before the engine decides. */
export interface OfferRequestRead {
  request: OfferCollectionRequest;
  /** The passengers as the caller sent them: the response echoes them. */
  sentPassengers: OfferCollection['anonymousPassengerSpecifications'];
  /** The trains the request names (Store.holdingsOnTrain). */
  trains: string[];
  /** The travel pass numbers its passengers carry (Store.soldPasses, Store.passUses). */
  travelPasses: string[];
}

/** A result with the trace of every decision behind it. */
export interface Decided<T> {
  value: T;
  traces: readonly DecisionTrace[];
}

/** What a command on a stored booking decided: the booking to store (the one given when nothing changed) and the answer. */
export interface Changed<R> {
  booking: Booking;
  response: R;
}

/** The OSDM answers the engine renders, typed from their schemas (engine/model/osdm/). */
export type OfferCollectionResponse = z.output<typeof OfferCollectionResponseSchema>;
export type BookingResponse = z.output<typeof B.BookingResponse>;
export type PassengerResponse = z.output<typeof B.PassengerResponse>;
export type PurchaserResponse = z.output<typeof B.PurchaserResponse>;
export type FulfillmentResponse = z.output<typeof B.FulfillmentResponse>;
export type RefundOfferCollectionResponse = z.output<typeof A.RefundOfferCollectionResponse>;
export type RefundOfferResponse = z.output<typeof A.RefundOfferResponse>;
export type ReleaseOfferCollectionResponse = z.output<typeof A.ReleaseOfferCollectionResponse>;
export type ReleaseOfferResponse = z.output<typeof A.ReleaseOfferResponse>;
export type OnHoldOfferResponse = z.output<typeof A.OnHoldOfferResponse>;
export type ExchangeOfferCollectionResponse = z.output<typeof A.ExchangeOfferCollectionResponse>;
export type ExchangeOperationResponse = z.output<typeof A.ExchangeOperationResponse>;
export type CoachLayoutResponse = z.output<typeof P.CoachLayoutResponse>;
/** The answer of each availability kind (CONTRACT §6). */
export interface AvailabilityResponses {
  counts: z.output<typeof P.AvailabilityCountResponse>;
  preferences: z.output<typeof P.PlacePreferencesResponse>;
  'place-map': z.output<typeof P.PlaceAvailabilityResponse>;
}

/** The engine's embedding API, as createEngine makes it: go to a method's definition to read what it does. */
export interface Engine extends ReturnType<typeof decidingEngine> {
  /** The same engine (its ticket key) deciding with a release's rules, which it names (docs/releases.md). */
  withRelease(name: string, rules: RuleSet): Engine;
}

export function createEngine(options: EngineOptions = {}): Engine {
  const engine = decidingEngine(options);
  return Object.assign(engine, { withRelease: (name: string, rules: RuleSet) => createEngine({ ...options, rules, release: name }) });
}

function decidingEngine(options: EngineOptions) {
  const rules = options.rules ?? loadRules(options.rulesDir);
  const ticketKey = options.ticketKey ?? 'signalbox-sandbox-ticket-key';
  const { release } = options;
  const named = (traces: readonly DecisionTrace[]): readonly DecisionTrace[] => (release === undefined ? traces : traces.map((t) => ({ ...t, release })));
  /** A record the engine makes, with the release that decided it (nothing added without one: records stay as they were). */
  const stamped = <T extends object>(record: T): T => (release === undefined ? record : { ...record, release });
  const context = (call: Call): Context => makeContext(rules, call.requestor, call.now, call.ids, ticketKey, call.soldPasses);
  const traced = <T>(ctx: Context, run: () => T): Decided<T> => {
    try {
      return { value: run(), traces: named(ctx.traces) };
    } catch (e) {
      if (e instanceof RuleViolation && ((e.traces.length === 0 && ctx.traces.length > 0) || (release !== undefined && e.traces.length > 0))) {
        throw new RuleViolation(e.code, e.params, e.pointers, named(e.traces.length > 0 ? e.traces : ctx.traces));
      }
      throw e;
    }
  };
  /** One call decided in a context of its own, with the traces of every decision behind it. */
  const decided = <T>(call: Call, run: (ctx: Context) => T): Decided<T> => {
    const ctx = context(call);
    return traced(ctx, () => run(ctx));
  };
  /**
   * A command on a stored booking: an exchange left pre-booked past its time limit gives its parts back before
   * anything is decided (spec §3), so `run` gets the booking as it stands at `call.now`.
   */
  const onBooking = <T>(call: Call, booking: Booking, run: (ctx: Context, booking: Booking) => T): Decided<T> =>
    decided(call, (ctx) => run(ctx, expireOperations(ctx, booking)));
  const renderWarnings = (warnings: Warning[], language: Language) =>
    warnings.length === 0
      ? {}
      : {
          warnings: {
            warnings: warnings.map((w) => ({
              code: w.code,
              detail: fill(rules.warnings[w.code]?.detail[language] ?? w.code, w.params ?? {}, language),
            })),
          },
        };
  const bookingResponse = (booking: Booking, language: Language, warnings: Warning[] = []): BookingResponse => ({
    booking: renderBooking(rules, booking, language),
    ...renderWarnings(warnings, language),
  });
  const refundOfferResponse = (booking: Booking, refundOfferId: string): RefundOfferResponse => ({
    refundOffer: renderRefundOffer(
      booking,
      booking.refundOffers!.find((o) => o.id === refundOfferId)!,
    ),
  });
  const releaseOfferResponse = (booking: Booking, releaseOfferId: string): ReleaseOfferResponse => ({
    releaseOffer: renderReleaseOffer(
      booking,
      booking.releaseOffers!.find((o) => o.id === releaseOfferId)!,
    ),
  });
  const onHoldOfferResponse = (booking: Booking, language: Language): OnHoldOfferResponse => ({
    onHoldOffer: renderOnHoldOffer(rules, booking, booking.onHoldOffer!, language),
  });
  const exchangeOperationResponse = (booking: Booking, operation: ExchangeOperation, language: Language): ExchangeOperationResponse => ({
    exchangeOperation: renderExchangeOperation(rules, booking, operation, language),
  });

  /**
   * POST /offers, first phase: the request validated (its counts decided first, spec §8), and what to load for it:
   * the bookings on the trains it names (`trains`: Store.holdingsOnTrain) and its travel passes (`travelPasses`:
   * Store.soldPasses, Store.passUses).
   */
  function readOfferRequestOf(call: Call, body: unknown): Decided<OfferRequestRead> {
    return decided(call, (ctx) => {
      const request = readOfferRequest(ctx, body);
      // The passengers are echoed as sent, not as read (reading fills in defaults such as `cards: []`), the spec's
      // `Age` in OSDM's name.
      const sentPassengers = (body as Pick<OfferCollection, 'anonymousPassengerSpecifications'>).anonymousPassengerSpecifications.map(asOsdmAge);
      return { request, sentPassengers, trains: trainKeysOfOfferRequest(request, rules.calendar), travelPasses: travelPassesOfOfferRequest(request) };
    });
  }

  /**
   * POST /offers, second phase: the offers to store and the OfferCollectionResponse, decided on what was loaded:
   * `onTrains`, the bookings on `read.trains`, whole or as their index entries (`trainHoldingsOf`); `passUses`, what
   * `read.travelPasses` already pay for (a pass busy at the trip's time is ignored); `call.soldPasses`, those sold.
   */
  function decideOffers(
    call: Call,
    read: Decided<OfferRequestRead>,
    onTrains: readonly OnTrain[] = [],
    passUses: readonly PassUse[] = [],
  ): Decided<{ offers: StoredOffer[]; response: OfferCollectionResponse }> {
    const ctx = context(call);
    // One command, one trace: the decisions of reading it come first.
    ctx.traces.push(...read.traces);
    return traced(ctx, () => {
      const warnings: Warning[] = [];
      const offers = createOffers(ctx, read.value.request, holdingsOf(onTrains, call.now), passUses, warnings).map(stamped);
      return {
        offers,
        response: Object.assign(
          renderOfferCollection(rules, offers, call.requestor.language, read.value.sentPassengers),
          renderWarnings(warnings, call.requestor.language),
        ),
      };
    });
  }

  return {
    rules,
    /** The rule release these rules are; undefined for the rules the server started with. */
    release,
    readOfferRequest: readOfferRequestOf,
    decideOffers,
    /** POST /offers in one call, both phases, for a caller with nothing to load (no store): every place and pass free. */
    offers(call: Call, body: unknown) {
      return decideOffers(call, readOfferRequestOf(call, body));
    },
    /**
     * Why each offer costs what it costs, to the öre: every part's price worked out again by the functions that priced
     * it, each step written down with the rule row or reference-data value (`file:line:col`) it comes from, and the
     * minimal price as the sum of its parts. Made on demand (the studio's offers view); POST /offers never makes it.
     * `call` and `passUses` as the offers were decided with (the same instant, passes and their uses).
     */
    explainOfferPrices(call: Call, offers: readonly StoredOffer[], passUses: readonly PassUse[] = []): Decided<OfferPriceExplanation[]> {
      return decided(call, (ctx) => explainOfferPrices(ctx, offers, passUses));
    },
    /** Validates a booking request and names the offers it needs (the caller loads them). */
    readBookingRequest(body: unknown) {
      const request = readBookingRequest(body);
      return { request, offerIds: request.offers.map((o) => o.offerId) };
    },
    /**
     * POST /booking: the provisional booking to store and the BookingResponse. `onTrains`: the bookings on the
     * offers' trains, whose places are taken; `passUses`: what the passes paying for the offers' admissions are
     * busy with (`Store.passUses`, spec §2.7 rule 8).
     */
    book(
      call: Call,
      request: ReturnType<typeof readBookingRequest>,
      offers: ReadonlyMap<string, StoredOffer>,
      onTrains: readonly OnTrain[] = [],
      passUses: readonly PassUse[] = [],
    ): Decided<Changed<BookingResponse>> {
      return decided(call, (ctx) => {
        const made = createBooking(ctx, request, offers, holdingsOf(onTrains, call.now), passUses);
        const { warnings } = made;
        const booking = stamped(made.booking);
        return { booking, response: bookingResponse(booking, call.requestor.language, warnings) };
      });
    },
    /**
     * POST /bookings/{id}/fulfillment: the confirmed booking (unchanged when it already was). Spec §3: confirming a
     * confirmed booking confirms its pre-booked exchange, if any.
     */
    confirm(call: Call, booking: Booking): Decided<Booking> {
      return decided(call, (ctx) => (isConfirmed(booking.machine.value) ? confirmPendingExchange(ctx, booking) : confirmBooking(ctx, booking)));
    },
    /** PATCH /bookings/{id}/passengers/{passengerId}: the changed booking. */
    patchPassenger(call: Call, booking: Booking, passengerId: string, body: unknown): Decided<Booking> {
      return decided(call, (ctx) => patchPassenger(ctx, booking, passengerId, body));
    },
    /** PATCH /bookings/{id}/purchaser: the changed booking. */
    patchPurchaser(call: Call, booking: Booking, body: unknown): Decided<Booking> {
      return decided(call, (ctx) => patchPurchaser(ctx, booking, body));
    },
    /** PATCH /bookings/{id}, first phase: the patch validated; with place selections, the caller loads the bookings on its trains. */
    readBookingPatch(body: unknown): { patch: BookingPatch; placeSelections: boolean } {
      const patch = parseRequest(BookingPatch, body);
      return { patch, placeSelections: patch.placeSelections !== undefined };
    },
    /** PATCH /bookings/{id}: the changed booking, its place selections decided against `onTrains`. */
    patchBooking(call: Call, booking: Booking, patch: BookingPatch, onTrains: readonly OnTrain[] = []): Decided<Booking> {
      return decided(call, (ctx) =>
        patchBooking(ctx, booking, patch, holdingsOf([...onTrains.filter((b) => bookingIdOf(b) !== booking.id), booking], call.now)),
      );
    },
    /** GET /bookings/{id}/passengers/{passengerId}: the PassengerResponse, or undefined for a passenger the booking does not have. */
    renderPassenger(booking: Booking, passengerId: string, language: Language): PassengerResponse | undefined {
      const passenger = renderBooking(rules, booking, language).passengers.find((p) => p.id === passengerId);
      return passenger ? { passenger } : undefined;
    },
    /** GET /bookings/{id}/purchaser: the PurchaserResponse, or undefined before there is a purchaser. */
    renderPurchaser(booking: Booking, language: Language): PurchaserResponse | undefined {
      const purchaser = renderBooking(rules, booking, language).purchaser;
      return purchaser ? { purchaser } : undefined;
    },
    /** POST /bookings/{id}/refund-offers (spec §4.1 rule 6): the booking with the new refund offer, and the offer. */
    createRefundOffer(call: Call, booking: Booking, body: unknown): Decided<Changed<RefundOfferCollectionResponse>> {
      return onBooking(call, booking, (ctx, current) => {
        const next = createRefundOffer(ctx, current, body);
        return { booking: next, response: { refundOffers: [renderRefundOffer(next, next.refundOffers!.at(-1)!)] } };
      });
    },
    /** GET /bookings/{id}/refund-offers/{refundOfferId}. */
    readRefundOffer(call: Call, booking: Booking, refundOfferId: string): Decided<Changed<RefundOfferResponse>> {
      return onBooking(call, booking, (_ctx, current) => {
        if (!current.refundOffers?.some((o) => o.id === refundOfferId))
          throw violation('RESOURCE_NOT_FOUND', { resource: phrase('resource-refund-offer'), id: refundOfferId });
        return { booking: current, response: refundOfferResponse(current, refundOfferId) };
      });
    },
    /**
     * PATCH /bookings/{id}/refund-offers/{refundOfferId} (spec §4.1 rule 6): the offer confirmed, its tickets
     * refunded, their parts cancelled, and the booking cancelled when nothing of it is left. The terms were decided
     * when the offer was made: no decision table is asked.
     */
    confirmRefundOffer(call: Call, booking: Booking, refundOfferId: string, body: unknown): Decided<Changed<RefundOfferResponse>> {
      return onBooking(call, booking, (ctx, current) => {
        const next = confirmRefundOffer(ctx, current, refundOfferId, body);
        return { booking: next, response: refundOfferResponse(next, refundOfferId) };
      });
    },
    /** DELETE /bookings/{id}/refund-offers/{refundOfferId}: the booking without the offer (a confirmed one is not found). */
    deleteRefundOffer(call: Call, booking: Booking, refundOfferId: string): Decided<Booking> {
      return onBooking(call, booking, (ctx, current) => deleteRefundOffer(ctx, current, refundOfferId));
    },
    /** POST /bookings/{id}/release-offers (spec §4.1 rule 5): the booking with the new release offer, and the offer. */
    createReleaseOffer(call: Call, booking: Booking, body: unknown): Decided<Changed<ReleaseOfferCollectionResponse>> {
      return onBooking(call, booking, (ctx, current) => {
        const next = createReleaseOffer(ctx, current, body);
        return { booking: next, response: { releaseOffers: [renderReleaseOffer(next, next.releaseOffers!.at(-1)!)] } };
      });
    },
    /** GET /bookings/{id}/release-offers/{releaseOfferId}. */
    readReleaseOffer(call: Call, booking: Booking, releaseOfferId: string): Decided<Changed<ReleaseOfferResponse>> {
      return onBooking(call, booking, (_ctx, current) => {
        if (!current.releaseOffers?.some((o) => o.id === releaseOfferId))
          throw violation('RESOURCE_NOT_FOUND', { resource: phrase('resource-release-offer'), id: releaseOfferId });
        return { booking: current, response: releaseOfferResponse(current, releaseOfferId) };
      });
    },
    /** PATCH /bookings/{id}/release-offers/{releaseOfferId} (spec §4.1 rule 5): the offer confirmed, its tickets released. */
    confirmReleaseOffer(call: Call, booking: Booking, releaseOfferId: string, body: unknown): Decided<Changed<ReleaseOfferResponse>> {
      return onBooking(call, booking, (ctx, current) => {
        const next = confirmReleaseOffer(ctx, current, releaseOfferId, body);
        return { booking: next, response: releaseOfferResponse(next, releaseOfferId) };
      });
    },
    /** DELETE /bookings/{id}/release-offers/{releaseOfferId}: the booking without the offer. */
    deleteReleaseOffer(call: Call, booking: Booking, releaseOfferId: string): Decided<Booking> {
      return onBooking(call, booking, (ctx, current) => deleteReleaseOffer(ctx, current, releaseOfferId));
    },
    /** POST /bookings/{id}/on-hold-offer (spec §4.1 rule 11): the booking with an offer to extend its time limit (rules/on-hold.yaml). */
    createOnHoldOffer(call: Call, booking: Booking, body: unknown): Decided<Changed<OnHoldOfferResponse>> {
      return onBooking(call, booking, (ctx, current) => {
        const { booking: next } = createOnHoldOffer(ctx, current, body);
        return { booking: next, response: onHoldOfferResponse(next, call.requestor.language) };
      });
    },
    /** PATCH /bookings/{id}/on-hold-offer/{onHoldOfferId}: the booking on hold until the offer's time limit. */
    confirmOnHoldOffer(call: Call, booking: Booking, onHoldOfferId: string): Decided<Changed<OnHoldOfferResponse>> {
      return onBooking(call, booking, (ctx, current) => {
        const next = confirmOnHoldOffer(ctx, current, onHoldOfferId);
        return { booking: next, response: onHoldOfferResponse(next, call.requestor.language) };
      });
    },
    /** DELETE /bookings/{id}/on-hold-offer/{onHoldOfferId}: the booking without the offer. */
    deleteOnHoldOffer(call: Call, booking: Booking, onHoldOfferId: string): Decided<Booking> {
      return onBooking(call, booking, (ctx, current) => deleteOnHoldOffer(ctx, current, onHoldOfferId));
    },
    /** POST /bookings/{id}/cleanup (spec §4.1 rule 12): the confirmed booking rolled back completely; `osdmVersion` as `osdmVersionNumber` gives it. */
    cleanupBooking(call: Call, booking: Booking, body: unknown, osdmVersion: number): Decided<Booking> {
      return onBooking(call, booking, (ctx, current) => cleanupBooking(ctx, current, body, osdmVersion));
    },
    /** POST /bookings/{id}/exchange-offers, first phase: the request validated, and its trains and travel passes to load. */
    readExchangeOfferRequest(body: unknown): { request: ExchangeOfferRequest; trains: string[]; travelPasses: string[] } {
      const request = parseRequest(ExchangeOfferRequest, body);
      return { request, trains: trainKeysOfOfferRequest(request, rules.calendar), travelPasses: travelPassesOfOfferRequest(request) };
    },
    /** POST /bookings/{id}/exchange-offers: exchange offers to store (the booking is unchanged) and the response. */
    exchangeOffers(
      call: Call,
      booking: Booking,
      request: ExchangeOfferRequest,
      onTrains: readonly OnTrain[] = [],
      passUses: readonly PassUse[] = [],
    ): Decided<{ offers: StoredOffer[]; response: ExchangeOfferCollectionResponse }> {
      return onBooking(call, booking, (ctx, current) => {
        // The booking's own journeys give their passes back when exchanged: only other bookings' uses count.
        const offers = createExchangeOffers(
          ctx,
          current,
          request,
          holdingsOf(onTrains, call.now),
          passUses.filter((u) => u.bookingId !== booking.id),
        ).map(stamped);
        return { offers, response: { exchangeOffers: offers.map((o) => renderExchangeOffer(rules, booking, o, call.requestor.language)) } };
      });
    },
    /** POST /bookings/{id}/exchange-operations, first phase: the request validated, and the exchange offers it names. */
    readExchangeOperationRequest(body: unknown): { request: ExchangeOperationRequest; offerIds: string[] } {
      const request = parseRequest(ExchangeOperationRequest, body);
      return { request, offerIds: request.exchangeOffers.map((o) => o.offerId) };
    },
    /**
     * POST /bookings/{id}/exchange-operations: the booking with the pre-booked exchange, given the exchange offers
     * named and what the bookings on the new trip's trains hold (`onTrains`).
     */
    exchangeOperation(
      call: Call,
      booking: Booking,
      request: ExchangeOperationRequest,
      offers: ReadonlyMap<string, StoredOffer>,
      onTrains: readonly OnTrain[] = [],
      passUses: readonly PassUse[] = [],
    ): Decided<Changed<ExchangeOperationResponse>> {
      return onBooking(call, booking, (ctx, current) => {
        const next = createExchangeOperation(
          ctx,
          current,
          request,
          offers,
          holdingsOf(
            onTrains.filter((b) => bookingIdOf(b) !== booking.id),
            call.now,
          ),
          passUses,
        );
        return { booking: next, response: exchangeOperationResponse(next, next.exchangeOperations!.at(-1)!, call.requestor.language) };
      });
    },
    /** GET /bookings/{id}/exchange-operations/{exchangeOperationId}. */
    readExchangeOperation(call: Call, booking: Booking, exchangeOperationId: string): Decided<Changed<ExchangeOperationResponse>> {
      return onBooking(call, booking, (_ctx, current) => ({
        booking: current,
        response: exchangeOperationResponse(current, findOperation(current, exchangeOperationId), call.requestor.language),
      }));
    },
    /** PATCH /bookings/{id}/exchange-operations/{exchangeOperationId}: the operation changed. */
    patchExchangeOperation(call: Call, booking: Booking, exchangeOperationId: string, body: unknown): Decided<Changed<ExchangeOperationResponse>> {
      return onBooking(call, booking, (ctx, current) => {
        const next = patchExchangeOperation(ctx, current, exchangeOperationId, body);
        return { booking: next, response: exchangeOperationResponse(next, findOperation(next, exchangeOperationId), call.requestor.language) };
      });
    },
    /** DELETE /bookings/{id}/exchange-operations/{exchangeOperationId}: the original parts travel again. */
    deleteExchangeOperation(call: Call, booking: Booking, exchangeOperationId: string): Decided<Booking> {
      return onBooking(call, booking, (ctx, current) => deleteExchangeOperation(ctx, current, exchangeOperationId));
    },
    /** Where a confirmed booking's cleanup window closes (rules/cleanup.yaml); undefined before confirmation. */
    cleanupWindowEnd: (booking: Booking): string | undefined => cleanupWindowEnd(rules, booking),
    /** Spec §4.1 rule 8: the booking with the operator's after-sales override profile set or taken away. */
    setAfterSalesOverride(booking: Booking, on: boolean): Booking {
      const { afterSalesOverride: _, ...rest } = booking;
      return on ? { ...rest, afterSalesOverride: true } : rest;
    },
    /** Whether a provisional booking's time limit has passed at `now`. */
    isExpired,
    /**
     * The booking as it stands at `now`, for reading: an exchange operation past its time limit has expired and
     * the original parts travel again (spec §3). Nothing is stored; the next change stores it so.
     */
    asOf(call: Call, booking: Booking): Booking {
      return expireOperations(context(call), booking);
    },
    /** Validates the query of the availability endpoints (CONTRACT §6, spec §4.1 rule 3). */
    readAvailabilityQuery,
    /**
     * GET /availabilities, …/preferences, …/place-map (spec §2.11): for the offer or booking the query names
     * (loaded by the caller, `found`) and the bookings on its train (`onTrains`).
     */
    availability<K extends AvailabilityKind>(
      call: Call,
      kind: K,
      query: AvailabilityQuery,
      found: { offer?: StoredOffer; booking?: Booking },
      onTrains: readonly OnTrain[],
    ): Decided<AvailabilityResponses[K]> {
      return decided(call, (ctx) => {
        const subject = subjectOf(ctx, query, found);
        const answers: { [A in AvailabilityKind]: () => AvailabilityResponses[A] } = {
          counts: () => renderCounts(ctx, subject, onTrains),
          preferences: () => renderPreferences(ctx, subject, onTrains),
          'place-map': () => renderPlaceMap(ctx, subject, onTrains),
        };
        return answers[kind]();
      });
    },
    /** GET /coach-layouts/{layoutId}: the CoachLayoutResponse, or undefined for an unknown id. */
    coachLayout: (layoutId: string): CoachLayoutResponse | undefined => renderCoachLayout(rules, layoutId),
    /** GET /bookings/{id}: the BookingResponse, with `warnings` where the booking lacks something the caller should know of. */
    renderBooking: (booking: Booking, language: Language, warnings: Warning[] = []): BookingResponse => bookingResponse(booking, language, warnings),
    /** GET /fulfillments/{id}: the FulfillmentResponse, or undefined for a fulfillment the booking does not have. */
    renderFulfillment(booking: Booking, fulfillmentId: string, language: Language): FulfillmentResponse | undefined {
      const f = booking.fulfillments.find((x) => x.id === fulfillmentId);
      return f ? { fulfillment: renderFulfillment(booking, f, language) } : undefined;
    },
    /** The Problem body for a rule violation, in the caller's language. */
    problem(error: RuleViolation, language: Language, instance?: string): Problem {
      return renderProblem(rules.errors, language, limitPointers(error, rules.limits.problemPointerLimit), instance, rules.texts);
    },
    /** Evaluates one decision and explains every row (`signalbox explain`); facts that do not fit throw FactsError. */
    explain(decision: string, facts: unknown): Explanation {
      const schema = factCatalogue[decision as DecisionName] as z.ZodObject | undefined;
      if (!schema) throw new FactsError([`there is no decision called ${decision}; the decisions are ${Object.keys(factCatalogue).join(', ')}`]);
      const alias = factAliases[decision as DecisionName];
      const given = alias && facts && typeof facts === 'object' ? alias(facts as Record<string, unknown>) : facts;
      const parsed = schema.safeParse(given, { reportInput: true });
      const unknown = given && typeof given === 'object' ? Object.keys(given).filter((k) => !(k in schema.shape)) : [];
      const problems = [
        ...unknown.map((k) => `${k} is not a fact of ${decision}; its facts are ${Object.keys(schema.shape).join(', ')}`),
        ...(parsed.success ? [] : factProblems(decision, schema, parsed.error)),
      ];
      if (problems.length > 0 || !parsed.success) throw new FactsError(problems);
      return rules.decisions[decision as DecisionName].explain(parsed.data);
    },
  };
}

export { loadRules, readRuleSources, defaultRulesDir } from './rules/load.ts';
export { compileRuleSet, type RuleSet, type RuleSource } from './rules/ruleset.ts';
export { RuleFileError } from './rules/source.ts';
export { FactsError } from './rules/fact-messages.ts';
export { factCatalogue, type DecisionName } from './rules/facts.ts';

/**
 * Boundary cases of a decision (every bound ±1, every enum value), for simulating a table and comparing two
 * versions of it; `also` adds the bounds of the same decision in another rule set.
 */
export function boundaryCasesOf(rules: RuleSet, decision: DecisionName, also?: RuleSet): Array<Record<string, unknown>> {
  return boundaryCases(rules.decisions[decision], factCatalogue[decision] as z.ZodObject, also?.decisions[decision]);
}
export { phrase, RuleViolation, type Phrase, type Problem, type ProblemPointer, type Said } from './rules/violation.ts';
export { inBothLanguages } from './rules/validate.ts';
export { verifyTicket, type TicketPayload } from './booking/barcodes.ts';
export { DecisionTrace, type Explanation } from './rules/decision.ts';
export type { OfferPriceExplanation, PriceStep, PriceSource } from './model/price-explanation.ts';
export { decodeStoredBooking } from './model/records.ts';
export { RuleRelease } from './model/release.ts';
export { withMachineAnswer } from './state/machine.ts';
export type { Booking, Leg, StoredOffer, Requestor, IdSource, Money, PlaceAllocation, SoldPass, Warning } from './model/records.ts';
export type { Language } from './rules/schemas.ts';
export { trainKey, trainKeysOfBooking, trainKeysOfTrip } from './model/train.ts';
export { trainHoldingsOf } from './holdings/place-holdings.ts';
export { passUsesOf, passesOfBooking, travelPassesOfOffers, ridesTaken, type PassUse } from './holdings/pass-uses.ts';
export { soldPassEntries, soldPassKey, soldPassKeysOf } from './holdings/sold-passes.ts';
export type { Holding, OnTrain, TrainHoldings } from './holdings/place-holdings.ts';
export { AvailabilityQuery } from './seats/availability.ts';
export { ExchangeOfferRequest, ExchangeOperationPatch, ExchangeOperationRequest } from './aftersales/exchange.ts';
export * from './customers/lookup.ts'; // Customer API lookups (engine.rules.customers) and pass facts for the rules
export { decisionGraph, graphSinks, type DecisionGraph, type GraphEdge } from './rules/graph.ts';
