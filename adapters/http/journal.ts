import type { FastifyInstance } from 'fastify';
import type { DecisionTrace } from '../../engine/index.ts';
import type { Limits } from '../../engine/rules/schemas.ts';
import type { JournalEntry } from './openapi/studio-schemas.ts';

/**
 * The sandbox's request journal, as WireMock keeps one: the latest requests to this server with what was sent,
 * what was answered and the rule traces behind the answer, so an integrator sees why a price or an error came.
 * A ring of `studioJournalSize` (rules/limits.yaml) entries; only on a sandbox, so a production server pays nothing.
 * It keeps references to what the request already holds (the parsed body, the answer's text), copying nothing.
 */

/** Headers worth reading back; the Authorization header's token is never kept. */
const SHOWN_HEADERS = ['accept', 'accept-language', 'content-type', 'requestor', 'x-request-id', 'authorization'];

interface Raw {
  id: string;
  at: string;
  method: string;
  url: string;
  status: number;
  ms: number;
  headers: Record<string, string>;
  body: unknown;
  contentType?: string;
  payload: unknown;
  traces: readonly DecisionTrace[];
}

export interface RequestJournal {
  list(): JournalEntry[];
  readonly size: number;
}

/** Records every answer but the studio's own and the sandbox trace look-ups; `size` is read per request (reloads). */
export function recordRequests(
  app: FastifyInstance,
  limits: () => Pick<Limits, 'studioJournalSize' | 'studioJournalBodyCharacters'>,
  now: () => Date,
): RequestJournal {
  const ring: Raw[] = [];
  app.addHook('onSend', (request, reply, payload, done) => {
    const url = request.url;
    if (url.startsWith('/studio') || url.startsWith('/sandbox/traces/')) return done(null, payload);
    const headers: Record<string, string> = {};
    for (const h of SHOWN_HEADERS) {
      const v = request.headers[h];
      if (typeof v === 'string') headers[h] = h === 'authorization' ? v.replace(/^(\w+)\s+.*$/, '$1 …') : v;
    }
    const type = reply.getHeader('content-type');
    ring.push({
      id: request.id,
      at: now().toISOString(),
      method: request.method,
      url,
      status: reply.statusCode,
      ms: reply.elapsedTime,
      headers,
      body: withoutSecret(request.body),
      ...(typeof type === 'string' ? { contentType: type } : {}),
      payload,
      traces: request.traces ?? [],
    });
    const max = limits().studioJournalSize;
    if (ring.length > max) ring.splice(0, ring.length - max);
    done(null, payload);
  });
  return {
    get size() {
      return limits().studioJournalSize;
    },
    list: () =>
      ring
        .slice()
        .reverse()
        .map((r) => ({
          id: r.id,
          at: r.at,
          method: r.method,
          url: r.url,
          status: r.status,
          ms: Math.round(r.ms * 10) / 10,
          request: { headers: r.headers, ...(r.body !== undefined ? { body: r.body } : {}) },
          response: {
            ...(r.contentType ? { contentType: r.contentType } : {}),
            ...(typeof r.payload === 'string' ? { body: readable(r.payload, limits().studioJournalBodyCharacters, r.contentType) } : {}),
          },
          traces: [...r.traces],
        })),
  };
}

/** A token request's client secret is never kept (as the logs redact it). */
function withoutSecret(body: unknown): unknown {
  if (!body || typeof body !== 'object' || !('client_secret' in body)) return body;
  return { ...body, client_secret: '…' };
}

/** JSON answers as JSON; others (HTML, cut ones) as text. Longer answers are cut: the journal is for reading, and the ring must stay small in memory. */
function readable(text: string, most: number, contentType?: string): unknown {
  if (text.length > most) return `${text.slice(0, most)}… (${text.length} characters)`;
  if (contentType && /json/.test(contentType)) {
    try {
      const value = JSON.parse(text) as unknown;
      // A token answer's token would let whoever reads the journal act as that client.
      return value && typeof value === 'object' && 'access_token' in value ? { ...value, access_token: '…' } : value;
    } catch {
      return text;
    }
  }
  return text;
}
