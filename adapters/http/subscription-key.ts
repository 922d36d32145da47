import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RuleViolation, type Engine } from '../../engine/index.ts';
import { failedAttempts } from './failed-attempts.ts';

/** The Customer API's subscription key (spec §5 rule 5, CONTRACT §3): `Ocp-Apim-Subscription-Key`. */
const SUBSCRIPTION_KEY = 'ocp-apim-subscription-key';
const digest = (s: string) => createHash('sha256').update(s).digest();

/** The subscription keys' digests, per rule set: `serve --watch` may swap the rules at any request. */
const keyDigests = new WeakMap<object, Buffer[]>();
const keysOf = (rules: Engine['rules']): Buffer[] => {
  let keys = keyDigests.get(rules);
  if (!keys) keyDigests.set(rules, (keys = rules.clients.subscriptionKeys.map(digest)));
  return keys;
};

/** Whether the request names a key. Compared as digests in constant time, so a key cannot be guessed byte by byte. */
function namesKey(rules: Engine['rules'], request: FastifyRequest): boolean {
  const keys = keysOf(rules);
  const header = request.headers[SUBSCRIPTION_KEY];
  const given = Array.isArray(header) ? header[0] : header;
  return !!given && keys.some((key) => timingSafeEqual(key, digest(given.trim())));
}

/**
 * The check of a Customer API request's key, registered in `app`'s context: X_SUBSCRIPTION_KEY_INVALID unless the
 * request names a key, and X_TOO_MANY_ATTEMPTS (429, Retry-After) once wrong keys went beyond
 * `failedSubscriptionKeys` (rules/limits.yaml) for the address or for the client of the request's token.
 */
export async function subscriptionKeyCheck(app: FastifyInstance): Promise<(request: FastifyRequest, reply: FastifyReply) => Promise<void>> {
  const attempts = await failedAttempts(app, () => app.engine.rules.limits.failedSubscriptionKeys);
  const tooMany = (reply: FastifyReply, seconds: number) => {
    reply.header('retry-after', String(seconds));
    return new RuleViolation('X_TOO_MANY_ATTEMPTS', { seconds });
  };
  return async (request, reply) => {
    const waits = await attempts.addressWaits(request);
    if (waits !== undefined) throw tooMany(reply, waits);
    if (namesKey(app.engine.rules, request)) return;
    // A guess counts against the client of a valid token too, wherever it comes from.
    const client = await app.tokenHolder(request).then(
      (holder) => holder.client,
      () => undefined,
    );
    const wait = await attempts.failed(request, client);
    if (wait !== undefined) throw tooMany(reply, wait);
    throw new RuleViolation('X_SUBSCRIPTION_KEY_INVALID', {}, [{ requestPointer: 'header:Ocp-Apim-Subscription-Key' }]);
  };
}
