import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { RuleViolation, type Engine } from '../../engine/index.ts';

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

/** Throws X_SUBSCRIPTION_KEY_INVALID unless the request names a key. Compared as digests in constant time, so a key cannot be guessed byte by byte. */
export function checkSubscriptionKey(rules: Engine['rules'], request: FastifyRequest): void {
  const keys = keysOf(rules);
  const header = request.headers[SUBSCRIPTION_KEY];
  const given = Array.isArray(header) ? header[0] : header;
  if (!given || !keys.some((key) => timingSafeEqual(key, digest(given.trim())))) {
    throw new RuleViolation('X_SUBSCRIPTION_KEY_INVALID', {}, [{ requestPointer: 'header:Ocp-Apim-Subscription-Key' }]);
  }
}
