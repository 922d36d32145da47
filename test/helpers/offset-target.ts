import type { HttpExchange, HttpResult, Target } from '../../adapters/harness/targets.ts';
import { inNotationOf, inOffset, rewriteInstants, rewritePath, type Offset } from './offsets.ts';

/** One request as it was sent, and its answer as the server gave it. */
export interface Exchange {
  method: string;
  path: string;
  body?: unknown;
  status: number;
  answer: unknown;
}

/**
 * A scenario target that writes every instant a scenario sends in `offset`: the request bodies (fixture trips are
 * expanded into them before they are sent), the query, header values, the scenario's `clock:`, its `at:` steps and
 * `POST /sandbox/clock` bodies. Without an offset it sends them as written. Either way it records, per scenario
 * (per session it opens, in order), what was sent and answered, token requests aside.
 *
 * With `baseline` (what the scenario of the n-th session recorded as written), the runner is handed each answer with the instants
 * that mean the same as the baseline's at the same place spelled as the baseline spells them, so that the scenario's
 * own expectations (written for the notation it sends) do not stop it where only the notation differs. What the tests
 * compare is what was recorded, as the server answered.
 */
export function offsetTarget(
  inner: Target,
  offset: Offset | undefined,
  baseline?: (session: number) => readonly Exchange[] | undefined,
): { target: Target; sessions: Exchange[][] } {
  const sessions: Exchange[][] = [];
  const write = (x: unknown) => (offset ? rewriteInstants(x, offset) : x);
  const target: Target = {
    name: `${inner.name}${offset ? ` in ${offset}` : ''}`,
    ...(inner.releases ? { releases: true } : {}),
    async open(start, clients, releases) {
      const session = await inner.open(offset ? inOffset(start, offset) : start, clients, releases);
      const exchanges: Exchange[] = [];
      const before = baseline?.(sessions.length);
      sessions.push(exchanges);
      return {
        ...session,
        async send(x: HttpExchange): Promise<HttpResult> {
          const sent: HttpExchange = {
            method: x.method,
            path: offset ? rewritePath(x.path, offset) : x.path,
            headers: write(x.headers) as Record<string, string>,
            ...(x.body !== undefined ? { body: write(x.body) } : {}),
          };
          const res = await session.send(sent);
          // The runner fetches a client's token once per target, not per scenario: left out, so requests line up.
          if (sent.path === '/oauth2/token') return res;
          const then = before?.[exchanges.length];
          exchanges.push({
            method: sent.method,
            path: sent.path,
            ...(sent.body !== undefined ? { body: sent.body } : {}),
            status: res.status,
            answer: res.body,
          });
          return then && then.status === res.status ? { ...res, body: inNotationOf(res.body, then.answer) } : res;
        },
        setClock: (instant) => session.setClock(offset ? inOffset(instant, offset) : instant),
        advanceClock: (duration) => session.advanceClock(duration),
        close: () => session.close(),
      };
    },
  };
  return { target, sessions };
}
