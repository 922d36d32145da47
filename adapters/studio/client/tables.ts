import type { DecisionList } from '../../http/openapi/studio-schemas.ts';
import { api } from './api.ts';
import { h, setView } from './dom.ts';
import { problemBox } from './problems.ts';

/** Every decision table, each linked to its own view. */
export async function tablesView(): Promise<void> {
  const answer = await api<DecisionList>('GET', '/decisions');
  if (!answer.ok) return setView('Decision tables', problemBox(answer.data));
  setView(
    'Decision tables',
    h('p', {}, 'Every decision the engine makes, as the files in rules/ state it. Open one to read it, try it or change it.'),
    h(
      'table',
      { class: 'grid' },
      h(
        'thead',
        {},
        h('tr', {}, h('th', {}, 'Decision'), h('th', {}, 'Title'), h('th', {}, 'Hit policy'), h('th', {}, 'Spec'), h('th', {}, 'Rows'), h('th', {}, 'File')),
      ),
      h(
        'tbody',
        {},
        ...answer.data.map((d) =>
          h(
            'tr',
            {},
            h('td', {}, h('a', { href: `#/tables/${d.decision}` }, d.decision)),
            h('td', {}, d.title),
            h('td', {}, d.hitPolicy),
            h('td', {}, d.spec ?? ''),
            h('td', { class: 'num' }, d.rows),
            h('td', {}, h('code', {}, d.file)),
          ),
        ),
      ),
    ),
  );
}
