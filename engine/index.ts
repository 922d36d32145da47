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
import { fill, renderProblem, type Problem, RuleViolation } from './rules/violation.ts';
import { makeContext, type Context } from './model/context.ts';
import { BookingPatch } from './model/osdm/booking-patch-requests.ts';
import type { OfferCollectionRequest } from './model/osdm/offer-request.ts';
import type { Booking, IdSource, Requestor, SoldPass, StoredOffer, Warning } from './model/records.ts';
import { trainKeysOfOfferRequest } from './model/train.ts';
import { asOsdmAge } from './model/osdm/offer-request.ts';
import { isConfirmed, isExpired } from './state/booking-state.ts';
import { cleanupWindowEnd } from './aftersales/cleanup.ts';
import { travelPassesOfOfferRequest, type PassUse } from './holdings/pass-uses.ts';
import { bookingIdOf, holdingsOf, type OnTrain } from './holdings/place-holdings.ts';
import { readAvailabilityQuery, subjectOf, type AvailabilityQuery } from './seats/availability.ts';
import { renderCoachLayout, renderCounts, renderPlaceMap, renderPreferences } from './seats/place-map.ts';
import { createOffers, readOfferRequest } from './offers/create.ts';
import { renderOfferCollection, type OfferCollection } from './offers/render.ts';
import { createBooking, readBookingRequest } from './booking/create.ts';
import { confirmBooking } from './booking/lifecycle.ts';
import { patchBooking, patchPassenger, patchPurchaser } from './booking/patch.ts';
import { renderExchangeOffer, renderExchangeOperation } from './booking/render-aftersales.ts';
import { renderBooking, renderFulfillment } from './booking/render.ts';
import { runAftersales, type AftersalesCommand, type AftersalesOutcome } from './aftersales/commands.ts';
import {
  confirmPendingExchange,
  createExchangeOffers,
  createExchangeOperation,
  expireOperations,
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

export interface Engine {
  readonly rules: RuleSet;
  /**
   * POST /offers, first phase: the request validated (its counts decided first, spec §8), and what to load for it:
   * the bookings on the trains it names (`trains`: Store.holdingsOnTrain) and its travel passes (`travelPasses`:
   * Store.soldPasses, Store.passUses).
   */
  readOfferRequest(call: Call, body: unknown): Decided<OfferRequestRead>;
  /**
   * POST /offers, second phase: the offers to store and the OfferCollectionResponse, decided on what was loaded:
   * `onTrains`, the bookings on `read.trains`, whole or as their index entries (`trainHoldingsOf`); `passUses`, what
   * `read.travelPasses` already pay for (a pass busy at the trip's time is ignored); `call.soldPasses`, those sold.
   */
  decideOffers(
    call: Call,
    read: Decided<OfferRequestRead>,
    onTrains?: readonly OnTrain[],
    passUses?: readonly PassUse[],
  ): Decided<{ offers: StoredOffer[]; response: Record<string, unknown> }>;
  /** POST /offers in one call, both phases, for a caller with nothing to load (no store): every place and pass free. */
  offers(call: Call, body: unknown): Decided<{ offers: StoredOffer[]; response: Record<string, unknown> }>;
  /** Validates a booking request and names the offers it needs (the caller loads them). */
  readBookingRequest(body: unknown): { request: ReturnType<typeof readBookingRequest>; offerIds: string[] };
  /** POST /booking: the provisional booking to store and the BookingResponse. */
  /** `passUses`: what the passes paying for the offers' admissions are busy with (`Store.passUses`, spec §2.7 rule 8). */
  book(
    call: Call,
    request: ReturnType<typeof readBookingRequest>,
    offers: ReadonlyMap<string, StoredOffer>,
    onTrains?: readonly OnTrain[],
    passUses?: readonly PassUse[],
  ): Decided<{ booking: Booking; response: Record<string, unknown> }>;
  /** POST /bookings/{id}/fulfillment: the confirmed booking (unchanged when it already was). */
  confirm(call: Call, booking: Booking): Decided<Booking>;
  /** PATCH /bookings/{id}/passengers/{passengerId}, …/purchaser, /bookings/{id}: the changed booking. */
  patchPassenger(call: Call, booking: Booking, passengerId: string, body: unknown): Decided<Booking>;
  patchPurchaser(call: Call, booking: Booking, body: unknown): Decided<Booking>;
  /** PATCH /bookings/{id}, first phase: the patch validated; with place selections, the caller loads the bookings on its trains. */
  readBookingPatch(body: unknown): { patch: BookingPatch; placeSelections: boolean };
  patchBooking(call: Call, booking: Booking, patch: BookingPatch, onTrains?: readonly OnTrain[]): Decided<Booking>;
  /** GET passenger / purchaser: PassengerResponse and PurchaserResponse bodies. */
  renderPassenger(booking: Booking, passengerId: string, language: Language): Record<string, unknown> | undefined;
  renderPurchaser(booking: Booking, language: Language): Record<string, unknown> | undefined;
  /** Aftersales (spec §3, §4.1 rules 5, 6, 11, 12): each returns the changed booking and what to answer. */
  aftersales(
    call: Call,
    booking: Booking,
    command: AftersalesCommand,
  ): Decided<{ booking: Booking; response?: Record<string, unknown>; outcome: AftersalesOutcome }>;
  /** POST /bookings/{id}/exchange-offers, first phase: the request validated, and its trains and travel passes to load. */
  readExchangeOfferRequest(body: unknown): { request: ExchangeOfferRequest; trains: string[]; travelPasses: string[] };
  /** POST /bookings/{id}/exchange-offers: exchange offers to store (the booking is unchanged) and the response. */
  exchangeOffers(
    call: Call,
    booking: Booking,
    request: ExchangeOfferRequest,
    onTrains?: readonly OnTrain[],
    passUses?: readonly PassUse[],
  ): Decided<{ offers: StoredOffer[]; response: Record<string, unknown> }>;
  /** POST /bookings/{id}/exchange-operations, first phase: the request validated, and the exchange offers it names. */
  readExchangeOperationRequest(body: unknown): { request: ExchangeOperationRequest; offerIds: string[] };
  /**
   * POST /bookings/{id}/exchange-operations: the booking with the pre-booked exchange, given the exchange offers
   * named and what the bookings on the new trip's trains hold (`onTrains`).
   */
  exchangeOperation(
    call: Call,
    booking: Booking,
    request: ExchangeOperationRequest,
    offers: ReadonlyMap<string, StoredOffer>,
    onTrains?: readonly OnTrain[],
    passUses?: readonly PassUse[],
  ): Decided<{ booking: Booking; response: Record<string, unknown> }>;
  /** Validates the query of the availability endpoints (CONTRACT §6, spec §4.1 rule 3). */
  readAvailabilityQuery(query: unknown): AvailabilityQuery;
  /**
   * GET /availabilities, …/preferences, …/place-map (spec §2.11): for the offer or booking the query names
   * (loaded by the caller, `found`) and the bookings on its train (`onTrains`).
   */
  availability(
    call: Call,
    kind: AvailabilityKind,
    query: AvailabilityQuery,
    found: { offer?: StoredOffer; booking?: Booking },
    onTrains: readonly OnTrain[],
  ): Decided<Record<string, unknown>>;
  /** GET /coach-layouts/{layoutId}: the CoachLayoutResponse, or undefined for an unknown id. */
  coachLayout(layoutId: string): Record<string, unknown> | undefined;
  /**
   * The booking as it stands at `now`, for reading: an exchange operation past its time limit has expired and
   * the original parts travel again (spec §3). Nothing is stored; the next change stores it so.
   */
  asOf(call: Call, booking: Booking): Booking;
  /** Spec §4.1 rule 8: the booking with the operator's after-sales override profile set or taken away. */
  setAfterSalesOverride(booking: Booking, on: boolean): Booking;
  /** Whether a provisional booking's time limit has passed at `now`. */
  isExpired(booking: Booking, now: Date): boolean;
  /** Where a confirmed booking's cleanup window closes (rules/cleanup.yaml); undefined before confirmation. */
  cleanupWindowEnd(booking: Booking): string | undefined;
  renderBooking(booking: Booking, language: Language, warnings?: Warning[]): Record<string, unknown>;
  renderFulfillment(booking: Booking, fulfillmentId: string, language: Language): Record<string, unknown> | undefined;
  /** The Problem body for a rule violation, in the caller's language. */
  problem(error: RuleViolation, language: Language, instance?: string): Problem;
  /** Evaluates one decision and explains every row (`signalbox explain`); facts that do not fit throw FactsError. */
  explain(decision: string, facts: unknown): Explanation;
}

export function createEngine(options: EngineOptions = {}): Engine {
  const rules = options.rules ?? loadRules(options.rulesDir);
  const ticketKey = options.ticketKey ?? 'signalbox-sandbox-ticket-key';
  const context = (call: Call): Context => makeContext(rules, call.requestor, call.now, call.ids, ticketKey, call.soldPasses);
  const traced = <T>(ctx: Context, run: () => T): Decided<T> => {
    try {
      return { value: run(), traces: ctx.traces };
    } catch (e) {
      if (e instanceof RuleViolation && e.traces.length === 0 && ctx.traces.length > 0) {
        throw new RuleViolation(e.code, e.params, e.pointers, ctx.traces);
      }
      throw e;
    }
  };
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

  const engine: Engine = {
    rules,
    readOfferRequest(call, body) {
      const ctx = context(call);
      return traced(ctx, () => {
        const request = readOfferRequest(ctx, body);
        // The passengers are echoed as sent, not as read (reading fills in defaults such as `cards: []`), the spec's
        // `Age` in OSDM's name.
        const sentPassengers = (body as Pick<OfferCollection, 'anonymousPassengerSpecifications'>).anonymousPassengerSpecifications.map(asOsdmAge);
        return { request, sentPassengers, trains: trainKeysOfOfferRequest(request, rules.calendar), travelPasses: travelPassesOfOfferRequest(request) };
      });
    },
    decideOffers(call, read, onTrains = [], passUses = []) {
      const ctx = context(call);
      // One command, one trace: the decisions of reading it come first.
      ctx.traces.push(...read.traces);
      return traced(ctx, () => {
        const warnings: Warning[] = [];
        const offers = createOffers(ctx, read.value.request, holdingsOf(onTrains, call.now), passUses, warnings);
        return {
          offers,
          response: Object.assign(
            renderOfferCollection(rules, offers, call.requestor.language, read.value.sentPassengers),
            renderWarnings(warnings, call.requestor.language),
          ),
        };
      });
    },
    offers(call, body) {
      return engine.decideOffers(call, engine.readOfferRequest(call, body));
    },
    readBookingRequest(body) {
      const request = readBookingRequest(body);
      return { request, offerIds: request.offers.map((o) => o.offerId) };
    },
    book(call, request, offers, onTrains = [], passUses = []) {
      const ctx = context(call);
      return traced(ctx, () => {
        // `onTrains`: the bookings on the offer's trains (the service loads them), whose places are taken.
        const { booking, warnings } = createBooking(ctx, request, offers, holdingsOf(onTrains, call.now), passUses);
        return { booking, response: engine.renderBooking(booking, call.requestor.language, warnings) };
      });
    },
    confirm(call, booking) {
      const ctx = context(call);
      // Spec §3: confirming a confirmed booking confirms its pre-booked exchange, if any; otherwise nothing changes.
      return traced(ctx, () => (isConfirmed(booking.machine.value) ? confirmPendingExchange(ctx, booking) : confirmBooking(ctx, booking)));
    },
    patchPassenger(call, booking, passengerId, body) {
      const ctx = context(call);
      return traced(ctx, () => patchPassenger(ctx, booking, passengerId, body));
    },
    patchPurchaser(call, booking, body) {
      const ctx = context(call);
      return traced(ctx, () => patchPurchaser(ctx, booking, body));
    },
    readBookingPatch(body) {
      const patch = parseRequest(BookingPatch, body);
      return { patch, placeSelections: patch.placeSelections !== undefined };
    },
    patchBooking(call, booking, patch, onTrains = []) {
      const ctx = context(call);
      return traced(ctx, () => patchBooking(ctx, booking, patch, holdingsOf([...onTrains.filter((b) => bookingIdOf(b) !== booking.id), booking], call.now)));
    },
    renderPassenger(booking, passengerId, language) {
      const passenger = (renderBooking(rules, booking, language)['passengers'] as Array<{ id: string }>).find((p) => p.id === passengerId);
      return passenger ? { passenger } : undefined;
    },
    renderPurchaser(booking, language) {
      const purchaser = renderBooking(rules, booking, language)['purchaser'];
      return purchaser ? { purchaser } : undefined;
    },
    aftersales(call, booking, command) {
      const ctx = context(call);
      return traced(ctx, () => runAftersales(ctx, booking, command));
    },
    readExchangeOfferRequest(body) {
      const request = parseRequest(ExchangeOfferRequest, body);
      return { request, trains: trainKeysOfOfferRequest(request, rules.calendar), travelPasses: travelPassesOfOfferRequest(request) };
    },
    exchangeOffers(call, booking, request, onTrains = [], passUses = []) {
      const ctx = context(call);
      return traced(ctx, () => {
        // The booking's own journeys give their passes back when exchanged: only other bookings' uses count.
        const offers = createExchangeOffers(
          ctx,
          expireOperations(ctx, booking),
          request,
          holdingsOf(onTrains, call.now),
          passUses.filter((u) => u.bookingId !== booking.id),
        );
        return { offers, response: { exchangeOffers: offers.map((o) => renderExchangeOffer(rules, booking, o, call.requestor.language)) } };
      });
    },
    readExchangeOperationRequest(body) {
      const request = parseRequest(ExchangeOperationRequest, body);
      return { request, offerIds: request.exchangeOffers.map((o) => o.offerId) };
    },
    exchangeOperation(call, booking, request, offers, onTrains = [], passUses = []) {
      const ctx = context(call);
      return traced(ctx, () => {
        const next = createExchangeOperation(
          ctx,
          expireOperations(ctx, booking),
          request,
          offers,
          holdingsOf(
            onTrains.filter((b) => bookingIdOf(b) !== booking.id),
            call.now,
          ),
          passUses,
        );
        return {
          booking: next,
          response: { exchangeOperation: renderExchangeOperation(rules, next, next.exchangeOperations!.at(-1)!, call.requestor.language) },
        };
      });
    },
    isExpired,
    cleanupWindowEnd: (booking) => cleanupWindowEnd(rules, booking),
    setAfterSalesOverride(booking, on) {
      const { afterSalesOverride: _, ...rest } = booking;
      return on ? { ...rest, afterSalesOverride: true } : rest;
    },
    asOf(call, booking) {
      return expireOperations(context(call), booking);
    },
    readAvailabilityQuery,
    availability(call, kind, query, found, onTrains) {
      const ctx = context(call);
      return traced(ctx, () => {
        const subject = subjectOf(ctx, query, found);
        return kind === 'place-map'
          ? renderPlaceMap(ctx, subject, onTrains)
          : kind === 'counts'
            ? renderCounts(ctx, subject, onTrains)
            : renderPreferences(ctx, subject, onTrains);
      });
    },
    coachLayout: (layoutId) => renderCoachLayout(rules, layoutId),
    renderBooking(booking, language, warnings = []) {
      return { booking: renderBooking(rules, booking, language), ...renderWarnings(warnings, language) };
    },
    renderFulfillment(booking, fulfillmentId, language) {
      const f = booking.fulfillments.find((x) => x.id === fulfillmentId);
      return f ? { fulfillment: renderFulfillment(booking, f, language) } : undefined;
    },
    problem(error, language, instance) {
      return renderProblem(rules.errors, language, limitPointers(error, rules.limits.problemPointerLimit), instance, rules.texts);
    },
    explain(decision, facts) {
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
  return engine;
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
export { decodeStoredBooking } from './model/records.ts';
export type { Booking, Leg, StoredOffer, Requestor, IdSource, Money, PlaceAllocation, SoldPass, Warning } from './model/records.ts';
export type { Language } from './rules/schemas.ts';
export type { AftersalesCommand, AftersalesOutcome } from './aftersales/commands.ts';
export { trainKey, trainKeysOfBooking, trainKeysOfTrip } from './model/train.ts';
export { trainHoldingsOf } from './holdings/place-holdings.ts';
export { passUsesOf, passesOfBooking, travelPassesOfOffers, ridesTaken, type PassUse } from './holdings/pass-uses.ts';
export { soldPassEntries, soldPassKey, soldPassKeysOf } from './holdings/sold-passes.ts';
export type { Holding, OnTrain, TrainHoldings } from './holdings/place-holdings.ts';
export { AvailabilityQuery } from './seats/availability.ts';
export { ExchangeOfferRequest, ExchangeOperationPatch, ExchangeOperationRequest } from './aftersales/exchange.ts';
export * from './customers/lookup.ts'; // Customer API lookups (engine.rules.customers) and pass facts for the rules
