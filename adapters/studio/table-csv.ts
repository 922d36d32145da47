import { parse as parseCsv } from 'csv-parse/sync';
import type { CsvImport } from '../http/openapi/studio-csv-schemas.ts';
import type { DecisionTable, PlacedProblem, TableEdit } from '../http/openapi/studio-schemas.ts';

/**
 * A decision table as CSV, for a spreadsheet and back: one line per row, a column per fact a row tests and per outcome
 * key, each cell the YAML flow text the studio shows (`{ between: [16, 64] }`, `{ en-GB: Child, sv-SE: Barn }`). Read
 * back, the rows are the studio's edit rows, so a file is written the way a save from the page writes it.
 */

const ID = 'id';
const OTHERWISE = 'otherwise';

/** A field as RFC 4180 writes it: quoted when it holds a comma, a quote, a line break or spaces at an end. */
function field(text: string): string {
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The table as CSV text: the header `id, otherwise, when.<fact>…, then.<key>…`, then each row, lines ended by CRLF. */
export function tableCsv(table: DecisionTable): string {
  const { when, then } = table.columns;
  const head = [ID, OTHERWISE, ...when.map((f) => `when.${f}`), ...then.map((k) => `then.${k}`)];
  const rows = table.rows.map((r) => [r.id, r.otherwise ? 'true' : '', ...when.map((f) => r.when[f]?.text ?? ''), ...then.map((k) => r.then[k]?.text ?? '')]);
  return [head, ...rows].map((cells) => cells.map(field).join(',')).join('\r\n') + '\r\n';
}

type Column = { part: 'id' | 'otherwise' } | { part: 'when' | 'then'; key: string };

/** What a header cell names, or why it names nothing the table can hold. */
function columnOf(table: DecisionTable, name: string): Column | string {
  if (name === ID || name === OTHERWISE) return { part: name };
  const m = /^(when|then)\.(.+)$/.exec(name);
  if (!m) return `the column "${name}" is neither id, otherwise, when.<fact> nor then.<key>`;
  const part = m[1] as 'when' | 'then';
  if (part === 'when' && !table.facts.some((f) => f.name === m[2])) return `the column "${name}" names no fact of ${table.decision}`;
  return { part, key: m[2]! };
}

/**
 * The rows of a CSV written by `tableCsv` (or a spreadsheet that kept its header), as the studio's edit rows: a row
 * whose id the table has keeps its place in the file, so its comments and layout stay. Nothing is checked against the
 * rules here; `check` does that when the rows are checked, previewed or saved.
 */
export function rowsOfCsv(table: DecisionTable, csv: string): CsvImport {
  const at = (line: number) => `${table.decision}.csv:${line}`;
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parseCsv(csv, { bom: true, info: true, relax_column_count: true, skip_empty_lines: true }) as unknown as typeof records;
  } catch (e) {
    const line = (e as { lines?: number }).lines ?? 1;
    return { rows: [], problems: [{ message: `not CSV: ${(e as Error).message}`, at: at(line) }] };
  }
  const [header, ...body] = records;
  if (!header) return { rows: [], problems: [{ message: 'the CSV is empty: it needs a header and a line per row', at: at(1) }] };
  const problems: PlacedProblem[] = [];
  const columns = header.record.map((name) => columnOf(table, name.trim()));
  columns.forEach((c) => typeof c === 'string' && problems.push({ message: c, at: at(1) }));
  if (!columns.some((c) => typeof c !== 'string' && c.part === ID)) problems.push({ message: 'the header has no id column', at: at(1) });
  const known = new Set(table.rows.map((r) => r.id));
  const rows: TableEdit['rows'] = body.map(({ record, info }, i) => {
    const row: TableEdit['rows'][number] = { id: '', when: {}, then: {} };
    if (record.length !== columns.length)
      problems.push({ message: `this line has ${record.length} fields, the header ${columns.length}`, at: at(info.lines), row: i });
    record.forEach((text, c) => {
      const column = columns[c];
      if (!column || typeof column === 'string') return;
      if ('key' in column) {
        if (text !== '') row[column.part][column.key] = text;
      } else if (column.part === 'id') row.id = text;
      else if (text === 'true') row.otherwise = true;
      else if (text !== '' && text !== 'false') problems.push({ message: `otherwise is true or empty, not "${text}"`, at: at(info.lines), row: i });
    });
    return known.has(row.id) ? { was: row.id, ...row } : row;
  });
  return { rows, problems };
}
