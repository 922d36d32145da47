import type { DecisionTable } from '../../../http/openapi/studio-schemas.ts';
import { api } from '../api.ts';
import { h, setView } from '../dom.ts';
import { problemBox } from '../problems.ts';
import { redrawOnSessionChange } from '../session.ts';
import { changePanel, editChecks } from './change.ts';
import { counterexamplesPanel } from './counterexamples.ts';
import { csvControls } from './csv.ts';
import { examplesPanel } from './examples.ts';
import { rowsGrid } from './grid.ts';
import { mutantsPanel } from './mutants.ts';
import type { TableSession, TableState } from './session.ts';
import { simulation } from './simulate.ts';
import { tryCase } from './try.ts';

/** One decision table: its rows, its examples, and panels to change it, try a case and simulate many. */
export async function tableView(name: string, params: URLSearchParams): Promise<void> {
  const answer = await api<DecisionTable>('GET', `/decisions/${encodeURIComponent(name)}`);
  if (!answer.ok) return setView(name, problemBox(answer.data));
  const table = answer.data;
  const state: TableState = {
    table,
    params,
    editing: false,
    rows: null,
    examples: null,
    exampleResults: [],
    expectations: [],
    problems: [],
    refused: undefined,
    explanation: null,
  };
  // The parts call each other through the session: the grid asks for a check, a check draws the grid again.
  const session: TableSession = {
    state,
    draw: () => {
      grid.draw();
      counterexamples.draw();
      examples.draw();
    },
    edited: () => checks.schedule(),
    check: () => checks.check(),
  };
  const grid = rowsGrid(session);
  const counterexamples = counterexamplesPanel(session);
  const examples = examplesPanel(session);
  const checks = editChecks(session);
  const change = changePanel(session);
  const trying = tryCase(session);
  const simulating = simulation(session);
  const mutants = mutantsPanel(session);
  // An imported CSV becomes the edit, checked as one typed in the grid.
  const imported = (rows: NonNullable<TableState['rows']>) => (Object.assign(state, { rows, editing: true }), session.draw(), change.draw(), checks.check());
  const csv = csvControls(h('div', { class: 'csv' }), table, (rows) => void imported(rows));

  setView(
    `${table.title}`,
    h(
      'p',
      { class: 'meta' },
      h('code', {}, table.decision),
      ' · hit policy ',
      h('strong', {}, table.hitPolicy),
      table.spec ? [' · spec ', table.spec] : '',
      ' · ',
      h('code', {}, table.at),
    ),
    h('section', { 'aria-label': 'Rows' }, grid.grid, grid.problemsList, counterexamples.box),
    examples.box,
    h(
      'section',
      { class: 'panel', 'aria-labelledby': 'change-h' },
      h('h3', { id: 'change-h' }, 'Change'),
      csv,
      change.bar,
      change.impactBox,
      change.saveBox,
      change.proposeBox,
    ),
    h('section', { class: 'panel', 'aria-labelledby': 'mutants-h' }, h('h3', { id: 'mutants-h' }, 'How well the scenarios guard it'), mutants.box),
    h(
      'div',
      { class: 'columns' },
      h('section', { class: 'panel', 'aria-labelledby': 'try-h' }, h('h3', { id: 'try-h' }, 'Try a case'), trying.form, trying.out),
      h('section', { class: 'panel', 'aria-labelledby': 'sim-h' }, h('h3', { id: 'sim-h' }, 'Simulate'), simulating.form, simulating.out),
    ),
  );
  session.draw();
  change.draw();
  // Signing in (or out) while editing: check the edit again, so the note that check needs a token goes.
  redrawOnSessionChange(() => (state.editing ? session.check() : undefined));
  // From a trace link: try the facts it carried.
  const facts = params.get('facts');
  if (facts) trying.tryFacts(JSON.parse(facts) as Record<string, unknown>);
  document.getElementById(`row-${params.get('row')}`)?.scrollIntoView({ block: 'center' });
}
