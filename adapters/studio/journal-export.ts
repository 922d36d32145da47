import { JOURNAL_HEADERS, journalLine, type JournalRecord } from '../http/journal-file.ts';
import type { JournalEntry } from '../http/openapi/studio-schemas.ts';

/**
 * The sandbox's journal as a journal file (docs/replay.md), oldest first, for `signalbox replay`: each entry as it
 * was read (an analyst's with personal data masked), keeping of its headers those that change an answer.
 */
export function journalFile(newestFirst: readonly JournalEntry[]): string {
  return journalRecords(newestFirst).map(journalLine).join('');
}

function journalRecords(newestFirst: readonly JournalEntry[]): JournalRecord[] {
  return [...newestFirst].reverse().map(recordOf);
}

function recordOf(entry: JournalEntry): JournalRecord {
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
