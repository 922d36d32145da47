import type {
  DecisionTable,
  EditCheck,
  Explanation,
  ExpectationUpdate,
  MutationReport,
  PlacedProblem,
  TableEdit,
} from '../../../http/openapi/studio-schemas.ts';
import type { Problem } from '../api.ts';

/** A row as the page edits it and sends it back: every cell's value as JSON (which is YAML too). */
export type EditedRow = TableEdit['rows'][number];
/** An example as the page edits it. */
export type EditedExample = NonNullable<TableEdit['examples']>[number];

/** What one table's view holds while it is open. */
export interface TableState {
  table: DecisionTable;
  /** The fragment's query: `row` (the row to show), `facts` (a case to explain at once). */
  params: URLSearchParams;
  editing: boolean;
  /** The edited rows, once an edit touched them; until then the table's own. */
  rows: EditedRow[] | null;
  /** The edited examples, once an edit touched them; until then the table's own. */
  examples: EditedExample[] | null;
  /** What the edited rules decide for each example (from the last check). */
  exampleResults: EditCheck['examples'];
  /** Scenario expectations this change updates, chosen from the impact preview. */
  expectations: ExpectationUpdate[];
  /** What `check` found in the edit, placed at rows and cells. */
  problems: PlacedProblem[];
  /** How many of check's problems are cases no row or two rows match (each can be written as a counterexample). */
  counterexamples?: number;
  /** Why `check` did not run (no analyst's token). */
  refused: Problem | undefined;
  /** The table's mutants as last run, whose survivors the grid marks at their rows. */
  mutants?: MutationReport;
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
    when: Object.fromEntries(Object.entries(r.when).map(([k, c]) => [k, JSON.stringify(c.value)])),
    then: Object.fromEntries(Object.entries(r.then).map(([k, c]) => [k, JSON.stringify(c.value)])),
  }));

/** The examples as the edit has them. */
export const editExamples = (state: TableState): EditedExample[] =>
  state.examples ?? state.table.examples.map((e) => ({ given: { ...e.given }, expect: structuredClone(e.expect) as EditedExample['expect'] }));

/** The edit as the change endpoints take it. */
export const theEdit = (state: TableState): TableEdit => ({
  rows: editRows(state),
  ...(state.examples ? { examples: state.examples } : {}),
  ...(state.expectations.length ? { expectations: state.expectations } : {}),
});

/** The edit is over (saved or discarded): the table's own rows and examples again, nothing checked or chosen. */
export function endEdit(state: TableState): void {
  state.editing = false;
  state.rows = null;
  state.examples = null;
  state.expectations = [];
  state.exampleResults = [];
  state.problems = [];
}

/** A cell's value as the edit holds it (JSON text); absent for an empty cell. */
export function cellValue(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The problems `check` placed at a row (and a cell of it). */
export const problemsAt = (state: TableState, row: number, cell?: string): PlacedProblem[] =>
  state.problems.filter((p) => p.row === row && (cell === undefined || p.cell === cell));
