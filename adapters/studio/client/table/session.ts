import type { DecisionTable, Explanation, PlacedProblem, TableEdit } from '../../../http/openapi/studio-schemas.ts';
import type { Problem } from '../api.ts';

/** A row as the page edits it and sends it back: every cell as the text shown. */
export type EditedRow = TableEdit['rows'][number];

/** What one table's view holds while it is open. */
export interface TableState {
  table: DecisionTable;
  /** The fragment's query: `row` (the row to show), `facts` (a case to explain at once). */
  params: URLSearchParams;
  editing: boolean;
  /** The edited rows, once an edit touched them; until then the table's own. */
  rows: EditedRow[] | null;
  /** What `check` found in the edit, placed at rows and cells. */
  problems: PlacedProblem[];
  /** Why `check` did not run (no analyst's token). */
  refused: Problem | undefined;
  /** The case last explained, whose deciding row the grid marks. */
  explanation: Explanation['explanation'] | null;
}

/** The state and what its parts ask of each other: drawing the rows again, checking an edit. */
export interface TableSession {
  state: TableState;
  draw(): void;
  /** An edit was made: check it once typing pauses. */
  edited(): void;
  /** Checks the edit now. */
  check(): Promise<void>;
}

/** The rows as the edit has them. */
export const editRows = (state: TableState): EditedRow[] =>
  state.rows ??
  state.table.rows.map((r) => ({
    was: r.id,
    id: r.id,
    otherwise: r.otherwise,
    when: Object.fromEntries(Object.entries(r.when).map(([k, c]) => [k, c.text])),
    then: Object.fromEntries(Object.entries(r.then).map(([k, c]) => [k, c.text])),
  }));

/** The problems `check` placed at a row (and a cell of it). */
export const problemsAt = (state: TableState, row: number, cell?: string): PlacedProblem[] =>
  state.problems.filter((p) => p.row === row && (cell === undefined || p.cell === cell));
