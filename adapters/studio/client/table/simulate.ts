import type { SimulatedCases } from '../../../http/openapi/studio-schemas.ts';
import { api } from '../api.ts';
import { h, show } from '../dom.ts';
import { problemBox } from '../problems.ts';
import { json, valueView } from '../values.ts';
import type { TableSession } from './session.ts';

/** Simulate many cases: CSV or a YAML list of fact rows, and the boundary cases if asked; one line per case. */
export function simulation(session: TableSession) {
  const { table } = session.state;
  const casesText = h('textarea', { id: 'cases', rows: 4, cols: 50, placeholder: `${table.facts.map((f) => f.name).join(',')}\n…` });
  const boundaries = h('input', { type: 'checkbox', id: 'boundaries' });
  const out = h('div', { id: 'simulate-result', 'aria-live': 'polite' });
  const simulate = async () => {
    const text = casesText.value.trim();
    const body = { boundaries: boundaries.checked, ...(text ? (/^[[-]/.test(text) ? { yaml: text } : { csv: text }) : {}) };
    const answer = await api<SimulatedCases>('POST', `/decisions/${table.decision}/simulate`, body);
    if (!answer.ok) return show(out, problemBox(answer.data));
    const { cases } = answer.data;
    const facts = [...new Set(cases.flatMap((c) => Object.keys(c.facts)))];
    show(
      out,
      h(
        'table',
        { class: 'grid small' },
        h('thead', {}, h('tr', {}, h('th', {}, '#'), ...facts.map((f) => h('th', {}, f)), h('th', {}, 'Row'), h('th', {}, 'Outcome'))),
        h(
          'tbody',
          {},
          cases.map((c, i) =>
            h(
              'tr',
              {},
              h('td', { class: 'num' }, i + 1),
              ...facts.map((f) => h('td', {}, f in c.facts ? json(c.facts[f]) : '')),
              h('td', {}, c.row ?? h('em', {}, 'none')),
              h('td', {}, c.problem ? h('span', { class: 'bad' }, c.problem) : valueView(c.outcome)),
            ),
          ),
        ),
      ),
    );
  };
  const form = h(
    'form',
    {
      'aria-label': 'Simulate many cases',
      onsubmit: (e) => {
        e.preventDefault();
        void simulate();
      },
    },
    h('label', { for: 'cases' }, 'Cases, as CSV with a header row of fact names, or a YAML list'),
    casesText,
    h('label', { class: 'inline' }, boundaries, ' add the boundary cases (every bound ±1, every enum value)'),
    h('button', { type: 'submit' }, 'Simulate'),
  );
  return { form, out };
}
