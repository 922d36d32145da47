import { z } from 'zod';
import type { JournalEntry } from './openapi/studio-schemas.ts';
import { DATE_TIME_WITH_OFFSET, isRealInstant } from '../../engine/rules/index.ts';

/**
 * A journal file (docs/replay.md): JSON Lines, one request a line in the order the server received them, each with
 * the instant it was decided at, the client that sent it, what was sent and what was answered. `signalbox replay`
 * runs such a file on two rule sets; the sandbox exports one (GET /studio/api/journal/export) and
 * `signalbox test --journal FILE` records one from the scenario corpus.
 *
 * Credentials are never kept: no Authorization header, no client secret, no access token, no subscription key. A
 * replay acts as each record's client with a token of its own.
 */

/** The request headers that change an answer besides the body and the credentials. */
export const JOURNAL_HEADERS = ['accept', 'accept-language', 'content-type', 'requestor', 'x-sandbox-fault'] as const;

export const JournalRecord = z.strictObject({
  at: z
    .string()
    .regex(DATE_TIME_WITH_OFFSET, { error: 'an ISO 8601 date-time with offset', abort: true })
    .refine(isRealInstant, 'not a real instant')
    .describe('The instant the request was decided at: the clock of its client (the sandbox or virtual clock, not the wall clock).'),
  client: z.string().min(1).optional().describe('The client whose token the request carried; absent for a request without a valid token.'),
  method: z.string().min(1),
  url: z.string().startsWith('/').describe('Path and query, as sent.'),
  headers: z.partialRecord(z.enum(JOURNAL_HEADERS), z.string()).describe('Accept, Accept-Language, Content-Type, Requestor (base64 JSON), X-Sandbox-Fault.'),
  body: z.unknown().optional().describe('The request body: JSON as JSON, any other body as its text; absent for none.'),
  response: z.strictObject({
    status: z.number().int().min(100).max(599),
    release: z
      .string()
      .min(1)
      .optional()
      .describe('The rule release that decided the answer (its Rules-Release header); absent for the rules the server started with.'),
    body: z.unknown().optional().describe('The answer: JSON as JSON, any other answer as its text; absent for none.'),
  }),
});
export type JournalRecord = z.infer<typeof JournalRecord>;

/** One line of a journal file. */
export const journalLine = (record: JournalRecord): string => `${JSON.stringify(record)}\n`;

/** A journal file's text as records, or every line at fault as `FILE:LINE: problem`. */
export function readJournal(text: string, file: string): { records: JournalRecord[]; problems: string[] } {
  const records: JournalRecord[] = [];
  const problems: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      problems.push(`${file}:${i + 1}: not a JSON value`);
      return;
    }
    const parsed = JournalRecord.safeParse(value);
    if (parsed.success) records.push(parsed.data);
    else for (const issue of parsed.error.issues) problems.push(`${file}:${i + 1}: ${issue.path.join('.') || 'record'}: ${issue.message}`);
  });
  return { records, problems };
}

/** A journal entry (the studio's journal) as a journal file's record, keeping of its headers those that change an answer. */
export function recordOfEntry(entry: JournalEntry): JournalRecord {
  const headers: JournalRecord['headers'] = {};
  for (const name of JOURNAL_HEADERS) {
    const value = entry.request.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  return {
    at: entry.at,
    ...(entry.client !== undefined ? { client: entry.client } : {}),
    method: entry.method,
    url: entry.url,
    headers,
    ...(entry.request.body !== undefined ? { body: entry.request.body } : {}),
    response: {
      status: entry.status,
      ...(entry.response.release !== undefined ? { release: entry.response.release } : {}),
      ...(entry.response.body !== undefined ? { body: entry.response.body } : {}),
    },
  };
}
