import type { ScenarioRun } from '../../http/openapi/studio-schemas.ts';
import { h, setView, show } from './dom.ts';
import { latestRun, needsAnalyst, runScenarios } from './scenarios.ts';
import { redrawOnSessionChange } from './session.ts';

/** `scenarios/offers/passenger-types.yaml` → `offers/passenger-types`: a column heading. */
const short = (f: string) => f.replace(/^.*scenarios\//, '').replace(/\.ya?ml$/, '');

/** Which decision rows each scenario exercises, and the rows none does. */
export function coverageView(): void {
  const out = h('div', { id: 'coverage-result' });
  const draw = (run: ScenarioRun) => {
    const { coverage } = run;
    const files = coverage.scenarios;
    show(
      out,
      h(
        'p',
        { class: coverage.unexercised.length ? 'bad' : 'good' },
        coverage.unexercised.length ? `${coverage.unexercised.length} rows no scenario exercises: ` : 'Every row is exercised.',
        coverage.unexercised.map((r, i) => [i ? ', ' : '', h('code', { class: 'unexercised' }, r)]),
      ),
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'grid matrix', 'aria-label': 'Rows by scenarios' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', {}, 'Decision row'),
              files.map((f, i) => h('th', { title: f, class: 'rot' }, h('span', {}, short(f) || String(i + 1)))),
            ),
          ),
          h(
            'tbody',
            {},
            coverage.rows.map((r) =>
              h(
                'tr',
                { class: r.by.length ? undefined : r.unreachable ? 'unreachable' : 'unexercised' },
                h(
                  'th',
                  { scope: 'row', title: r.unreachable ? `listed as unreachable: ${r.unreachable}` : undefined },
                  h('a', { href: `#/tables/${r.decision}?row=${encodeURIComponent(r.row)}` }, `${r.decision}#${r.row}`),
                  r.unreachable ? ' (unreachable)' : '',
                ),
                files.map((f) => h('td', { class: 'mark' }, r.by.includes(f) ? h('span', { title: `${r.decision}#${r.row} by ${f}` }, '●') : '')),
              ),
            ),
          ),
        ),
      ),
    );
  };
  const button = h(
    'button',
    {
      type: 'button',
      onclick: () => {
        void runScenarios('', out).then((run) => run && draw(run));
      },
    },
    'Run every scenario for coverage',
  );
  setView('Coverage', h('p', {}, 'Which decision rows each scenario exercises, and the rows none does.'), needsAnalyst('Running scenarios'), button, out);
  redrawOnSessionChange(coverageView);
  const run = latestRun();
  if (run) draw(run);
}
