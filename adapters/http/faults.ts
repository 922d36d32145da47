import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { phrase, RuleViolation } from '../../engine/index.ts';
import { type Limits, durationMs } from '../../engine/rules/index.ts';
import type { InjectedFaults } from '../service/faults.ts';
import { keyOf, type Operation } from './operations/operation.ts';

/**
 * Faults on demand (docs/api-and-integration.md#faults-on-demand): a request to a `--sandbox` server names in this
 * header the fault it wants answered, `X-Sandbox-Fault: <name>[;<parameter>=<value>]`, several separated by commas.
 * Chosen per request, so scenarios and integrators' tests on a shared server never arm a fault for somebody else.
 * A server without `--sandbox` never reads the header: production ignores it, as the operator's API would.
 */
const FAULT_HEADER = 'X-Sandbox-Fault';

const CONFIRM = ['POST /v3/bookings/{bookingId}/fulfillment', 'POST /v3/bookings/{bookingId}/fulfillments'];
const CREATE_OR_PATCH = ['POST /v3/booking', 'POST /v3/bookings', 'PATCH /v3/bookings/{bookingId}'];

/** The limits faults read (rules/limits.yaml sandboxFaults). */
type FaultLimits = Pick<Limits, 'sandboxFaults'>;

interface FaultKind {
  /** What /openapi.json says of it. */
  summary: string;
  /**
   * Its one integer parameter, the range it may take and its value when the request names none (none: required).
   * The bounds the operator chooses come from rules/limits.yaml; a number here is the mechanism's own (no negative
   * wait, no pending of no time).
   */
  parameter?: {
    name: string;
    min: (limits: FaultLimits) => number;
    max: (limits: FaultLimits) => number;
    fallback?: (limits: FaultLimits) => number;
  };
  /** The operations (`keyOf`) it applies to; `/v3/*` every Reseller API operation, `*` every request. */
  where: readonly string[];
  /** What the service injects for it, given its parameter (or the parameter's fallback, rules/limits.yaml). */
  inject?: (value: number | undefined) => InjectedFaults;
}

const seconds = (iso: string) => Math.round(durationMs(iso) / 1000);

/** Every fault, by the name the header gives it. */
const FAULTS: Readonly<Record<string, FaultKind>> = {
  'place-taken': {
    summary:
      'the exact places selected (placeSelections[].places) are taken by somebody else just before allocation: a booking gets other places and the warning X_PLACE_NOT_AVAILABLE, a patch 86035 and keeps its places (spec §2.10 rule 3)',
    where: CREATE_OR_PATCH,
    inject: () => ({ placeTaken: true }),
  },
  'price-changed': {
    summary:
      'the price moves by `percent` just before confirmation: 409 X_PRICE_CHANGED, the booking stays provisional at the new price; confirm again to buy at it',
    parameter: {
      name: 'percent',
      min: (limits) => limits.sandboxFaults.percentMin,
      max: (limits) => limits.sandboxFaults.percentMax,
      fallback: (limits) => limits.sandboxFaults.priceChangePercent,
    },
    where: CONFIRM,
    inject: (percent) => ({ priceChanged: { percent: percent! } }),
  },
  'fulfillment-pending': {
    summary:
      'the tickets are issued `seconds` (sandbox clock) after the confirmation: meanwhile GET /v3/bookings/{bookingId} shows parts and fulfillments CONFIRMED without control numbers (spec §4.1 rule 1); the OSDM form answers 202',
    parameter: {
      name: 'seconds',
      min: () => 1,
      max: (limits) => seconds(limits.sandboxFaults.pendingMax),
      fallback: (limits) => seconds(limits.sandboxFaults.fulfillmentPending),
    },
    where: CONFIRM,
    inject: (s) => ({ fulfillmentPending: { seconds: s! } }),
  },
  'technical-failure': {
    summary:
      'just after confirming, the operator rolls the booking back: a confirmed refund offer with overrule code TECHNICAL_FAILURE refunds every ticket in full (spec §4.1 rule 6); fulfillments REFUNDED, parts CANCELLED',
    where: CONFIRM,
    inject: () => ({ technicalFailure: true }),
  },
  unavailable: {
    summary: '503 SERVICE_UNAVAILABLE with `Retry-After: <retry-after>` seconds, before anything else is checked',
    parameter: {
      name: 'retry-after',
      min: () => 0,
      max: (limits) => seconds(limits.sandboxFaults.retryAfterMax),
      fallback: (limits) => seconds(limits.sandboxFaults.retryAfter),
    },
    where: ['/v3/*'],
  },
  delay: {
    summary: 'the answer comes `ms` milliseconds later; combines with the others',
    parameter: { name: 'ms', min: () => 0, max: (limits) => durationMs(limits.sandboxFaults.delayMax) },
    where: ['*'],
  },
};

const appliesTo = (kind: FaultKind, op: Operation | undefined, path: string) =>
  kind.where.some((w) => w === '*' || (w === '/v3/*' ? path.startsWith('/v3/') : op !== undefined && w === keyOf(op)));

/** The faults that apply to an operation, for its X-Sandbox-Fault parameter in /openapi.json (none: no parameter). */
export function faultsOf(op: Operation): string[] {
  return Object.entries(FAULTS)
    .filter(([, kind]) => appliesTo(kind, op, op.path))
    .map(([name]) => name);
}

/** The header parameter /openapi.json gives an operation of a sandbox server, listing the faults that apply to it. */
export function faultParameter(op: Operation, limits: FaultLimits): Record<string, unknown> | undefined {
  const names = faultsOf(op);
  if (names.length === 0) return undefined;
  const syntax = ({ parameter: p }: FaultKind) =>
    p ? `;${p.name}=N\` (${p.min(limits)}…${p.max(limits)}${p.fallback ? `; ${p.fallback(limits)} when left out` : ''})` : '`';
  const lines = names.map((n) => `- \`${n}${syntax(FAULTS[n]!)}: ${FAULTS[n]!.summary}`);
  return {
    name: FAULT_HEADER,
    in: 'header',
    required: false,
    schema: { type: 'string', examples: [names[0] === 'delay' ? 'delay;ms=500' : names[0]] },
    description: [
      'Sandbox only (`signalbox serve --sandbox`; a server without it ignores the header): answer this request with a fault, ' +
        'as the operator would. Several are separated by commas. An unknown fault, one that does not apply here or a ' +
        'parameter out of range → 400 86001 at `header:X-Sandbox-Fault`. Here:',
      ...lines,
    ].join('\n'),
  };
}

interface Requested {
  name: string;
  kind: FaultKind;
  value?: number;
}

const refuse = (reason: ReturnType<typeof phrase>) => new RuleViolation('86001', { reason }, [{ requestPointer: `header:${FAULT_HEADER}` }]);

/** Reads the header: `name[;parameter=value]`, comma-separated; refuses what does not exist or does not apply here. */
function readFaults(header: string, op: Operation | undefined, path: string, method: string, limits: FaultLimits): Requested[] {
  return header
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((item) => {
      const [name = '', ...params] = item.split(';').map((s) => s.trim());
      const kind = FAULTS[name];
      if (!kind) throw refuse(phrase('fault-unknown', { fault: name, faults: Object.keys(FAULTS).join(', ') }));
      if (!appliesTo(kind, op, path)) {
        throw refuse(phrase('fault-not-here', { fault: name, operation: `${method} ${path}`, where: kind.where.join(', ') }));
      }
      const takes = kind.parameter ? `${kind.parameter.name}=${kind.parameter.min(limits)}…${kind.parameter.max(limits)}` : '-';
      if (params.length === 0) {
        if (kind.parameter && !kind.parameter.fallback) throw refuse(phrase('fault-parameter', { fault: name, parameters: takes, given: '-' }));
        return { name, kind, ...(kind.parameter?.fallback ? { value: kind.parameter.fallback(limits) } : {}) };
      }
      const [key, text] = params[0]!.split('=').map((s) => s.trim());
      const value = Number(text);
      if (!kind.parameter || params.length > 1 || key !== kind.parameter.name || !/^-?\d+$/.test(text ?? '') || value < kind.parameter.min(limits)) {
        throw refuse(phrase('fault-parameter', { fault: name, parameters: takes, given: params.join(';') }));
      }
      if (value > kind.parameter.max(limits)) {
        throw refuse(
          name === 'delay'
            ? phrase('fault-too-long', { max: kind.parameter.max(limits) })
            : phrase('fault-parameter', { fault: name, parameters: takes, given: params.join(';') }),
        );
      }
      return { name, kind, value };
    });
}

/**
 * A sandbox server's faults on demand: before anything else (the caller's credentials included, as a gateway in
 * front of the operator's API answers), the header is read; `delay` waits, `unavailable` answers 503, and the faults
 * of an operation are kept on `request.faults` for its handler to give the service.
 */
export function registerFaults(app: FastifyInstance): void {
  app.decorateRequest('faults', null);
  app.addHook('onRequest', async (request: FastifyRequest, reply) => {
    const header = request.headers[FAULT_HEADER.toLowerCase()];
    if (header === undefined) return;
    const limits = app.engine.rules.limits;
    const path = request.url.split('?')[0]!;
    const op = app.routeTable.operationOfRoute(request.method, request.routeOptions.url ?? '');
    const requested = readFaults([header].flat().join(','), op, path, request.method, limits);
    const delay = requested.find((f) => f.name === 'delay');
    if (delay?.value) await sleep(delay.value);
    const unavailable = requested.find((f) => f.name === 'unavailable');
    if (unavailable) {
      const retryAfter = unavailable.value!;
      reply.header('retry-after', String(retryAfter));
      throw new RuleViolation('SERVICE_UNAVAILABLE', { retryAfter });
    }
    request.faults = Object.assign({}, ...requested.map((f) => f.kind.inject?.(f.value) ?? {})) as InjectedFaults;
  });
}
