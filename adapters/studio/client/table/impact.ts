import type { EditImpact } from '../../../http/openapi/studio-schemas.ts';
import { h } from '../dom.ts';
import { factLine, valueView } from '../values.ts';

type Impact = NonNullable<EditImpact['impact']>;

/** What an edit would change: decision outcomes over the boundary cases, and scenario steps. */
export function impactView(x: Impact): HTMLElement {
  const s = x.summary;
  return h(
    'div',
    { class: 'impact' },
    h(
      'p',
      { class: s.changedRows + s.changedSteps ? 'bad' : 'good' },
      s.changedRows + s.changedSteps === 0
        ? 'No change: every boundary case and every scenario step answers as before.'
        : `This edit changes ${s.changedRows} decision outcome(s) (${s.changedCases} boundary cases) and ${s.changedPrices} price(s) in ${s.changedSteps} step(s) of ${s.scenarios} scenario(s).`,
    ),
    x.decisions.length ? changedOutcomes(x.decisions) : '',
    x.scenarios.length ? changedSteps(x.scenarios) : '',
  );
}

function changedOutcomes(decisions: Impact['decisions']): HTMLElement {
  return h(
    'table',
    { class: 'grid small', 'aria-label': 'Changed decision outcomes' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Decision'), h('th', {}, 'Before'), h('th', {}, 'After'), h('th', {}, 'Cases that show it'))),
    h(
      'tbody',
      {},
      decisions.map((d) =>
        h(
          'tr',
          {},
          h('td', {}, d.decision),
          h('td', {}, `${d.from.row ?? 'none'} `, valueView(d.from.outcome)),
          h('td', {}, `${d.to.row ?? 'none'} `, valueView(d.to.outcome)),
          h(
            'td',
            {},
            d.cases.slice(0, 3).map((c) => h('div', {}, h('code', {}, factLine(c)))),
            d.cases.length > 3 ? `… ${d.cases.length - 3} more` : '',
          ),
        ),
      ),
    ),
  );
}

function changedSteps(steps: Impact['scenarios']): HTMLElement {
  return h(
    'table',
    { class: 'grid small', 'aria-label': 'Scenario steps that would change' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Scenario step'), h('th', {}, 'Status'), h('th', {}, 'Code'), h('th', {}, 'Prices'))),
    h(
      'tbody',
      {},
      steps.map((c) =>
        h(
          'tr',
          { class: 'changed-step' },
          h(
            'td',
            {},
            h('code', {}, c.at ?? c.scenario),
            ' ',
            c.step,
            c.missing ? h('div', { class: 'bad' }, `not run on the ${c.missing.on} rules: stopped at ${c.missing.failedStep ?? 'an earlier step'}`) : '',
          ),
          h('td', {}, c.status ? `${c.status.from} → ${c.status.to}` : ''),
          h('td', {}, c.code ? `${c.code.from ?? '–'} → ${c.code.to ?? '–'}` : ''),
          h(
            'td',
            {},
            c.prices
              .slice(0, 4)
              .map((p) =>
                h('div', {}, `${p.at}: ${p.from ?? '–'} → ${p.to ?? '–'} ${p.currency} (${p.difference > 0 ? '+' : ''}${(p.difference / 100).toFixed(2)})`),
              ),
            c.prices.length > 4 ? `… ${c.prices.length - 4} more` : '',
          ),
        ),
      ),
    ),
  );
}
