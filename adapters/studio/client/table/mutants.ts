import type { MutationReport, SuggestedScenario } from '../../../http/openapi/studio-schemas.ts';
import { api } from '../api.ts';
import { h, show } from '../dom.ts';
import { problemBox } from '../problems.ts';
import { shortAt } from '../values.ts';
import type { TableSession } from './session.ts';
import { suggestedScenario } from './suggested.ts';

/**
 * How well the scenarios guard the table: its mutants (small wrong versions) run against the scenarios that ask the
 * decision. The score, the surviving mutants with where each is and what it changes, and the rows marked with how
 * many of their mutants survive.
 */
export function mutantsPanel(session: TableSession) {
  const out = h('div', { id: 'mutants-result', 'aria-live': 'polite' });
  const run = async () => {
    show(out, h('p', { class: 'busy' }, 'Running every mutant of the table against the scenarios that ask it…'));
    const answer = await api<MutationReport>('POST', `/decisions/${session.state.table.decision}/mutants`);
    if (!answer.ok) return show(out, problemBox(answer.data));
    session.state.mutants = answer.data;
    session.draw();
    show(out, report(answer.data));
  };
  const button = h('button', { type: 'button', id: 'run-mutants', onclick: () => void run() }, 'Run the mutants');
  return { box: h('div', {}, h('p', { class: 'note' }, 'Would the scenarios notice if this table were wrong? ', button), out) };
}

function report(r: MutationReport): HTMLElement {
  const d = r.decisions[0]!;
  const suggestion = h('div', { id: 'suggestion', 'aria-live': 'polite' });
  const survivors = r.mutants.filter((m) => m.verdict === 'survived');
  const notCounted = r.mutants.length - d.valid;
  return h(
    'div',
    {},
    h(
      'p',
      { class: survivors.length ? 'bad' : 'good', role: 'status' },
      `Score ${(d.score * 100).toFixed(0)} %: ${d.killed} of ${d.valid} mutants killed (${d.killedByScenarios} by a scenario, the rest by the table's examples), ${survivors.length} survive; `,
      `${notCounted} not counted (check refuses them, or they decide every boundary case alike). ${d.scenarios} scenarios ask this decision.`,
    ),
    survivors.length
      ? h(
          'div',
          { class: 'table-wrap' },
          h(
            'table',
            { class: 'grid small', 'aria-label': 'Surviving mutants' },
            h('thead', {}, h('tr', {}, h('th', {}, 'Where'), h('th', {}, 'Row'), h('th', {}, 'What changes, and no scenario notices'), h('th', {}, ''))),
            h(
              'tbody',
              {},
              survivors.map((m) =>
                h(
                  'tr',
                  { class: 'survivor', 'data-row': m.row },
                  h('td', {}, h('code', { class: 'at', title: m.at }, shortAt(m.at))),
                  h('td', {}, h('a', { href: `#/tables/${m.decision}?row=${encodeURIComponent(m.row)}` }, m.row)),
                  h('td', {}, m.change.replace(`${m.row}: `, '')),
                  h(
                    'td',
                    {},
                    h('button', { type: 'button', class: 'suggest', onclick: () => void suggest(m.decision, m.id, suggestion) }, 'Suggest a scenario'),
                  ),
                ),
              ),
            ),
          ),
        )
      : '',
    suggestion,
  );
}

/** The scenario that would kill a survivor, shown as the file it would be, and a button to add it to the corpus. */
async function suggest(decision: string, mutant: string, out: HTMLElement): Promise<void> {
  show(out, h('p', { class: 'busy' }, 'Searching for a request the rules and the mutant answer differently…'));
  const answer = await api<SuggestedScenario>('POST', `/decisions/${decision}/mutants/${encodeURIComponent(mutant)}/suggestion`);
  if (!answer.ok) return show(out, problemBox(answer.data));
  show(out, ...suggestedScenario(answer.data, 'add-suggestion'));
}
