import type { FastifyInstance } from 'fastify';
import type { DecisionTrace, RuleSet } from '../../engine/index.ts';
import { recordOfEntry, type JournalRecord } from './journal-file.ts';
import type { JournalEntry } from './openapi/studio-schemas.ts';
import { RULES_RELEASE_HEADER } from './operations/operation.ts';
import { maskPersonalData } from './personal-data.ts';

/**
 * The sandbox's request journal, as WireMock keeps one: the latest requests to this server with what was sent,
 * what was answered and the rule traces behind the answer, so an integrator sees why a price or an error came.
 * A ring of `studioJournalSize` (rules/limits.yaml) entries; only on a sandbox, so a production server pays nothing.
 * It keeps references to what the request already holds (the parsed body, the answer's text), copying nothing.
 *
 * It holds every client's bookings and customer look-ups, so it is read with a token (docs/studio.md): a client reads
 * the requests it authenticated, as it sent them; an analyst reads them all with their personal data masked, unless
 * the operator started the server allowing it (`serve --journal-personal-data`).
 */

/** Headers worth reading back; the Authorization header's token is never kept. */
const SHOWN_HEADERS = ['accept', 'accept-language', 'content-type', 'requestor', 'x-sandbox-fault', 'x-request-id', 'authorization'];

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
  release?: string;
  payload: unknown;
  traces: readonly DecisionTrace[];
  client?: string | undefined;
}

/** Who reads: a client (its own requests) or an analyst (everyone's). */
type JournalReader = { client: string } | 'analyst';

export interface RequestJournal {
  list(reader: JournalReader): JournalEntry[];
  /**
   * Every request as a journal file's record (docs/replay.md), oldest first, its personal data and whole answers
   * kept: for the server's own replay of its traffic (a draft's evidence, which keeps counts, urls and prices of it),
   * never for an answer. Masked, a loyalty card's number or a birth date would price another fare.
   */
  records(): JournalRecord[];
  readonly size: number;
}

/** Records every answer but the studio's own and the sandbox trace look-ups; `size` is read per request (reloads). */
export function recordRequests(
  app: FastifyInstance,
  rules: () => Pick<RuleSet, 'limits' | 'cards'>,
  /** The instant a request by `client` is decided at: its own sandbox clock, once it moved it. */
  now: (client: string | undefined) => Date,
  options: { personalData: boolean },
): RequestJournal {
  const limits = () => rules().limits;
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
    const release = reply.getHeader(RULES_RELEASE_HEADER);
    ring.push({
      id: request.id,
      at: now(request.client).toISOString(),
      method: request.method,
      url,
      status: reply.statusCode,
      ms: reply.elapsedTime,
      headers,
      body: withoutSecret(request.body),
      ...(typeof type === 'string' ? { contentType: type } : {}),
      ...(typeof release === 'string' ? { release } : {}),
      payload,
      traces: request.traces ?? [],
      client: request.client,
    });
    const max = limits().studioJournalSize;
    if (ring.length > max) ring.splice(0, ring.length - max);
    done(null, payload);
  });
  return {
    get size() {
      return limits().studioJournalSize;
    },
    list(reader) {
      const shown = ring.filter((r) => reader === 'analyst' || r.client === reader.client).reverse();
      const entries = shown.map((r) => entryOf(r, limits().studioJournalBodyCharacters));
      if (reader !== 'analyst' || options.personalData) return entries;
      const { cards, limits: current } = rules();
      const patterns = [new RegExp(cards.identityNumberPattern), new RegExp(cards.loyaltyCard.numberPattern)];
      return entries.map((entry) => maskPersonalData(entry, current.studioJournalPersonalData, patterns));
    },
    records: () => ring.map((r) => recordOfEntry(entryOf(r, Infinity))),
  };
}

function entryOf(r: Raw, bodyCharacters: number): JournalEntry {
  return {
    id: r.id,
    at: r.at,
    method: r.method,
    url: r.url,
    status: r.status,
    ms: Math.round(r.ms * 10) / 10,
    ...(r.client !== undefined ? { client: r.client } : {}),
    request: { headers: r.headers, ...(r.body !== undefined ? { body: r.body } : {}) },
    response: {
      ...(r.contentType ? { contentType: r.contentType } : {}),
      ...(r.release ? { release: r.release } : {}),
      ...(typeof r.payload === 'string' ? { body: readable(r.payload, bodyCharacters, r.contentType) } : {}),
    },
    traces: [...r.traces],
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
