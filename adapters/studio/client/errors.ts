import type { ErrorPage } from '../../http/openapi/problem.ts';
import { api } from './api.ts';
import { h, setView } from './dom.ts';
import { problemBox } from './problems.ts';

/** rules/errors.yaml: every code in both languages, and the decision rows that raise it. */
export async function errorsView(): Promise<void> {
  const answer = await api<ErrorPage[]>('GET', '/errors');
  if (!answer.ok) return setView('Error catalogue', problemBox(answer.data));
  setView(
    'Error catalogue',
    h('p', {}, 'rules/errors.yaml: every error an answer can carry, in both languages, and the decision rows that raise it.'),
    h(
      'table',
      { class: 'grid small' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Code'), h('th', {}, 'Status'), h('th', {}, 'en-GB'), h('th', {}, 'sv-SE'), h('th', {}, 'Raised by'))),
      h(
        'tbody',
        {},
        answer.data.map((e) =>
          h(
            'tr',
            { id: `error-${e.code}` },
            h('th', { scope: 'row' }, h('a', { href: `/errors/${e.code}` }, e.code)),
            h('td', {}, e.status),
            ...['en-GB', 'sv-SE'].map((l) => h('td', { lang: l }, h('strong', {}, e.texts[l]?.title ?? ''), h('br'), e.texts[l]?.detail ?? '')),
            h(
              'td',
              {},
              e.raisedBy.map((r) => h('div', {}, h('a', { href: `#/tables/${r.decision}` }, r.decision), ' ', h('code', {}, r.at))),
            ),
          ),
        ),
      ),
    ),
  );
}
