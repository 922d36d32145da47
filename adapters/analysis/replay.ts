import type { RuleSet } from '../../engine/index.ts';
import type { JournalRecord } from '../http/journal-file.ts';
import { comparedAnswer, priceDifferences } from './replay-answer.ts';
import { NOT_REPLAYED_KINDS, REPLAY_CHANGE_KINDS, type NotReplayed, type ReplayChange, type ReplayReport } from '../http/openapi/replay-report.ts';
import { replaySide } from './replay-side.ts';

export interface ReplayOptions {
  /** How the report names the two rule sets (a folder, a git revision). */
  names: { a: string; b: string };
  /** How many changes of each kind the report shows. */
  examples: number;
}

/**
 * Requests a replay leaves out, and why. Each record's instant is replayed, so what moved clocks is not; a journal
 * keeps no secret, so a replay acts as each client with a token of its own, and the Customer API, which wants the
 * caller's subscription key as well, cannot be called.
 */
const NOT_REPLAYED: Readonly<Record<NotReplayed, (method: string, path: string) => boolean>> = {
  'token-requests': (_, path) => path === '/oauth2/token',
  'clock-changes': (method, path) => (method !== 'GET' && path === '/sandbox/clock') || /^\/sandbox\/bookings\/[^/]+\/time-travel$/.test(path),
  'trace-look-ups': (_, path) => path.startsWith('/sandbox/traces/'),
  'customer-api': (_, path) => path.startsWith('/customer/'),
  studio: (_, path) => path.startsWith('/studio/'),
};

const notReplayed = (record: JournalRecord): NotReplayed | undefined => {
  const path = record.url.split('?', 1)[0]!.replace(/\/+$/, '') || '/';
  return NOT_REPLAYED_KINDS.find((kind) => NOT_REPLAYED[kind](record.method.toUpperCase(), path));
};

/**
 * A journal replayed on two rule sets (docs/replay.md): every request, in journal order, at its recorded instant,
 * as its recorded client, through a sandbox server of each rule set in-process, each side with a store of its own.
 * Then A's and B's answers are compared, request by request: status, Problem code, prices (replay-answer.ts).
 */
export async function replayJournal(records: readonly JournalRecord[], a: RuleSet, b: RuleSet, options: ReplayOptions): Promise<ReplayReport> {
  const sideA = await replaySide(a);
  const sideB = await replaySide(b);
  const skipped: ReplayReport['journal']['skipped'] = {};
  const changes = Object.fromEntries(REPLAY_CHANGE_KINDS.map((kind) => [kind, { count: 0, examples: [] as ReplayChange[] }])) as ReplayReport['changes'];
  const asRecorded = { a: 0, b: 0 };
  let replayed = 0;
  try {
    for (const [i, record] of records.entries()) {
      const why = notReplayed(record);
      if (why) {
        skipped[why] = (skipped[why] ?? 0) + 1;
        continue;
      }
      replayed++;
      const x = comparedAnswer(await sideA.answer(record));
      const y = comparedAnswer(await sideB.answer(record));
      if (x.status === record.response.status) asRecorded.a++;
      if (y.status === record.response.status) asRecorded.b++;
      const prices = x.status === y.status && x.code === y.code ? priceDifferences(x, y) : [];
      const kind = x.status !== y.status ? 'status' : x.code !== y.code ? 'code' : prices.length > 0 ? 'price' : undefined;
      if (!kind) continue;
      const change = changes[kind];
      change.count++;
      if (change.examples.length < options.examples)
        change.examples.push({
          request: i + 1,
          at: record.at,
          ...(record.client !== undefined ? { client: record.client } : {}),
          method: record.method,
          url: record.url,
          a: { status: x.status, code: x.code },
          b: { status: y.status, code: y.code },
          prices,
        });
    }
  } finally {
    await Promise.all([sideA.close(), sideB.close()]);
  }
  return {
    journal: { requests: records.length, replayed, skipped },
    rules: options.names,
    asRecorded,
    changed: REPLAY_CHANGE_KINDS.reduce((n, kind) => n + changes[kind].count, 0),
    changes,
  };
}
