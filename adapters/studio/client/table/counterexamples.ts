import type { Counterexamples } from '../../../http/openapi/studio-schemas.ts';
import { api } from '../api.ts';
import { h, show } from '../dom.ts';
import { problemBox } from '../problems.ts';
import { shortAt } from '../values.ts';
import { theEdit, type TableSession } from './session.ts';
import { suggestedScenario } from './suggested.ts';

/**
 * When check finds cases the edit gives no row or two rows, a button that writes each as a counterexample scenario:
 * a request that reaches the case, pinning what the serving rules answer it, to add to the corpus.
 */
export function counterexamplesPanel(session: TableSession) {
  const bar = h('div', {});
  const out = h('div', { id: 'counterexamples', 'aria-live': 'polite' });
  const write = async () => {
    show(out, h('p', { class: 'busy' }, 'Searching for requests that reach each case…'));
    const { state } = session;
    const answer = await api<Counterexamples>('POST', `/decisions/${state.table.decision}/counterexamples`, theEdit(state));
    if (!answer.ok) return show(out, problemBox(answer.data));
    show(
      out,
      ...answer.data.counterexamples.map((c, i) =>
        h(
          'div',
          { class: 'counterexample' },
          h('p', {}, h('code', { class: 'at', title: c.at }, shortAt(c.at)), ' ', c.message),
          c.scenario
            ? [
                h('p', { class: 'note' }, `It pins what the serving rules answer; read with ${c.reading}, the edit answers otherwise.`),
                ...suggestedScenario(c.scenario, `add-counterexample-${i + 1}`),
              ]
            : h('p', { class: 'note' }, 'No request the search tries asks the decision this case.'),
        ),
      ),
    );
  };
  const draw = () => {
    const n = session.state.editing ? (session.state.counterexamples ?? 0) : 0;
    if (n === 0) show(out);
    show(
      bar,
      n > 0
        ? h(
            'p',
            { class: 'note' },
            `${n === 1 ? 'One case has' : `${n} cases have`} no row or two rows. `,
            h('button', { type: 'button', id: 'write-counterexamples', onclick: () => void write() }, 'Write counterexample scenarios'),
          )
        : '',
    );
  };
  return { box: h('div', {}, bar, out), draw };
}
