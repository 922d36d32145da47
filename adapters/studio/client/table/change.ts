import type { EditCheck, EditImpact, EditSaved } from '../../../http/openapi/studio-schemas.ts';
import { api } from '../api.ts';
import { h, show } from '../dom.ts';
import { mode } from '../mode.ts';
import { problemBox } from '../problems.ts';
import { impactView } from './impact.ts';
import { editRows, type TableSession } from './session.ts';

/** How long typing must pause before an edit is checked. */
const CHECK_AFTER_MS = 250;

/** Checking an edit as it is typed: `check` runs on the whole rule set, its problems drawn at their cells. */
export function editChecks(session: TableSession) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = async () => {
    const { state } = session;
    const answer = await api<EditCheck>('POST', `/decisions/${state.table.decision}/check`, { rows: editRows(state) });
    state.refused = answer.ok ? undefined : answer.data;
    state.problems = answer.ok ? answer.data.problems : [];
    // Drawing replaces the inputs: the one being typed in keeps the focus and the caret.
    const active = document.activeElement;
    const focused = active?.id;
    const caret = active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement ? active.selectionStart : null;
    session.draw();
    if (focused) {
      const el = document.getElementById(focused);
      el?.focus();
      if (caret !== null && (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement)) el.setSelectionRange(caret, caret);
    }
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void check(), CHECK_AFTER_MS);
  };
  return { check, schedule };
}

/** The Change panel: start an edit; add rows and condition columns; preview its impact; save it or discard it. */
export function changePanel(session: TableSession) {
  const { state } = session;
  const { table } = state;
  const bar = h('div', { class: 'bar' });
  const impactBox = h('div', { id: 'impact', 'aria-live': 'polite' });
  const saveBox = h('div', { id: 'save-result', 'aria-live': 'polite' });

  const preview = async () => {
    show(impactBox, h('p', { class: 'busy' }, 'Running every decision over its boundary cases and the scenarios on both rule sets…'));
    const answer = await api<EditImpact>('POST', `/decisions/${table.decision}/impact`, { rows: editRows(state) });
    if (!answer.ok) return show(impactBox, problemBox(answer.data));
    if (!answer.data.impact) {
      state.problems = answer.data.problems;
      session.draw();
      return show(impactBox, h('p', { class: 'bad' }, 'Fix the problems first: check found some.'));
    }
    show(impactBox, impactView(answer.data.impact));
  };
  const save = async () => {
    const answer = await api<EditSaved>('PUT', `/decisions/${table.decision}`, { rows: editRows(state), version: table.version });
    if (!answer.ok) return show(saveBox, problemBox(answer.data));
    const { saved, file } = answer.data;
    Object.assign(table, answer.data.table);
    state.rows = null;
    state.editing = false;
    state.problems = [];
    session.draw();
    draw();
    show(saveBox, h('p', { class: 'good', role: 'status' }, saved ? `Saved ${file}; the server now answers with the new rules.` : 'Nothing changed.'));
  };

  const startButton = () =>
    h(
      'button',
      {
        type: 'button',
        id: 'edit',
        onclick: () => {
          state.editing = true;
          state.explanation = null;
          session.draw();
          draw();
          void session.check();
        },
      },
      'Edit this table',
    );

  const draw = () => {
    if (!state.editing) {
      show(
        bar,
        startButton(),
        mode.edit
          ? ''
          : h('span', { class: 'note' }, ' This server does not save rule changes (start it with --sandbox or --edit); you can still edit and preview.'),
      );
      return;
    }
    const unused = table.facts.map((f) => f.name).filter((f) => !table.columns.when.includes(f));
    const newFact = h(
      'select',
      { id: 'new-fact', 'aria-label': 'Fact to add a condition on' },
      unused.map((f) => h('option', { value: f }, f)),
    );
    show(
      bar,
      h(
        'button',
        {
          type: 'button',
          onclick: () => {
            const rows = editRows(state);
            rows.push({ id: `new-row-${rows.length + 1}`, when: {}, then: {} });
            state.rows = rows;
            session.draw();
            session.edited();
          },
        },
        'Add a row',
      ),
      unused.length
        ? h(
            'span',
            {},
            newFact,
            h(
              'button',
              {
                type: 'button',
                onclick: () => {
                  table.columns.when.push(newFact.value);
                  session.draw();
                  draw();
                },
              },
              'Add a condition column',
            ),
          )
        : '',
      h('button', { type: 'button', id: 'preview', onclick: () => void preview() }, 'Preview the impact'),
      h('button', { type: 'button', id: 'save', onclick: () => void save() }, 'Save to ' + table.file),
      h(
        'button',
        {
          type: 'button',
          onclick: () => {
            state.editing = false;
            state.rows = null;
            state.problems = [];
            impactBox.replaceChildren();
            session.draw();
            draw();
          },
        },
        'Discard the edit',
      ),
    );
  };
  return { bar, impactBox, saveBox, draw };
}
