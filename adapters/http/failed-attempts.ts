import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Limits, durationMs } from '../../engine/rules/index.ts';

type Limit = Limits['failedTokenAttempts'];

/**
 * Failed attempts at a credential (a client secret, a subscription key), counted by @fastify/rate-limit per client
 * and per address within a window of rules/limits.yaml (docs/limits.md). Only failures count, and the right
 * credential is never refused because of someone else's: whoever knows a client id must not be able to lock that
 * client out. So a client's counter refuses only further wrong attempts, while an address that failed too often is
 * refused before anything it sends is checked: a right answer after a 429 would otherwise tell a guesser it guessed.
 */
export interface FailedAttempts {
  /** The seconds an address that failed too often must still wait; undefined when it may try. */
  addressWaits(request: FastifyRequest): Promise<number | undefined>;
  /** Counts a failure of the address and of the client (when one is known); the seconds to wait once either is beyond its limit. */
  failed(request: FastifyRequest, client: string | undefined): Promise<number | undefined>;
}

type Status = Awaited<ReturnType<ReturnType<FastifyInstance['createRateLimit']>>>;
/** A whole second at least: Retry-After counts in seconds. */
const seconds = (status: Status) => (status.isAllowed ? 1 : Math.max(status.ttlInSeconds, 1));

/** Registers the counters in `app`'s context; `limit` is read per request, so a rules reload changes it. */
export async function failedAttempts(app: FastifyInstance, limit: () => Limit): Promise<FailedAttempts> {
  await app.register(rateLimit, { global: false });
  const window = () => durationMs(limit().window);
  // The client whose failure is being counted: the counter's key generator is given the request only.
  const claimed = new WeakMap<FastifyRequest, string>();
  const perAddress = app.createRateLimit({ keyGenerator: (request) => `address:${request.ip}`, max: () => limit().perAddress, timeWindow: window });
  const perClient = app.createRateLimit({ keyGenerator: (request) => `client:${claimed.get(request)}`, max: () => limit().perClient, timeWindow: window });
  return {
    async addressWaits(request) {
      const status = await perAddress(request, { increment: false });
      return !status.isAllowed && status.remaining === 0 ? seconds(status) : undefined;
    },
    async failed(request, client) {
      const counted = [await perAddress(request)];
      if (client) {
        claimed.set(request, client);
        counted.push(await perClient(request));
      }
      const beyond = counted.filter((status) => !status.isAllowed && status.isExceeded);
      return beyond.length > 0 ? Math.max(...beyond.map(seconds)) : undefined;
    },
  };
}
