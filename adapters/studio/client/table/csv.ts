import type { CsvImport } from '../../../http/openapi/studio-csv-schemas.ts';
import type { DecisionTable } from '../../../http/openapi/studio-schemas.ts';
import { api } from '../api.ts';
import { h, show } from '../dom.ts';
import { problemBox } from '../problems.ts';
import type { EditedRow } from './session.ts';

/**
 * The table to a spreadsheet and back: "Export CSV" downloads it (GET …/csv, open to anyone), "Import CSV" reads a
 * file into edit rows (POST …/csv, an analyst's token) and hands them to `onRows`, where they are checked, previewed
 * and saved like an edit typed in the grid. Columns the CSV adds (a fact no row tested yet) join the table's columns.
 */
export function csvControls(container: HTMLElement, table: DecisionTable, onRows: (rows: EditedRow[]) => void): HTMLElement {
  const path = `/decisions/${encodeURIComponent(table.decision)}/csv`;
  const status = h('div', { class: 'csv-status', 'aria-live': 'polite' });
  const input = h('input', { type: 'file', id: 'csv-import', accept: '.csv,text/csv' });
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (file) void importFile(file);
  });
  const importFile = async (file: File) => {
    const answer = await api<CsvImport>('POST', path, { csv: await file.text() });
    // The same file may be chosen again after fixing it.
    input.value = '';
    if (!answer.ok) return show(status, problemBox(answer.data));
    const { rows, problems } = answer.data;
    if (problems.length > 0)
      return show(
        status,
        h('p', { class: 'bad' }, `${file.name} was not imported:`),
        h(
          'ul',
          {},
          problems.map((p) => h('li', {}, h('code', {}, p.at), ' ', p.message)),
        ),
      );
    for (const part of ['when', 'then'] as const)
      for (const key of new Set(rows.flatMap((r) => Object.keys(r[part])))) if (!table.columns[part].includes(key)) table.columns[part].push(key);
    onRows(rows);
    show(status, h('p', { class: 'good', role: 'status' }, `Imported ${rows.length} rows from ${file.name}: check, preview and save them as any edit.`));
  };
  show(
    container,
    h('a', { href: `/studio/api${path}`, download: `${table.decision}.csv`, id: 'csv-export' }, 'Export CSV'),
    ' ',
    h('label', { for: 'csv-import' }, 'Import CSV '),
    input,
    status,
  );
  return container;
}
