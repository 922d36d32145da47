import { randomFillSync } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { destination, pino, type DestinationStream, type Logger } from 'pino';

/**
 * Structured JSON logs (pino, through Fastify) and W3C Trace Context (https://www.w3.org/TR/trace-context/).
 *
 * Every line a request logs carries `reqId` (also answered as `x-request-id`), `traceId` and `spanId`. An incoming
 * `traceparent` keeps its trace-id (its parent-id is logged as `parentSpanId`); without a valid one a new trace
 * starts. Each answer carries `traceparent: 00-<trace-id>-<our span id>-<flags>`, so a reseller can find our lines
 * for its call.
 *
 * Secrets never reach a log: requests are logged with an allow-list of headers (never Authorization nor
 * Ocp-Apim-Subscription-Key), secret query parameters are masked in the url, and pino's redaction censors the
 * same fields wherever code logs them explicitly (a header object, a token form with `client_secret`).
 */
export interface TraceContext {
  traceId: string;
  /** Our span: the parent-id of whatever we would call, and what the answer's traceparent names. */
  spanId: string;
  /** The caller's span, when it sent a valid traceparent. */
  parentSpanId?: string;
  flags: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/** A valid traceparent's parts, or undefined (then a new trace starts, as the W3C recommendation says). */
export function parseTraceparent(header: string | undefined): { traceId: string; parentSpanId: string; flags: string } | undefined {
  const m = header === undefined ? null : TRACEPARENT.exec(header.trim());
  if (!m) return undefined;
  const [, version, traceId, parentSpanId, flags, rest] = m as unknown as [string, string, string, string, string, string | undefined];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(parentSpanId)) return undefined;
  return { traceId, parentSpanId, flags };
}

const contexts = new WeakMap<IncomingMessage, TraceContext>();

/** Random bytes drawn from the system a few kilobytes at a time, not on every request. */
const entropy = Buffer.alloc(4096);
let drawn = entropy.length;

/** `bytes` random bytes as lower-case hex (a trace id is 16, a span id 8; all zeros cannot come out in practice). */
function randomHex(bytes: number): string {
  if (drawn + bytes > entropy.length) {
    randomFillSync(entropy);
    drawn = 0;
  }
  drawn += bytes;
  return entropy.toString('hex', drawn - bytes, drawn);
}

/** The trace context of a request, made once per request (the child logger and the hooks ask for it). */
export function traceOf(raw: IncomingMessage): TraceContext {
  let context = contexts.get(raw);
  if (!context) {
    const header = raw.headers['traceparent'];
    const incoming = parseTraceparent(Array.isArray(header) ? header[0] : header);
    const spanId = randomHex(8);
    context = incoming
      ? { traceId: incoming.traceId, spanId, parentSpanId: incoming.parentSpanId, flags: incoming.flags }
      : { traceId: randomHex(16), spanId, flags: '00' };
    contexts.set(raw, context);
  }
  return context;
}

export const traceparentOf = (context: TraceContext) => `00-${context.traceId}-${context.spanId}-${context.flags}`;

/** What every line a request logs names of its trace. */
export const traceFields = (context: TraceContext) =>
  context.parentSpanId
    ? { traceId: context.traceId, spanId: context.spanId, parentSpanId: context.parentSpanId }
    : { traceId: context.traceId, spanId: context.spanId };

/** The headers a request is logged with. Anything else (Authorization, Ocp-Apim-Subscription-Key, cookies) is left out. */
const LOGGED_HEADERS = [
  'user-agent',
  'content-type',
  'content-length',
  'content-encoding',
  'accept',
  'accept-encoding',
  'accept-language',
  'requestor',
  'traceparent',
  'x-request-id',
];

/** Query parameters whose value is masked in a logged url. */
const SECRET_QUERY = /([?&](?:client_secret|client_assertion|access_token|token|password|secret|subscription-key|ocp-apim-subscription-key|code)=)[^&#]*/gi;

const maskUrl = (url: string) => url.replace(SECRET_QUERY, '$1[redacted]');

/** Paths pino censors wherever they appear in a logged object. */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["ocp-apim-subscription-key"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["ocp-apim-subscription-key"]',
  'headers.cookie',
  '*.headers.authorization',
  '*.headers["ocp-apim-subscription-key"]',
  'authorization',
  'client_secret',
  '*.client_secret',
  '*.*.client_secret',
  'access_token',
  '*.access_token',
];

/** The Problem code each answer carried, so the "request completed" line names it (`code`). */
export const problemCodes = new WeakMap<ServerResponse, string>();

interface LoggedRequest {
  method?: string;
  url?: string;
  hostname?: string;
  ip?: string;
  headers?: Record<string, string | string[] | undefined>;
  raw?: IncomingMessage;
}

/**
 * The pino options of the server's logger, with whatever the caller gave (level, stream, …) on top.
 *
 * Without a stream of the caller's, lines go to stdout asynchronously: a write is in flight while the next lines
 * gather, so a busy server makes one write for many lines instead of one blocking write per line. Lines still
 * buffered when the process exits are written then (pino flushes its destinations on exit).
 */
export function loggerOptions(given: boolean | object | undefined): false | Record<string, unknown> {
  if (!given) return false;
  const custom = given === true ? {} : (given as Record<string, unknown>);
  return {
    level: 'info',
    ...(custom['stream'] ? {} : { stream: destination({ dest: 1, sync: false }) }),
    // ISO time and level names make the lines readable without pino-pretty.
    timestamp: () => `,"time":"${new Date().toISOString()}"`,
    formatters: { level: (label: string) => ({ level: label }) },
    ...custom,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      req(request: LoggedRequest) {
        const headers = request.headers ?? request.raw?.headers ?? {};
        return {
          method: request.method,
          url: maskUrl(request.url ?? ''),
          hostname: request.hostname,
          remoteAddress: request.ip,
          headers: Object.fromEntries(LOGGED_HEADERS.filter((h) => headers[h] !== undefined).map((h) => [h, headers[h]])),
        };
      },
      res(reply: { statusCode?: number; raw?: ServerResponse }) {
        const code = reply.raw ? problemCodes.get(reply.raw) : undefined;
        return { statusCode: reply.statusCode, ...(code ? { code } : {}) };
      },
      ...(custom['serializers'] ?? {}),
    },
  };
}

/**
 * The server's loggers on one destination: `root`, Fastify's, which redacts every line (REDACTED_PATHS), and `lines`,
 * the same without redaction, for the one line per request whose fields the serializers above allow-list.
 */
export function serverLoggers(options: Record<string, unknown>): { root: Logger; lines: Logger } {
  const { stream, redact, ...plain } = options as { stream: DestinationStream; redact: unknown };
  return { root: pino({ ...plain, redact } as object, stream), lines: pino(plain, stream) };
}

/**
 * A request's logger, made only when something is logged for the request. Most requests log only their "request
 * completed" line, which needs none; making a pino child for every request costs more than that line. A class, so
 * that a request pays for one object rather than a closure per level.
 */
class LazyChild {
  #child: FastifyBaseLogger | undefined;
  private readonly make: () => FastifyBaseLogger;
  constructor(make: () => FastifyBaseLogger) {
    this.make = make;
  }
  get real(): FastifyBaseLogger {
    return (this.#child ??= this.make());
  }
  get level() {
    return this.real.level;
  }
  set level(value: string) {
    this.real.level = value;
  }
  child(bindings: Record<string, unknown>, options?: object) {
    return this.real.child(bindings, options);
  }
}
// One method per level on the prototype, each handing its arguments to the real logger.
for (const name of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const)
  Object.defineProperty(LazyChild.prototype, name, {
    value(this: LazyChild, ...args: unknown[]) {
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- pino's LogFn is overloaded: spreading needs one signature
      (this.real[name] as (...a: unknown[]) => void)(...args);
    },
  });

export const lazyChild = (make: () => FastifyBaseLogger): FastifyBaseLogger => new LazyChild(make) as unknown as FastifyBaseLogger;
