import type { EditCheck, EditImpact, EditSaved } from '../../../http/openapi/studio-schemas.ts';
import { api } from '../api.ts';
import { h, show } from '../dom.ts';
import { mode } from '../mode.ts';
import { problemBox } from '../problems.ts';
import { impactView, sameUpdate } from './impact.ts';
import { proposalForm } from './propose.ts';
import { editRows, endEdit, theEdit, type TableSession } from './session.ts';

/** How long typing must pause before an edit is checked. */
const CHECK_AFTER_MS = 250;

/** Checking an edit as it is typed: `check` runs on the whole rule set, its problems drawn at their cells. */
export function editChecks(session: TableSession) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = async () => {
    const { state } = session;
    const answer = await api<EditCheck>('POST', `/decisions/${state.table.decision}/check`, theEdit(state));
    state.refused = answer.ok ? undefined : answer.data;
    state.problems = answer.ok ? answer.data.problems : [];
    state.counterexamples = answer.ok ? answer.data.counterexamples : undefined;
    state.exampleResults = answer.ok ? answer.data.examples : [];
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

/** Why the change may be saved although scenario steps fail on it: kept with the change in the rules' CHANGES.md. */
function reasonForm(save: (reason: string) => Promise<void>): HTMLElement {
  const reason = h('textarea', { id: 'reason', rows: 3, cols: 60, 'aria-label': 'Why save although scenario steps fail' });
  return h(
    'div',
    { class: 'reason' },
    h('label', { for: 'reason' }, 'Update the failing expectations from the preview, or say why the change is saved anyway (kept in CHANGES.md):'),
    reason,
    h(
      'button',
      {
        type: 'button',
        id: 'save-with-reason',
        onclick: () => {
          if (reason.value.trim()) void save(reason.value.trim());
          else reason.focus();
        },
      },
      'Save with this reason',
    ),
  );
}

/** The Change panel: start an edit; add rows and condition columns; preview its impact; save it or discard it. */
export function changePanel(session: TableSession) {
  const { state } = session;
  const { table } = state;
  const bar = h('div', { class: 'bar' });
  const impactBox = h('div', { id: 'impact', 'aria-live': 'polite' });
  const saveBox = h('div', { id: 'save-result', 'aria-live': 'polite' });
  // Made once, so what the analyst typed in it stays while the edit goes on.
  const proposeBox = h('div', { hidden: true }, proposalForm(state));

  const preview = async () => {
    show(impactBox, h('p', { class: 'busy' }, 'Running every decision over its boundary cases, the price probes and the scenarios on both rule sets…'));
    const answer = await api<EditImpact>('POST', `/decisions/${table.decision}/impact`, theEdit(state));
    if (!answer.ok) return show(impactBox, problemBox(answer.data));
    state.exampleResults = answer.data.examples;
    if (!answer.data.impact) {
      state.problems = answer.data.problems;
      session.draw();
      return show(impactBox, h('p', { class: 'bad' }, 'Fix the problems first: check found some (failing examples are marked in the examples).'));
    }
    session.draw();
    show(
      impactBox,
      impactView(answer.data.impact, state.expectations, (updates) => {
        state.expectations = [...state.expectations.filter((u) => !updates.some((v) => sameUpdate(u, v))), ...updates];
        void preview();
      }),
    );
  };
  const save = async (reason?: string) => {
    const answer = await api<EditSaved>('PUT', `/decisions/${table.decision}`, { ...theEdit(state), version: table.version, ...(reason ? { reason } : {}) });
    if (!answer.ok) {
      if (answer.data?.code !== 'X_SCENARIOS_FAIL') return show(saveBox, problemBox(answer.data));
      return show(saveBox, problemBox(answer.data), reasonForm(save));
    }
    const { saved, file, scenarios, failing } = answer.data;
    Object.assign(table, answer.data.table);
    endEdit(state);
    // The preview was of the edit now saved: it no longer compares with what serves.
    impactBox.replaceChildren();
    session.draw();
    draw();
    show(
      saveBox,
      h(
        'p',
        { class: 'good', role: 'status' },
        saved
          ? `Saved ${file}${scenarios.length ? ` and the expectations of ${scenarios.join(', ')}` : ''}; the server now answers with the new rules.${failing ? ` ${failing} scenario step${failing === 1 ? '' : 's'} fail${failing === 1 ? 's' : ''} on them, as the reason says.` : ''}`
          : 'Nothing changed.',
      ),
    );
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
    proposeBox.hidden = !state.editing;
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
    const unusedOutcomes = table.outcomes.map((o) => o.name).filter((o) => !table.columns.then.includes(o));
    const newOutcome = h(
      'select',
      { id: 'new-outcome', 'aria-label': 'Outcome to add a column for' },
      unusedOutcomes.map((o) => h('option', { value: o }, o)),
    );
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
      unusedOutcomes.length
        ? h(
            'span',
            {},
            newOutcome,
            h(
              'button',
              {
                type: 'button',
                onclick: () => {
                  table.columns.then.push(newOutcome.value);
                  session.draw();
                  draw();
                },
              },
              'Add an outcome column',
            ),
          )
        : '',
      h('button', { type: 'button', id: 'preview', onclick: () => void preview() }, 'Preview the impact'),
      h(
        'button',
        {
          type: 'button',
          id: 'save',
          onclick: () => {
            saveBox.replaceChildren();
            void save();
          },
        },
        'Save to ' + table.file,
      ),
      h(
        'button',
        {
          type: 'button',
          onclick: () => {
            endEdit(state);
            impactBox.replaceChildren();
            saveBox.replaceChildren();
            session.draw();
            draw();
          },
        },
        'Discard the edit',
      ),
    );
  };
  return { bar, proposeBox, impactBox, saveBox, draw };
}
