import { parse } from 'yaml';
import { z } from 'zod';
import { parseRequest } from '../../../engine/rules/index.ts';
import { json, operation, type Operation } from '../../http/operations/operation.ts';
import { CsvImport, CsvImportRequest } from '../../http/openapi/studio-csv-schemas.ts';
import { rowsOfCsv, tableCsv } from '../table-csv.ts';
import { tableOf } from '../tables.ts';
import { decisionOf, fileOf } from './decisions.ts';
import { decisionParameter, studioEntry, type Studio } from './studio.ts';

/**
 * A table as CSV for a spreadsheet, and back: the import answers the rows and saves nothing, so an imported table
 * goes through check, preview and save in the page like any other edit.
 */
export const csvOperations = (studio: Studio): Operation[] => [
  operation({
    method: 'GET',
    path: '/studio/api/decisions/{decision}/csv',
    ...studioEntry,
    summary: 'The table as CSV',
    access: 'public',
    description: `${decisionParameter} The header is \`id, otherwise, when.<fact>…, then.<key>…\`; each cell is the YAML flow text the studio shows.`,
    responses: { 200: { description: 'The table, one line per row.', schema: z.string(), contentType: 'text/csv' } },
    handle: async ({ params, service }) => {
      const rules = service.engine.rules;
      const decision = decisionOf(service.engine, params.decision);
      return {
        body: tableCsv(tableOf(rules, decision, fileOf(studio, rules, decision).text)),
        type: 'text/csv; charset=utf-8',
        headers: { 'content-disposition': `attachment; filename="${decision}.csv"` },
      };
    },
  }),
  operation({
    method: 'POST',
    path: '/studio/api/decisions/{decision}/csv',
    ...studioEntry,
    summary: 'Read a CSV of the table as edit rows',
    access: 'analyst',
    request: { schema: CsvImportRequest, required: true },
    description:
      'Reads the CSV (as GET …/csv writes it) into the rows PUT, …/check and …/impact take, each cell as JSON as the page edits it; a row whose id the table has keeps its place in the file. Nothing is saved.',
    responses: { 200: json('The rows, and what the CSV itself gets wrong.', CsvImport) },
    handle: async ({ params, body, service }) => {
      const rules = service.engine.rules;
      const decision = decisionOf(service.engine, params.decision);
      const { csv } = parseRequest(CsvImportRequest, body);
      const read = rowsOfCsv(tableOf(rules, decision, fileOf(studio, rules, decision).text), csv);
      return { body: { ...read, rows: read.rows.map((r) => ({ ...r, when: asJson(r.when), then: asJson(r.then) })) } };
    },
  }),
];

/** Cells as the page edits them: each value as JSON (YAML too); a cell that is not YAML stays as written, for check to place. */
function asJson(cells: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(cells).map(([k, text]) => {
      try {
        return [k, JSON.stringify(parse(text))];
      } catch {
        return [k, text];
      }
    }),
  );
}
