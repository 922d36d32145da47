import { createSecretKey, randomBytes } from 'node:crypto';
import { createEngine, type RuleSet } from '../../engine/index.ts';
import { durationMs } from '../../engine/rules/index.ts';
import { signAccessToken } from '../http/auth.ts';
import type { JournalRecord } from '../http/journal-file.ts';
import { buildServer } from '../http/server.ts';
import { inProcessClient } from '../harness/in-process-transport.ts';
import { virtualClock } from '../service/clock.ts';
import { sequentialIds } from '../service/ids.ts';
import { memoryStore } from '../store/memory.ts';
import { idMap } from './replay-ids.ts';

/** What one side of a replay answered a journal's request. */
export interface ReplayedAnswer {
  status: number;
  body: unknown;
}

/**
 * One side of a replay: a sandbox server in-process on one rule set, with an empty memory store of its own, a
 * virtual clock and ids counted from 1 (`replayed-offer-1`). Each request runs at its recorded instant, as its
 * recorded client, with the recorded ids it names replaced by the ones this side made up (replay-ids.ts).
 */
export interface ReplaySide {
  answer(record: JournalRecord): Promise<ReplayedAnswer>;
  close(): Promise<void>;
}

/**
 * What this side's ids start with: a recorded id is never one of them, so a request naming a recorded id this side has
 * no pair for (replay-ids.ts) finds nothing here, not one of this side's own spelt the same.
 */
const REPLAYED = 'replayed-';

export async function replaySide(rules: RuleSet): Promise<ReplaySide> {
  const made = sequentialIds();
  const secret = randomBytes(32).toString('base64url');
  const clock = virtualClock(new Date(0));
  const app = await buildServer({
    engine: createEngine({ rules }),
    store: memoryStore(),
    clock,
    ids: { next: (kind) => `${REPLAYED}${made.next(kind)}` },
    sandbox: true,
    journal: false,
    jwtSecret: secret,
  });
  const send = inProcessClient(app);
  await app.ready();
  const key = createSecretKey(Buffer.from(secret));
  const lifetime = Math.round(durationMs(rules.limits.accessTokenLifetime) / 1000);
  // A client's token, with every scope the rule set gives it; one this rule set does not know is refused as it would be.
  const tokens = new Map<string, Promise<string>>();
  const tokenOf = (client: string) => {
    let token = tokens.get(client);
    if (!token) tokens.set(client, (token = signAccessToken(key, client, rules.clients.clients[client]?.scopes ?? [], lifetime)));
    return token;
  };
  const ids = idMap();
  return {
    async answer(record) {
      clock.set!(new Date(record.at));
      const headers: Record<string, string> = { ...record.headers };
      if (record.client !== undefined) headers['authorization'] = `Bearer ${await tokenOf(record.client)}`;
      const body = ids.body(record.body);
      const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
      const res = await send(record.method, ids.url(record.url), headers, payload);
      const answer = { status: res.status, body: parsed(res.body, res.headers['content-type']) };
      ids.learn(record.response.body, answer.body, record);
      // In-process answers never wait for the event loop (in-process-transport.ts): let it turn.
      await new Promise((resolve) => setImmediate(resolve));
      return answer;
    },
    close: () => app.close(),
  };
}

function parsed(text: string, contentType: string | undefined): unknown {
  if (text === '') return undefined;
  if (!contentType?.includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
