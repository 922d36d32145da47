import type { Explanation, FactField } from '../../../http/openapi/studio-schemas.ts';
import { api } from '../api.ts';
import { h, show } from '../dom.ts';
import { problemBox } from '../problems.ts';
import { json, valueView } from '../values.ts';
import type { TableSession } from './session.ts';

/** A fact's default as an input's text: a string as it is, a number or a flag written out, anything else as JSON. */
const shown = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? `${v}` : (JSON.stringify(v) ?? ''));

/** A field of the form, from the fact catalogue: a choice for an enum or a boolean, a number, or text. */
function factInput(f: FactField): HTMLInputElement | HTMLSelectElement {
  const id = `fact-${f.name}`;
  if (f.kind === 'enum')
    return h(
      'select',
      { id, name: f.name },
      (f.values ?? []).map((v) => h('option', { value: v, selected: v === f.default }, v)),
    );
  if (f.kind === 'boolean') return h('select', { id, name: f.name }, h('option', { value: 'false' }, 'false'), h('option', { value: 'true' }, 'true'));
  if (f.kind === 'number')
    return h('input', { id, name: f.name, type: 'number', min: f.min, max: f.max, value: shown(f.default ?? Math.max(f.min ?? 0, 0)), required: true });
  return h('input', {
    id,
    name: f.name,
    value: shown(f.default ?? (f.kind === 'instant' ? new Date().toISOString().replace(/\.\d+Z$/, 'Z') : '')),
    placeholder: f.kind === 'instant' ? '2026-12-01T08:00:00+01:00' : '',
  });
}

/** Try a case: the facts of the decision's catalogue, explained row by row by the rules now serving. */
export function tryCase(session: TableSession) {
  const { table } = session.state;
  const factInputs = table.facts.map((f) => {
    const input = factInput(f);
    const label = h(
      'label',
      { for: `fact-${f.name}` },
      h('span', {}, `${f.name} `, h('small', {}, f.kind === 'enum' ? 'one of' : f.kind === 'number' ? `${f.min}–${f.max}` : f.kind)),
      input,
    );
    return { f, label, input };
  });
  const out = h('div', { id: 'explain-result', 'aria-live': 'polite' });
  const explain = async () => {
    const facts = Object.fromEntries(
      factInputs.map(({ f, input }) => [f.name, f.kind === 'number' ? Number(input.value) : f.kind === 'boolean' ? input.value === 'true' : input.value]),
    );
    const answer = await api<Explanation>('POST', `/decisions/${table.decision}/explain`, { facts });
    if (!answer.ok) return show(out, problemBox(answer.data));
    const { explanation, problems } = answer.data;
    if (problems || !explanation) {
      session.state.explanation = null;
      session.draw();
      return show(
        out,
        h(
          'ul',
          { class: 'problems' },
          (problems ?? []).map((p) => h('li', {}, p)),
        ),
      );
    }
    session.state.explanation = explanation;
    session.draw();
    show(out, ...explained(explanation, session.state.editing));
  };
  const form = h(
    'form',
    {
      class: 'facts',
      'aria-label': 'Facts to try',
      onsubmit: (e) => {
        e.preventDefault();
        void explain();
      },
    },
    factInputs.map((x) => x.label),
    h('button', { type: 'submit' }, 'Explain this case'),
  );
  /** From a trace link: the facts it carried, tried at once. */
  const tryFacts = (facts: Record<string, unknown>) => {
    for (const { f, input } of factInputs) if (f.name in facts) input.value = String(facts[f.name]);
    form.requestSubmit();
  };
  return { form, out, tryFacts };
}

/** The deciding row and outcome, and every condition of every row with the actual values. */
function explained(explanation: NonNullable<Explanation['explanation']>, editing: boolean) {
  const fired = explanation.rows.filter((r) => r.fired);
  const conditionRows = explanation.rows.flatMap((r) =>
    r.conditions.map((c, i) =>
      h(
        'tr',
        { class: r.firstFailed && c.at === r.firstFailed.at && c.operator === r.firstFailed.operator ? 'first-failure' : undefined },
        i === 0 ? h('th', { scope: 'row', rowspan: r.conditions.length }, r.row, r.fired ? ' ✔' : '') : null,
        h('td', {}, c.fact),
        h('td', {}, `${c.operator} ${json(c.expected)}`),
        h('td', {}, json(c.actual)),
        h('td', {}, c.passed ? 'yes' : 'no'),
      ),
    ),
  );
  return [
    h(
      'p',
      {},
      fired.length ? ['Row ', ...fired.map((r, i) => [i ? ', ' : '', h('strong', { class: 'deciding-row' }, r.row)]), ' decides: '] : 'No row decides: ',
      valueView(explanation.outcome),
    ),
    editing ? h('p', { class: 'note' }, 'Explained by the rules now serving, not by the edit: the preview of the impact shows what the edit changes.') : '',
    h(
      'details',
      {},
      h('summary', {}, 'Every condition of every row, with the actual values'),
      h(
        'table',
        { class: 'grid small' },
        h('thead', {}, h('tr', {}, h('th', {}, 'Row'), h('th', {}, 'Fact'), h('th', {}, 'Test'), h('th', {}, 'Actual'), h('th', {}, 'Holds'))),
        h('tbody', {}, conditionRows),
      ),
    ),
  ];
}
