import type { DecisionTable } from '../../../http/openapi/studio-schemas.ts';
import { h } from '../dom.ts';
import { factLine, shortAt } from '../values.ts';

/** The table's own examples, which `check` runs: given facts, the outcome expected, where each is written. */
export function examplesView(table: DecisionTable): HTMLElement | '' {
  if (!table.examples.length) return '';
  return h(
    'details',
    { class: 'examples' },
    h('summary', {}, `The table's ${table.examples.length} examples, which check runs`),
    h(
      'table',
      { class: 'grid small' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Given'), h('th', {}, 'Expect'), h('th', {}, 'Where'))),
      h(
        'tbody',
        {},
        table.examples.map((e) =>
          h(
            'tr',
            {},
            h('td', {}, h('code', {}, factLine(e.given))),
            h('td', {}, typeof e.expect === 'string' ? e.expect : h('code', {}, factLine(e.expect as Record<string, unknown>))),
            h('td', {}, h('code', { class: 'at', title: e.at }, shortAt(e.at))),
          ),
        ),
      ),
    ),
  );
}
