import { createHash, createSecretKey, scrypt, timingSafeEqual, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { SignJWT, jwtVerify } from 'jose';
import { z } from 'zod';
import { inBothLanguages, phrase, RuleViolation, type RuleSet } from '../../engine/index.ts';
import { durationMs } from '../../engine/rules/index.ts';
import { headerMemo } from './header-memo.ts';

/**
 * OAuth 2.0 client credentials (RFC 6749 §4.4, spec §5, CONTRACT §3): client secrets checked against
 * scrypt hashes in constant time, HS256 JWTs with the granted scopes, and the Requestor header.
 * Token lifetimes run on the real clock, never the sandbox clock (CONTRACT §3).
 */
export type Scope = 'reseller' | 'customer' | 'analyst' | 'approver';
const ISSUER = 'signalbox';

interface TokenGrant {
  token_type: 'Bearer';
  expires_in: number;
  ext_expires_in: number;
  access_token: string;
}

export class OAuthError extends Error {
  readonly status: 400 | 401;
  readonly error: string;
  readonly description: string;
  constructor(status: 400 | 401, error: string, description: string) {
    super(description);
    this.status = status;
    this.error = error;
    this.description = description;
  }
}

/** Hashing a secret takes tens of milliseconds: it runs on libuv's thread pool, not on the event loop. */
const scryptAsync = promisify(scrypt) as (secret: string, salt: Buffer | string, length: number) => Promise<Buffer>;

/** The client id and secret a token request claims: HTTP Basic (RFC 6749 §2.3.1) or the form fields. */
export function credentialsOf(authorization: string | undefined, form: Readonly<Record<string, string | undefined>>): { clientId?: string; secret?: string } {
  if (!authorization?.toLowerCase().startsWith('basic ')) return { clientId: form['client_id'], secret: form['client_secret'] };
  const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString();
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new OAuthError(401, 'invalid_client', 'Basic credentials must be client_id:client_secret');
  try {
    // RFC 6749 §2.3.1: both parts are form-urlencoded before they are joined.
    return { clientId: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    throw new OAuthError(401, 'invalid_client', 'the Basic credentials are not valid percent-encoding');
  }
}

export interface Authenticator {
  /** POST /oauth2/token: from the Authorization header and the form fields. */
  issue(authorization: string | undefined, form: Record<string, string | undefined>): Promise<TokenGrant>;
  /** The client and scopes of a valid token, whatever its scopes; throws a 401 RuleViolation otherwise. */
  holder(authorization: string | undefined): Promise<TokenHolder>;
  /** The client id of a valid token holding `scope`; throws a 401 or 403 RuleViolation otherwise. */
  verify(authorization: string | undefined, scope: Scope): Promise<string>;
}

/** Whom a valid access token names, and what it may do. */
export interface TokenHolder {
  client: string;
  scopes: readonly string[];
}

/** The client id of a token holder with `scope`; a 403 RuleViolation if the token lacks it. */
export function withScope(holder: TokenHolder, scope: Scope): string {
  if (!holder.scopes.includes(scope)) throw new RuleViolation('FORBIDDEN', { reason: phrase('token-lacks-scope', { scope }) });
  return holder.client;
}

export function createAuthenticator(currentRules: () => RuleSet, jwtSecret: string): Authenticator {
  // A KeyObject made once: handing jose the raw secret would import it again on every request.
  const key = createSecretKey(Buffer.from(jwtSecret));
  // Verified tokens are remembered until they expire, so a busy client's token is checked once.
  const verifiedTokens = new Map<string, { sub?: string; scope?: unknown; exp?: number }>();
  // Successful checks are remembered by a hash of the secret, so scrypt runs once per client and secret.
  const verified = new Set<string>();

  async function checkSecret(clientId: string, secret: string): Promise<boolean> {
    const client = currentRules().clients.clients[clientId];
    if (!client) {
      await scryptAsync(secret, 'no-such-client', 32); // same cost whether or not the client exists
      return false;
    }
    const memo = `${client.secretHash}\u0000${createHash('sha256').update(secret).digest('hex')}`;
    if (verified.has(memo)) return true;
    const [, salt, hash] = client.secretHash.split('$') as [string, string, string];
    const expected = Buffer.from(hash, 'base64url');
    const given = await scryptAsync(secret, Buffer.from(salt, 'base64url'), expected.length);
    const ok = timingSafeEqual(given, expected);
    if (ok) verified.add(memo);
    return ok;
  }

  return {
    async issue(authorization, form) {
      const { clientId, secret } = credentialsOf(authorization, form);
      if (form['grant_type'] === undefined) throw new OAuthError(400, 'invalid_request', 'grant_type is required');
      if (form['grant_type'] !== 'client_credentials') throw new OAuthError(400, 'unsupported_grant_type', 'only client_credentials is supported');
      if (!clientId || !secret) throw new OAuthError(401, 'invalid_client', 'client authentication is required (HTTP Basic or client_id and client_secret)');
      if (!(await checkSecret(clientId, secret))) throw new OAuthError(401, 'invalid_client', 'unknown client or wrong secret');
      const rules = currentRules();
      const client = rules.clients.clients[clientId]!;
      const lifetime = Math.round(durationMs(rules.limits.accessTokenLifetime) / 1000);
      const asked = form['scope']?.split(/\s+/).filter(Boolean) ?? [];
      const unknown = asked.filter((s) => !client.scopes.includes(s as Scope));
      if (unknown.length > 0) throw new OAuthError(400, 'invalid_scope', `the client may not ask for: ${unknown.join(' ')}`);
      const scopes = asked.length > 0 ? asked : client.scopes;
      const access_token = await signAccessToken(key, clientId, scopes, lifetime);
      return { token_type: 'Bearer', expires_in: lifetime, ext_expires_in: lifetime, access_token };
    },
    async holder(authorization) {
      if (!authorization || !/^bearer\s+\S+$/i.test(authorization.trim())) {
        throw new RuleViolation('UNAUTHORIZED', { reason: phrase('send-bearer-token') }, [{ requestPointer: 'header:Authorization' }]);
      }
      const token = authorization.trim().split(/\s+/)[1]!;
      let payload = verifiedTokens.get(token);
      if (!payload || payload.exp! * 1000 <= Date.now()) {
        try {
          // A token without exp would be valid forever; one without sub names no client.
          ({ payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: ISSUER, requiredClaims: ['exp', 'sub'] }));
        } catch (e) {
          verifiedTokens.delete(token);
          const reason = phrase((e as { code?: string }).code === 'ERR_JWT_EXPIRED' ? 'token-expired' : 'token-invalid');
          throw new RuleViolation('UNAUTHORIZED', { reason }, [{ requestPointer: 'header:Authorization' }]);
        }
        if (verifiedTokens.size >= 10_000) verifiedTokens.clear();
        verifiedTokens.set(token, payload);
      }
      const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
      if (typeof payload.sub !== 'string' || !currentRules().clients.clients[payload.sub])
        throw new RuleViolation('UNAUTHORIZED', { reason: phrase('token-unknown-client') });
      return { client: payload.sub, scopes };
    },
    async verify(authorization, scope) {
      return withScope(await this.holder(authorization), scope);
    },
  };
}

/**
 * An access token as POST /oauth2/token issues it, signed with the server's key (`jwtSecret`): also what a replay
 * (adapters/analysis/replay.ts) acts as a journal's clients with, since a journal keeps no secret.
 */
export function signAccessToken(key: KeyObject, clientId: string, scopes: readonly string[], lifetimeSeconds: number): Promise<string> {
  return new SignJWT({ scope: scopes.join(' ') })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setSubject(clientId)
    .setIssuedAt()
    .setExpirationTime(`${lifetimeSeconds}s`)
    .sign(key);
}

/** A Requestor is three short fields; anything longer is refused before it is decoded. */
const MAX_REQUESTOR_LENGTH = 2048;

const RequestorHeader = z.strictObject({
  salesApplication: z.string().min(1),
  salesUnitCode: z.string().min(1),
  organizationCode: z.string().optional(),
});

/** A header decoded so far: a reseller sends the same Requestor with every call. A header refused is read again. */
const decodedRequestor = headerMemo(decodeRequestor);

/**
 * Spec §2.1, §5 rule 4: the Requestor header is Base64 of a JSON object. Missing → 86002;
 * not Base64 JSON or lacking a field → 86001; an application not registered for the client → 403.
 * The decoding is remembered by the header's text; whether the application is the client's is checked every time.
 */
export function readRequestor(rules: RuleSet, header: string | undefined, client: string): { salesApplication: string; salesUnitCode: string } {
  const pointer = [{ requestPointer: 'header:Requestor' }];
  const { salesApplication, salesUnitCode } = header === undefined ? decodeRequestor(header) : decodedRequestor(header);
  if (!rules.clients.clients[client]?.salesApplications.includes(salesApplication)) {
    throw new RuleViolation('FORBIDDEN', { reason: phrase('sales-application-not-yours', { salesApplication }) }, pointer);
  }
  return { salesApplication, salesUnitCode };
}

function decodeRequestor(header: string | undefined): { salesApplication: string; salesUnitCode: string } {
  const pointer = [{ requestPointer: 'header:Requestor' }];
  if (header === undefined || header.trim() === '') throw new RuleViolation('86002', {}, pointer);
  const raw = header.trim();
  if (raw.length > MAX_REQUESTOR_LENGTH) {
    throw new RuleViolation('86001', { reason: phrase('requestor-too-long', { max: MAX_REQUESTOR_LENGTH }) }, pointer);
  }
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(raw)) throw new Error('not Base64');
    parsed = JSON.parse(Buffer.from(raw, 'base64').toString('utf8'));
  } catch {
    throw new RuleViolation('86001', { reason: phrase('requestor-not-json') }, pointer);
  }
  const result = RequestorHeader.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const field = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.join('.');
    throw new RuleViolation('86001', { reason: phrase('requestor-field', { field, problem: inBothLanguages(issue) }) }, pointer);
  }
  return { salesApplication: result.data.salesApplication, salesUnitCode: result.data.salesUnitCode };
}
