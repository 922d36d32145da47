import type { Evidence } from '../../../http/openapi/studio-release-schemas.ts';
import { h } from '../dom.ts';
import { changedOutcomes } from '../table/impact.ts';
import { json } from '../values.ts';
import { replayView } from './replay.ts';

type Impact = Evidence['impact'];

const n = (count: number, what: string) => `${count} ${what}${count === 1 ? '' : 's'}`;

/**
 * What the reviewer reads before deciding, as it was gathered when the draft was proposed: the rule files' diff, what
 * the scenario corpus says of the edit, and the latest requests replayed on both rule sets.
 */
export function evidenceView(e: Evidence): HTMLElement {
  return h(
    'section',
    { 'aria-labelledby': 'evidence-h', id: 'evidence' },
    h('h3', { id: 'evidence-h' }, 'Evidence'),
    h('p', { class: 'note' }, 'Compared with ', h('code', {}, e.against), ', the rules in force when the draft was proposed.'),
    h('section', { 'aria-labelledby': 'diff-h', id: 'evidence-diff' }, h('h4', { id: 'diff-h' }, 'What changes in the rule files'), diffView(e.diff)),
    h(
      'section',
      { 'aria-labelledby': 'impact-h', id: 'evidence-impact' },
      h('h4', { id: 'impact-h' }, 'What the scenario corpus says'),
      impactSummary(e.impact),
    ),
    h(
      'section',
      { 'aria-labelledby': 'replay-h', id: 'evidence-replay' },
      h('h4', { id: 'replay-h' }, 'The latest requests, replayed on both rule sets'),
      e.replay
        ? replayView(e.replay)
        : h(
            'p',
            { class: 'note' },
            e.noReplay === 'empty-journal'
              ? 'The journal held no request to replay.'
              : 'No journal to replay: the server keeps none and none came with the draft.',
          ),
    ),
  );
}

/** Each file's unified diff, its added and removed lines marked (as `ins` and `del`, so they read as such without colour too). */
function diffView(diff: Evidence['diff']): HTMLElement[] | HTMLElement {
  if (!diff.length) return h('p', { class: 'note' }, 'No rule file differs.');
  return diff.map((f) =>
    h(
      'figure',
      { class: 'patch' },
      h('figcaption', {}, h('code', {}, f.file), ` ${f.change}`),
      h(
        'pre',
        {},
        f.patch.split('\n').map((line) => {
          const text = `${line}\n`;
          if (line.startsWith('+') && !line.startsWith('+++')) return h('ins', {}, text);
          if (line.startsWith('-') && !line.startsWith('---')) return h('del', {}, text);
          return text;
        }),
      ),
    ),
  );
}

function impactSummary(x: Impact): HTMLElement {
  const s = x.summary;
  const failing = x.scenarios.filter((c) => c.verdict?.to === 'failed');
  return h(
    'div',
    { class: 'impact' },
    h(
      'p',
      { class: failing.length ? 'bad' : 'note', role: 'status' },
      `${n(s.failingSteps, 'scenario step')} fail${s.failingSteps === 1 ? 's' : ''} on the draft. `,
      `${n(s.changedSteps, 'scenario step')} in ${n(s.scenarios, 'scenario')} answer otherwise (${n(s.changedPrices, 'price')} in their answers); `,
      `${n(s.changedOfferPrices, 'offer price')} of the price probes and ${n(s.changedRows, 'decision outcome')} (${n(s.changedCases, 'boundary case')}) change.`,
    ),
    failing.length ? failingSteps(failing) : '',
    x.decisions.length ? h('div', { class: 'table-wrap' }, changedOutcomes(x.decisions)) : '',
  );
}

function failingSteps(steps: Impact['scenarios']): HTMLElement {
  return h(
    'table',
    { class: 'grid small', id: 'evidence-failing', 'aria-label': 'Scenario steps that fail on the draft' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['Scenario', 'Step', 'Where in the answer', 'Expected', 'On the draft'].map((t) => h('th', {}, t)),
      ),
    ),
    h(
      'tbody',
      {},
      steps.flatMap((c) =>
        (c.mismatches?.length ? c.mismatches : [undefined]).map((m, i) =>
          h(
            'tr',
            { class: 'failing-step' },
            // The step once, beside all that it finds otherwise.
            i === 0 ? h('td', { rowspan: c.mismatches?.length ?? 1 }, h('code', {}, c.scenario)) : null,
            i === 0
              ? h(
                  'td',
                  { rowspan: c.mismatches?.length ?? 1 },
                  c.step,
                  c.verdict?.from === 'failed' ? h('div', { class: 'note' }, 'fails on the rules in force too') : '',
                )
              : null,
            h('td', {}, m ? h('code', {}, m.path) : ''),
            h('td', {}, m ? h('code', {}, json(m.expected)) : ''),
            h('td', {}, m ? h('code', {}, json(m.actual)) : ''),
          ),
        ),
      ),
    ),
  );
}
