import type { ScenarioList, ScenarioRun } from '../../http/openapi/studio-schemas.ts';
import { api, token } from './api.ts';
import { h, setView, show } from './dom.ts';
import { problemBox } from './problems.ts';
import { redrawOnSessionChange } from './session.ts';
import { traceList } from './traces.ts';
import { json } from './values.ts';

/** The latest scenario run, shared by the Scenarios and Coverage views. */
let lastRun: ScenarioRun | undefined;
export const latestRun = (): ScenarioRun | undefined => lastRun;

/** A note that an action needs an analyst's token, while none is there. */
export const needsAnalyst = (what: string) => (token() ? '' : h('p', { class: 'note' }, `${what} needs an analyst\u2019s token: sign in above.`));

/** Runs the scenarios (of a tag, or all), showing progress and a refusal in `out`. */
export async function runScenarios(tag: string, out: HTMLElement, file?: string): Promise<ScenarioRun | undefined> {
  show(out, h('p', { class: 'busy' }, 'Running the scenarios…'));
  const answer = await api<ScenarioRun>('POST', '/scenarios/run', { ...(tag ? { tag } : {}), ...(file ? { file } : {}) });
  if (!answer.ok) {
    show(out, problemBox(answer.data));
    return undefined;
  }
  lastRun = answer.data;
  return answer.data;
}

/** The scenario corpus, run by tag against the serving rules. */
export async function scenariosView(params = new URLSearchParams()): Promise<void> {
  const answer = await api<ScenarioList>('GET', '/scenarios');
  if (!answer.ok) return setView('Scenarios', problemBox(answer.data));
  const list = answer.data;
  const tags = [...new Set(list.flatMap((s) => s.tags))].sort();
  const out = h('div', { id: 'run-result', 'aria-live': 'polite' });
  const tag = h(
    'select',
    { name: 'tag' },
    h('option', { value: '' }, `every scenario (${list.length})`),
    tags.map((t) => h('option', { value: t }, t)),
  );
  const form = h(
    'form',
    {
      'aria-label': 'Run scenarios',
      onsubmit: (e) => {
        e.preventDefault();
        void runScenarios(tag.value, out).then((run) => run && show(out, runView(run)));
      },
    },
    h('label', {}, 'Tag ', tag),
    ' ',
    h('button', { type: 'submit' }, 'Run against the serving rules'),
  );
  setView('Scenarios', needsAnalyst('Running scenarios'), form, out);
  redrawOnSessionChange(() => scenariosView(params));
  // From an impact preview's link: that scenario run alone against the serving rules, its step shown.
  const file = params.get('file');
  if (file && token()) {
    const run = await runScenarios('', out, file);
    if (!run) return;
    show(out, runView(run));
    const step = document.getElementById(`step-${params.get('step') ?? ''}`);
    step?.classList.add('target');
    step?.closest('details')?.setAttribute('open', '');
    step?.scrollIntoView({ block: 'center' });
    return;
  }
  if (lastRun) show(out, runView(lastRun));
}

/** Pass and fail per scenario and step, the failing scenarios first, with the differences and the rule traces of each step. */
function runView(run: ScenarioRun): HTMLElement {
  const failingFirst = [...run.scenarios].sort((a, b) => Number(a.passed) - Number(b.passed));
  return h(
    'div',
    {},
    h('p', { class: run.failed ? 'bad' : 'good', role: 'status' }, `${run.passed} passed, ${run.failed} failed`),
    failingFirst.map((s) =>
      h(
        'details',
        { class: `scenario ${s.passed ? 'passed' : 'failed'}`, open: !s.passed },
        h('summary', {}, s.passed ? '✔ ' : '✘ ', s.name, ' ', h('code', {}, s.file)),
        s.problems.map((p) => h('p', { class: 'bad' }, p)),
        h(
          'ol',
          { class: 'steps' },
          s.steps.map((st) =>
            h(
              'li',
              { id: `step-${st.at}`, class: st.skipped ? 'skipped' : st.passed ? 'passed' : 'failed' },
              st.skipped ? '– ' : st.passed ? '✔ ' : '✘ ',
              st.name,
              st.request ? h('code', {}, ` ${st.request.method} ${st.request.path}`) : '',
              st.status ? ` → ${st.status}` : '',
              st.error ? h('pre', { class: 'bad' }, st.error) : '',
              st.mismatches.length
                ? h(
                    'ul',
                    { class: 'diff' },
                    st.mismatches.map((m) =>
                      h(
                        'li',
                        {},
                        h('code', {}, m.path),
                        `: expected ${json(m.expected)}, got ${json(m.actual)}`,
                        m.at ? h('code', { class: 'at' }, ` ${m.at}`) : '',
                      ),
                    ),
                  )
                : '',
              st.traces?.length ? h('details', {}, h('summary', {}, 'Rule traces'), traceList(st.traces)) : '',
            ),
          ),
        ),
      ),
    ),
  );
}
