import { durationMs } from '../../engine/rules/index.ts';
import { JOURNAL_HEADERS, type JournalRecord } from '../http/journal-file.ts';
import { RULES_RELEASE_HEADER } from '../http/operations/operation.ts';
import type { HttpExchange, HttpResult, Target } from './targets.ts';

/**
 * A target that writes every request its scenarios send into a journal (`signalbox test --journal FILE`), as a
 * sandbox's journal would have it: at the instant the session's clock showed, as the client whose token it carried.
 * The clock of an in-process session moves only by the scenario's clock steps, so following those steps here gives
 * the very instant each request was decided at.
 */
export function journalling(target: Target, record: (entry: JournalRecord) => void): Target {
  return {
    name: target.name,
    async open(start, clients) {
      const session = await target.open(start, clients);
      let now = Date.parse(start);
      return {
        ...session,
        async send(x) {
          const result = await session.send(x);
          record(recordOf(new Date(now).toISOString(), x, result));
          return result;
        },
        async setClock(instant) {
          await session.setClock(instant);
          now = Date.parse(instant);
        },
        async advanceClock(iso) {
          await session.advanceClock(iso);
          now += durationMs(iso);
        },
      };
    },
  };
}

const isTokenRequest = (x: HttpExchange) => x.path.split('?', 1)[0] === '/oauth2/token';

function recordOf(at: string, x: HttpExchange, result: HttpResult): JournalRecord {
  const headers: JournalRecord['headers'] = {};
  for (const name of JOURNAL_HEADERS) {
    const value = Object.entries(x.headers).find(([k]) => k.toLowerCase() === name)?.[1];
    if (value !== undefined) headers[name] = value;
  }
  const client = result.status === 401 ? undefined : isTokenRequest(x) ? claimedClient(x.body) : tokenHolder(x.headers);
  // A token request's body holds a secret and its answer a token: neither is kept.
  const answer = isTokenRequest(x) ? withoutToken(result.body) : result.body;
  const release = Object.entries(result.headers).find(([k]) => k.toLowerCase() === RULES_RELEASE_HEADER.toLowerCase())?.[1];
  return {
    at,
    ...(client ? { client } : {}),
    method: x.method.toUpperCase(),
    url: x.path,
    headers,
    ...(x.body !== undefined && !isTokenRequest(x) ? { body: x.body } : {}),
    response: { status: result.status, ...(release ? { release } : {}), ...(answer !== undefined ? { body: answer } : {}) },
  };
}

/** The client an access token names (its `sub`); the server checked the token, so it is read here unverified. */
function tokenHolder(headers: Readonly<Record<string, string>>): string | undefined {
  const authorization = Object.entries(headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
  const payload = /^bearer\s+[\w-]+\.([\w-]+)\.[\w-]+$/i.exec(authorization?.trim() ?? '')?.[1];
  if (!payload) return undefined;
  try {
    const { sub } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: unknown };
    return typeof sub === 'string' ? sub : undefined;
  } catch {
    return undefined;
  }
}

function claimedClient(body: unknown): string | undefined {
  return typeof body === 'string' ? (new URLSearchParams(body).get('client_id') ?? undefined) : undefined;
}

function withoutToken(body: unknown): unknown {
  return body && typeof body === 'object' && 'access_token' in body ? { ...body, access_token: '…' } : body;
}
