import { z } from 'zod';
import { PlacedProblem, TableEdit } from './studio-schemas.ts';

/**
 * The shapes of a decision table's CSV import (POST /studio/api/decisions/{decision}/csv): the CSV text in, the
 * table's rows out as the studio's change endpoints take them, so the page can check, preview and save them.
 */

export const CsvImportRequest = z.strictObject({
  csv: z.string().max(1_000_000).describe('The CSV as GET …/csv writes it: a header `id, otherwise, when.<fact>…, then.<key>…`, each cell YAML flow text.'),
});

export const CsvImport = z.object({
  rows: TableEdit.shape.rows.describe('The rows, a row whose id the table has keeping its place in the file (`was`).'),
  problems: z.array(PlacedProblem).describe('What the CSV itself gets wrong (an unknown column, a row of the wrong length); `check` runs on the rows later.'),
});
export type CsvImport = z.infer<typeof CsvImport>;
