import { journalLine, recordOfEntry } from '../http/journal-file.ts';
import type { JournalEntry } from '../http/openapi/studio-schemas.ts';

/**
 * The sandbox's journal as a journal file (docs/replay.md), oldest first, for `signalbox replay`: each entry as it
 * was read (an analyst's with personal data masked), keeping of its headers those that change an answer.
 */
export function journalFile(newestFirst: readonly JournalEntry[]): string {
  return [...newestFirst].reverse().map(recordOfEntry).map(journalLine).join('');
}
