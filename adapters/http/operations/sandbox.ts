import { z } from 'zod';
import { IsoDuration, DATE_TIME_WITH_OFFSET, durationMs, isRealInstant, parseRequest } from '../../../engine/rules/index.ts';
import { phrase, RuleViolation } from '../../../engine/index.ts';
import * as S from '../openapi/schemas.ts';
import { json, operation, type Operation } from './operation.ts';
import { BOOKING_MOMENTS } from '../../service/service.ts';

/**
 * `freeze: true` (our addition to CONTRACT §8) stops the clock at that instant until the next change
 * without it, so a scenario run against a live server sees the exact instants it sees in-process; `freeze` alone
 * stops or resumes it where it is.
 */
export const ClockChange = z.union([
  z.strictObject({
    now: z
      .string()
      .regex(DATE_TIME_WITH_OFFSET, { error: 'an ISO 8601 date-time with offset', abort: true })
      .refine(isRealInstant, 'not a real instant (a day, hour or offset out of range)'),
    freeze: z.boolean().optional(),
  }),
  z.strictObject({ advance: IsoDuration, freeze: z.boolean().optional() }),
  // Freezing or resuming alone leaves the time where it is: `{"freeze": false}` after a live scenario run.
  z.strictObject({ freeze: z.boolean() }),
]);

/**
 * Spec §4.1 rule 8: the operator may give a booking an after-sales override profile, after which ordinary refund
 * and exchange requests succeed without overrule codes, even for non-refundable, non-exchangeable tickets. The
 * operator's own tools set it; in the sandbox this control does (our addition to CONTRACT §8).
 */
const AfterSalesOverrideChange = z.strictObject({
  afterSalesOverride: z.boolean().describe('true: the booking may be refunded in full and exchanged whatever its tickets allow.'),
});

/** Sandbox time travel (our addition to CONTRACT §8): the moments of a booking a team may jump to. */
const TimeTravel = z.strictObject({
  to: z.enum(BOOKING_MOMENTS).describe("The booking's confirmationTimeLimit, its first departure, or the end of its cleanup window (a confirmed booking)."),
});

/** 10000-01-01T00:00:00Z: from here on toISOString() writes a six-digit year no date-time pattern accepts. */
const LAST_WRITABLE_INSTANT = Date.UTC(10000, 0, 1);

/** Sandbox controls (CONTRACT §8), registered only with --sandbox. */
export const sandbox: Operation[] = [
  operation({
    method: 'GET',
    path: '/sandbox/clock',
    summary: "Read the caller's sandbox clock",
    section: 'CONTRACT §8',
    tag: 'Sandbox',
    access: 'sandbox',
    description:
      "With a token, the time the caller's requests are decided at: its own clock once it has moved it, else the server's. Without one, the server's.",
    responses: { 200: json('The sandbox time.', S.SandboxClock) },
    problems: { 401: 'UNAUTHORIZED: a token was sent, and it is not valid' },
    handle: async ({ service, request, client }) => {
      const clock = request.headers.authorization ? service.clocks.of(await client()) : service.clock;
      return { body: { now: clock.now().toISOString() } };
    },
  }),
  operation({
    method: 'POST',
    path: '/sandbox/clock',
    summary: "Set, advance, freeze or resume the caller's sandbox clock",
    section: 'CONTRACT §8',
    tag: 'Sandbox',
    access: 'sandbox-client',
    description:
      'Every TTL, expiry and "24 hours before departure" rule reads this clock; token lifetimes do not. Each client has a clock of its own (our addition to CONTRACT §8): moving it changes nothing for another client on the same sandbox.',
    request: { schema: ClockChange, required: true },
    responses: { 200: json('The sandbox time after the change.', S.SandboxClock) },
    handle: async ({ service, client, body }) => {
      const change = parseRequest(ClockChange, body);
      const clock = service.clocks.own(await client())!;
      // The clock moves only to an instant every date in the engine can be written as (years 1970–9999); a refused
      // change leaves it where it was.
      const next = 'now' in change ? Date.parse(change.now) : clock.now().getTime() + ('advance' in change ? durationMs(change.advance) : 0);
      if (!(next >= 0 && next < LAST_WRITABLE_INSTANT)) {
        throw new RuleViolation('86001', { reason: phrase('clock-out-of-range') }, [{ requestPointer: 'now' in change ? '#/now' : '#/advance' }]);
      }
      // Frozen first, so the instant set or reached is the one kept, not one a millisecond later.
      if (change.freeze === true) clock.freeze!(true);
      if ('now' in change) clock.set!(new Date(next));
      else if ('advance' in change) clock.advance!(change.advance);
      if (change.freeze !== true) clock.freeze!(false);
      return { body: { now: clock.now().toISOString(), frozen: change.freeze === true } };
    },
  }),
  operation({
    method: 'POST',
    path: '/sandbox/bookings/{bookingId}/time-travel',
    summary: "Move the caller's clock to a moment of one of its bookings",
    section: 'CONTRACT §8 (our addition)',
    tag: 'Sandbox',
    access: 'sandbox-client',
    description:
      "To the booking's confirmation time limit, its first departure, or the end of its cleanup window (rules/cleanup.yaml), and frozen there: a team on a shared sandbox tries what happens then without moving anyone else's time. Only the caller's own bookings.",
    request: { schema: TimeTravel, required: true },
    responses: { 200: json("The caller's clock, now at that moment.", S.SandboxClock) },
    handle: async ({ service, client, params, body }) => {
      const { to } = parseRequest(TimeTravel, body);
      const owner = await client();
      const instant = await service.momentOf(owner, params.bookingId, to);
      const clock = service.clocks.own(owner)!;
      clock.freeze!(true);
      clock.set!(new Date(instant));
      return { body: { now: clock.now().toISOString(), frozen: true } };
    },
  }),
  operation({
    method: 'PUT',
    path: '/sandbox/bookings/{bookingId}/after-sales-override',
    summary: "Give a booking the operator's after-sales override profile, or take it away",
    section: 'spec §4.1 rule 8; CONTRACT §8 (our addition)',
    tag: 'Sandbox',
    access: 'sandbox',
    description:
      'With the override, refund offers refund in full without fee and exchanges are allowed even for tickets that are neither refundable nor exchangeable (rules/refund-fees.yaml, rules/exchange-guards.yaml), without overrule codes. Any booking, whoever sold it: the operator sets it.',
    request: { schema: AfterSalesOverrideChange, required: true },
    responses: { 200: json('The booking now has (or no longer has) the override.', S.SandboxAfterSalesOverride) },
    handle: async ({ service, params, body }) => {
      const { afterSalesOverride } = parseRequest(AfterSalesOverrideChange, body);
      await service.setAfterSalesOverride(params.bookingId, afterSalesOverride);
      return { body: { bookingId: params.bookingId, afterSalesOverride } };
    },
  }),
  operation({
    method: 'POST',
    path: '/sandbox/reset',
    summary: "Empty the caller's part of the store",
    section: 'CONTRACT §8',
    tag: 'Sandbox',
    access: 'sandbox-client',
    description:
      "The caller's bookings go, and its clock follows the server's again; its offers stay until they expire, and other clients' bookings stay (our addition to CONTRACT §8: a sandbox many teams share). An analyst's token empties the whole store, offers included, and every clock. Rules and reference data stay.",
    responses: { 200: json('Reset.', S.SandboxReset) },
    handle: async ({ service, client }) => {
      const owner = await client();
      if (service.engine.rules.clients.clients[owner]?.scopes.includes('analyst')) {
        await service.store.reset();
        service.clocks.forgetAll();
      } else {
        await service.store.reset(owner);
        service.clocks.forget(owner);
      }
      return { body: { status: 'reset' } };
    },
  }),
  operation({
    method: 'GET',
    path: '/sandbox/traces/{requestId}',
    summary: 'The rule traces behind a recent response',
    section: 'CONTRACT §8, §9',
    tag: 'Sandbox',
    access: 'sandbox',
    description: 'By the x-request-id of one of the last 500 responses; what `signalbox test --target` prints for a failing step.',
    responses: { 200: json('Traces', S.SandboxTraces) },
    // The server keeps them (server.ts, beside the hook that records them).
    handle: async ({ request, params }) => {
      const traces = request.server.recentTraces?.(params.requestId);
      if (!traces) throw new RuleViolation('RESOURCE_NOT_FOUND', { resource: phrase('resource-trace'), id: params.requestId });
      return { body: { requestId: params.requestId, traces } };
    },
  }),
];
