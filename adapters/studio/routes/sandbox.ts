import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { phrase, RuleViolation } from '../../../engine/index.ts';
import { parseRequest } from '../../../engine/rules/index.ts';
import { json, operation, type Operation } from '../../http/operations/operation.ts';
import type { RequestJournal } from '../../http/journal.ts';
import * as S from '../../http/openapi/studio-schemas.ts';
import { journalFile } from '../journal-export.ts';
import { seatMaps } from '../seats.ts';
import { studioEntry, type Studio } from './studio.ts';

/** The journal's entries the caller may read: a client its own, an analyst every client's (personal data masked, journal.ts). */
async function journalAsRead(request: FastifyRequest): Promise<{ journal: RequestJournal; entries: S.JournalEntry[] }> {
  const journal = request.server.requestJournal;
  if (!journal) throw new RuleViolation('RESOURCE_NOT_FOUND', { resource: phrase('resource-route'), id: `GET ${request.url.split('?')[0]!}` });
  const { client, scopes } = await request.server.tokenHolder(request);
  return { journal, entries: journal.list(scopes.includes('analyst') ? 'analyst' : { client }) };
}

/** What a sandbox keeps: its offers' and bookings' seats, and the journal of the latest requests. */
export const sandboxOperations = (studio: Studio): Operation[] => [
  operation({
    method: 'GET',
    path: '/studio/api/seats',
    ...studioEntry,
    summary: 'Seat maps of an offer or a booking',
    access: 'sandbox',
    query: {
      contextType: { description: '`OFFER` or `BOOKING`', required: true, schema: S.SeatQuery.shape.contextType },
      contextId: { description: 'The offer or booking id.', required: true, schema: S.SeatQuery.shape.contextId },
    },
    responses: { 200: json('Per leg, each coach as SVG with the places held.', S.SeatMaps) },
    handle: async ({ request, query, service }) => ({ body: await seatMaps(service, parseRequest(S.SeatQuery, query, '#'), request.language) }),
  }),
  // Only a sandbox keeps the journal (adapters/http/journal.ts); elsewhere the path is not there at all.
  ...(studio.sandbox
    ? [
        operation({
          method: 'GET',
          path: '/studio/api/journal',
          ...studioEntry,
          summary: 'The latest requests',
          access: 'bearer',
          description:
            'On a sandbox only. A client reads the requests it authenticated; a token with scope `analyst` reads every request, ' +
            'with personal data masked unless the server runs with `--journal-personal-data` (docs/studio.md).',
          responses: { 200: json('Request, response and rule trace of the latest requests, newest first.', S.Journal) },
          handle: async ({ request }) => {
            const { journal, entries } = await journalAsRead(request);
            return { body: { size: journal.size, entries } };
          },
        }),
        operation({
          method: 'GET',
          path: '/studio/api/journal/export',
          ...studioEntry,
          summary: 'The latest requests as a journal file',
          access: 'bearer',
          description:
            'On a sandbox only. The same requests as GET /studio/api/journal, read the same way (a client its own, an analyst every ' +
            "client's, personal data masked), oldest first, one JSON record a line: the file `signalbox replay --journal` reads (docs/replay.md).",
          responses: { 200: { description: 'JSON Lines, one request a line.', schema: z.string(), contentType: 'application/jsonl' } },
          handle: async ({ request }) => {
            const { entries } = await journalAsRead(request);
            return {
              body: journalFile(entries),
              type: 'application/jsonl; charset=utf-8',
              headers: { 'content-disposition': 'attachment; filename="journal.jsonl"' },
            };
          },
        }),
      ]
    : []),
];
