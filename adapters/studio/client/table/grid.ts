import { h, show, type Child } from '../dom.ts';
import { cellView, json, shortAt } from '../values.ts';
import { conditionEditor, valueInput } from './editors.ts';
import { cellValue, editRows, problemsAt, type EditedRow, type TableSession, type TableState } from './session.ts';

/** The rows of the table: read as the file states them, or edited cell by cell; and what `check` says of the edit. */
export function rowsGrid(session: TableSession) {
  const grid = h('div', { class: 'table-wrap' });
  const problemsList = h('div', { id: 'problems', 'aria-live': 'polite' });
  const draw = () => {
    const { state } = session;
    const body = state.editing ? editedRows(session) : readRows(state);
    grid.replaceChildren(
      h('table', { class: 'grid rules', 'aria-label': `${state.table.decision} rows` }, h('thead', {}, headRow(state)), h('tbody', {}, body)),
    );
    show(problemsList, ...checkSummary(state));
  };
  return { grid, problemsList, draw };
}

function headRow(state: TableState): HTMLElement {
  const cols = state.table.columns;
  return h(
    'tr',
    {},
    h('th', { scope: 'col' }, '#'),
    h('th', { scope: 'col' }, 'Row'),
    ...cols.when.map((f) => h('th', { scope: 'col', class: 'when' }, h('span', { class: 'kind' }, 'if '), f)),
    ...cols.then.map((k) => h('th', { scope: 'col', class: 'then' }, h('span', { class: 'kind' }, 'then '), k)),
    state.explanation?.rows ? h('th', { scope: 'col' }, 'This case') : null,
    state.editing ? h('th', { scope: 'col' }, 'Order') : h('th', { scope: 'col' }, 'Where'),
  );
}

/** The rows as the file states them; with a case explained, which row decides it and why each other does not. */
function readRows(state: TableState): HTMLElement[] {
  const { table, params } = state;
  const cols = table.columns;
  const explained = state.explanation?.rows;
  return table.rows.map((r, i) => {
    const x = explained?.[i];
    const survive = state.mutants?.mutants.filter((m) => m.row === r.id && m.verdict === 'survived').length ?? 0;
    return h(
      'tr',
      { id: `row-${r.id}`, 'data-row': r.id, class: [x?.fired ? 'fired' : '', params.get('row') === r.id ? 'target' : ''].join(' ').trim() || undefined },
      h('td', { class: 'num' }, i + 1),
      h(
        'th',
        { scope: 'row' },
        r.id,
        survive ? h('span', { class: 'survivors', title: 'Mutants of this row no scenario notices (below)' }, ` ${survive} survive`) : '',
      ),
      ...cols.when.map((f) => {
        const cell = r.when[f];
        return h('td', { class: 'when' }, r.otherwise && f === cols.when[0] ? h('em', {}, 'otherwise') : cell ? cellView(cell) : '');
      }),
      ...cols.then.map((k) => {
        const cell = r.then[k];
        return h('td', { class: 'then' }, cell ? cellView(cell) : '');
      }),
      explained
        ? h(
            'td',
            { class: 'why' },
            x?.fired
              ? h('strong', {}, 'decides')
              : x?.firstFailed
                ? `${x.firstFailed.fact} is ${json(x.firstFailed.actual)}, needs ${x.firstFailed.operator} ${json(x.firstFailed.expected)}`
                : '',
          )
        : null,
      h('td', {}, h('code', { class: 'at', title: r.at }, shortAt(r.at))),
    );
  });
}

/** The rows as inputs: id, `otherwise`, every cell, and buttons to move or remove a row. */
function editedRows(session: TableSession): HTMLElement[] {
  const { state } = session;
  const cols = state.table.columns;
  const rows = editRows(state);
  const changed = (redraw: boolean) => {
    state.rows = rows;
    if (redraw) session.draw();
    session.edited();
  };
  return rows.map((r, i) => {
    const rowProblems = problemsAt(state, i).filter((p) => !p.cell || p.cell === 'id');
    const move = (to: number) => {
      const [x] = rows.splice(i, 1);
      rows.splice(to, 0, x!);
      changed(true);
    };
    const decides = state.explanation?.rows.find((x) => x.row === r.was)?.fired;
    const id = h('input', { value: r.id, 'aria-label': `Row ${i + 1} id`, size: 14 });
    id.addEventListener('input', () => {
      r.id = id.value;
      changed(false);
    });
    const otherwise = h('input', { type: 'checkbox', checked: r.otherwise });
    otherwise.addEventListener('change', () => {
      r.otherwise = otherwise.checked;
      changed(true);
    });
    return h(
      'tr',
      { 'data-row': r.id, class: [rowProblems.length ? 'problem' : '', decides ? 'fired' : ''].join(' ').trim() || undefined },
      h('td', { class: 'num' }, i + 1),
      h(
        'th',
        { scope: 'row' },
        h('span', { class: 'row-id' }, id, h('label', { class: 'otherwise' }, otherwise, ' otherwise')),
        rowProblems.length ? h('span', { class: 'cell-problem' }, rowProblems.map((p) => p.message).join('; ')) : null,
      ),
      ...cols.when.map((f) => cellInput(state, r, i, 'when', f, () => changed(false))),
      ...cols.then.map((k) => cellInput(state, r, i, 'then', k, () => changed(false))),
      h(
        'td',
        { class: 'order' },
        h('button', { type: 'button', 'aria-label': `Move row ${r.id} up`, disabled: i === 0, onclick: () => move(i - 1) }, '↑'),
        h('button', { type: 'button', 'aria-label': `Move row ${r.id} down`, disabled: i === rows.length - 1, onclick: () => move(i + 1) }, '↓'),
        h(
          'button',
          {
            type: 'button',
            'aria-label': `Remove row ${r.id}`,
            onclick: () => {
              rows.splice(i, 1);
              changed(true);
            },
          },
          '✕',
        ),
      ),
    );
  });
}

/** One cell of an edited row, a typed editor from the catalogues, with the problems `check` placed at it. */
function cellInput(state: TableState, r: EditedRow, i: number, part: 'when' | 'then', key: string, changed: () => void): HTMLElement {
  const problems = problemsAt(state, i, `${part}.${key}`);
  const id = `cell-${i}-${part}-${key}`;
  const label = `Row ${r.id}: ${part === 'when' ? 'condition on' : 'outcome'} ${key}`;
  const set = (value: unknown) => {
    if (value === undefined) delete r[part][key];
    else r[part][key] = JSON.stringify(value);
    changed();
  };
  const value = cellValue(r[part][key]);
  const { facts, outcomes } = state.table;
  const fact = facts.find((f) => f.name === key);
  const outcome = outcomes.find((f) => f.name === key);
  const editor =
    part === 'when' && r.otherwise === true
      ? h('em', {}, 'otherwise')
      : part === 'when' && fact
        ? conditionEditor(
            fact,
            facts.filter((f) => f.kind === 'instant' && f.name !== key).map((f) => f.name),
            value,
            label,
            id,
            set,
          )
        : valueInput(outcome ?? { name: key, kind: 'json' }, value, label, set);
  stableIds(editor, id);
  if (problems.length) {
    editor.setAttribute('aria-invalid', 'true');
    editor.setAttribute('aria-describedby', `${id}-p`);
  }
  return h(
    'td',
    { class: `${part} edit${problems.length ? ' problem' : ''}` },
    editor,
    problems.length ? h('span', { id: `${id}-p`, class: 'cell-problem' }, problems.map((p) => p.message).join('; ')) : null,
  );
}

/**
 * Gives every field of an editor an id from its cell's, in order: a check draws the grid again while the analyst
 * types, and the field being typed in is found again by its id.
 */
export function stableIds(editor: HTMLElement, id: string): void {
  const fields = [editor, ...editor.querySelectorAll('input, select, textarea')].filter((el) => ['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName));
  fields.forEach((el, n) => {
    el.id = n === 0 ? id : `${id}-${n}`;
  });
}

/** Whether `check` ran on the edit and what it found; problems of the whole table listed. */
function checkSummary(state: TableState): Child[] {
  const tableProblems = state.problems.filter((p) => p.row === undefined);
  return [
    state.editing && state.refused
      ? h(
          'p',
          { class: 'note' },
          `check did not run (${state.refused.status} ${state.refused.code}): checking, previewing and saving an edit need an analyst\u2019s token; sign in above.`,
        )
      : '',
    state.editing && !state.refused
      ? h(
          'p',
          { class: state.problems.length ? 'bad' : 'good' },
          state.problems.length ? `check: ${state.problems.length} problem${state.problems.length === 1 ? '' : 's'}` : 'check: no problems',
        )
      : '',
    tableProblems.length
      ? h(
          'ul',
          { class: 'problems' },
          tableProblems.map((p) => h('li', {}, h('code', {}, p.at), ' ', p.message)),
        )
      : '',
  ];
}
