import type { Evidence } from '../../../http/openapi/studio-release-schemas.ts';
import { h } from '../dom.ts';
import { money } from '../values.ts';

type Replay = NonNullable<Evidence['replay']>;
type Change = Replay['changes']['price']['examples'][number];

const KINDS = [
  { kind: 'status', title: 'Status changes' },
  { kind: 'code', title: 'Problem code changes' },
  { kind: 'price', title: 'Price changes' },
] as const;

/**
 * The journal's requests replayed at their instants on the rules in force (A) and on the draft (B), as
 * `signalbox replay` reports it (docs/replay.md): how many changed, of each kind, and the first of each kind.
 */
export function replayView(r: Replay): HTMLElement {
  const skipped = Object.entries(r.journal.skipped).map(([kind, count]) => `${count} ${kind}`);
  return h(
    'div',
    { class: 'replay' },
    h(
      'p',
      { class: r.changed ? 'note' : 'good', role: 'status' },
      `${r.journal.replayed} of ${r.journal.requests} journal requests replayed${skipped.length ? ` (not replayed: ${skipped.join(', ')})` : ''}; `,
      `${r.changed} answered otherwise on the draft: `,
      KINDS.map((k) => `${r.changes[k.kind].count} ${k.kind}`).join(', '),
      '.',
    ),
    KINDS.filter((k) => r.changes[k.kind].examples.length).map((k) =>
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'grid small', id: `replay-${k.kind}`, 'aria-label': k.title },
          h('caption', {}, `${k.title} (${r.changes[k.kind].count}; the first ${r.changes[k.kind].examples.length})`),
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['Request', 'Client', 'At', r.rules.a, r.rules.b, 'Prices'].map((t) => h('th', {}, t)),
            ),
          ),
          h('tbody', {}, r.changes[k.kind].examples.map(changeRow)),
        ),
      ),
    ),
  );
}

const answer = (x: Change['a']) => `${x.status}${x.code ? ` ${x.code}` : ''}`;

function changeRow(c: Change): HTMLElement {
  return h(
    'tr',
    {},
    h('td', {}, `#${c.request} `, h('code', {}, `${c.method} ${c.url}`)),
    h('td', {}, c.client ?? ''),
    h('td', {}, c.at),
    h('td', {}, answer(c.a)),
    h('td', {}, answer(c.b)),
    h(
      'td',
      {},
      c.prices.map((p) =>
        h('div', { class: 'replay-price' }, h('code', {}, p.at), ': ', money(p.a ?? undefined) || '–', ' → ', money(p.b ?? undefined) || '–'),
      ),
    ),
  );
}
