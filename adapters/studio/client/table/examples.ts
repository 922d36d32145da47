import type { FactField, OutcomeField } from '../../../http/openapi/studio-schemas.ts';
import { h, show } from '../dom.ts';
import { factLine, shortAt, valueView } from '../values.ts';
import { factAsField, valueInput } from './editors.ts';
import { stableIds } from './grid.ts';
import { editExamples, type EditedExample, type TableSession, type TableState } from './session.ts';

/**
 * The table's own examples, which `check` runs: read, or, while the table is edited, changed like its rows (add,
 * edit, remove), each checked at every edit. An example the edit makes fail shows what the edited rules decide
 * instead, and offers that as its new expectation.
 */
export function examplesPanel(session: TableSession) {
  const box = h('section', { class: 'examples', 'aria-labelledby': 'examples-h' });
  const draw = () => {
    const { state } = session;
    const n = state.editing ? editExamples(state).length : state.table.examples.length;
    const heading = h('h3', { id: 'examples-h' }, `Examples (${n}), which check runs`);
    if (!state.editing) return show(box, n ? h('details', {}, h('summary', {}, heading), readTable(state)) : '');
    show(box, heading, editTable(session));
  };
  return { box, draw };
}

function readTable(state: TableState): HTMLElement {
  return h(
    'table',
    { class: 'grid small' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Given'), h('th', {}, 'Expect'), h('th', {}, 'Where'))),
    h(
      'tbody',
      {},
      state.table.examples.map((e) =>
        h(
          'tr',
          {},
          h('td', {}, h('code', {}, factLine(e.given))),
          h('td', {}, typeof e.expect === 'string' ? e.expect : h('code', {}, factLine(e.expect as Record<string, unknown>))),
          h('td', {}, h('code', { class: 'at', title: e.at }, shortAt(e.at))),
        ),
      ),
    ),
  );
}

function editTable(session: TableSession): HTMLElement {
  const { state } = session;
  const examples = editExamples(state);
  const changed = (redraw: boolean) => {
    state.examples = examples;
    if (redraw) session.draw();
    session.edited();
  };
  const rows = examples.map((e, i) =>
    exampleRow(state, e, i, changed, () => {
      examples.splice(i, 1);
      changed(true);
    }),
  );
  const add = h(
    'button',
    {
      type: 'button',
      id: 'add-example',
      onclick: () => {
        const given = Object.fromEntries(state.table.facts.filter((f) => f.default === undefined).map((f) => [f.name, firstValue(f)]));
        examples.push({ given, expect: {} });
        changed(true);
      },
    },
    'Add an example',
  );
  return h(
    'div',
    {},
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'grid small examples-edit', 'aria-label': 'Examples' },
        h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, 'Given'), h('th', {}, 'Expect'), h('th', {}, 'On the edited rules'), h('th', {}, ''))),
        h('tbody', {}, rows),
      ),
    ),
    add,
  );
}

const firstValue = (f: FactField): unknown => (f.kind === 'boolean' ? false : f.kind === 'number' ? Math.max(0, f.min ?? 0) : (f.values?.[0] ?? ''));

function exampleRow(state: TableState, e: EditedExample, i: number, changed: (redraw: boolean) => void, remove: () => void): HTMLElement {
  const { facts, outcomes } = state.table;
  const result = state.exampleResults[i];
  const problems = state.problems.filter((p) => p.example === i);
  const given = h(
    'div',
    { class: 'fields' },
    facts.map((f) => {
      const id = `example-${i}-given-${f.name}`;
      const editor = valueInput({ ...factAsField(f), optional: f.default !== undefined }, e.given[f.name], `Example ${i + 1}: ${f.name}`, (v) => {
        if (v === undefined) delete e.given[f.name];
        else e.given[f.name] = v;
        changed(false);
      });
      stableIds(editor, id);
      return h('label', { class: 'field' }, h('span', { class: 'kind' }, f.name), editor);
    }),
  );
  const noRow = e.expect === 'no-row';
  const expectBox = h('div', { class: 'fields' });
  if (noRow) expectBox.append(h('em', {}, 'no row decides'));
  else {
    const expect = e.expect as Record<string, unknown>;
    for (const [key, value] of Object.entries(expect)) {
      const field: OutcomeField = outcomes.find((o) => o.name === key) ?? { name: key, kind: 'json' };
      const editor = valueInput(field, value, `Example ${i + 1}: expect ${key}`, (v) => {
        if (v === undefined) delete expect[key];
        else expect[key] = v;
        changed(false);
      });
      stableIds(editor, `example-${i}-expect-${key}`);
      const drop = h('button', { type: 'button', class: 'small', 'aria-label': `Example ${i + 1}: stop expecting ${key}` }, '✕');
      drop.addEventListener('click', () => {
        delete expect[key];
        changed(true);
      });
      expectBox.append(h('label', { class: 'field' }, h('span', { class: 'kind' }, key), editor, drop));
    }
    const unused = outcomes.filter((o) => !(o.name in expect));
    if (unused.length) {
      const pick = h(
        'select',
        { 'aria-label': `Example ${i + 1}: expect also` },
        h('option', { value: '' }, 'expect also…'),
        unused.map((o) => h('option', { value: o.name }, o.name)),
      );
      pick.addEventListener('change', () => {
        const field = outcomes.find((o) => o.name === pick.value);
        if (!field) return;
        expect[field.name] =
          field.kind === 'boolean' ? true : field.kind === 'text' ? {} : (field.values?.[0] ?? (field.kind === 'number' || field.kind === 'integer' ? 0 : ''));
        changed(true);
      });
      expectBox.append(pick);
    }
  }
  const noRowBox = h('input', { type: 'checkbox', checked: noRow, 'aria-label': `Example ${i + 1}: no row decides` });
  noRowBox.addEventListener('change', () => {
    e.expect = noRowBox.checked ? 'no-row' : {};
    changed(true);
  });
  expectBox.append(h('label', { class: 'field' }, noRowBox, ' no row'));

  return h(
    'tr',
    { class: result && !result.passed ? 'problem' : undefined, 'data-example': i },
    h('td', { class: 'num' }, i + 1),
    h('td', {}, given),
    h('td', {}, expectBox),
    h('td', { class: 'why' }, resultCell(result, problems, e, i, changed)),
    h('td', {}, h('button', { type: 'button', 'aria-label': `Remove example ${i + 1}`, onclick: remove }, '✕')),
  );
}

/** Whether the example holds on the edited rules; if not, what they decide and a button to expect that instead. */
function resultCell(
  result: TableState['exampleResults'][number] | undefined,
  problems: TableState['problems'],
  e: EditedExample,
  i: number,
  changed: (redraw: boolean) => void,
): HTMLElement[] {
  const out: HTMLElement[] = problems.map((p) => h('div', { class: 'cell-problem' }, p.message));
  if (!result) return out;
  if (result.passed) return [h('span', { class: 'good' }, '✓ holds'), ...out];
  const decided =
    result.row === null ? h('span', {}, 'no row decides') : h('span', {}, 'row ', h('strong', {}, result.row), ' says ', valueView(result.outcome));
  const accept = h(
    'button',
    {
      type: 'button',
      id: `example-${i}-accept`,
      onclick: () => {
        const outcome = (result.outcome ?? {}) as Record<string, unknown>;
        const keys = e.expect === 'no-row' ? Object.keys(outcome) : Object.keys(e.expect);
        e.expect = result.row === null ? 'no-row' : Object.fromEntries(keys.filter((k) => k in outcome).map((k) => [k, outcome[k]]));
        changed(true);
      },
    },
    'Expect this instead',
  );
  return [h('div', { class: 'bad' }, '✗ fails: ', decided), accept];
}
