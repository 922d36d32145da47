import type { DraftShown } from '../../../http/openapi/studio-release-schemas.ts';
import { api } from '../api.ts';
import { h, setView, show } from '../dom.ts';
import { problemBox } from '../problems.ts';
import { redrawOnSessionChange } from '../session.ts';
import { evidenceView } from './evidence.ts';

const STEPS = [
  { step: 'approve', label: 'Approve', done: 'Approved: it is a release now, in force from' },
  { step: 'reject', label: 'Reject', done: 'Rejected: it will not come into force' },
  { step: 'withdraw', label: 'Withdraw', done: 'Withdrawn: it will not come into force' },
] as const;

/** A draft of a rule release: what it changes and why, who did what with it, its evidence, and the reviewer's decision. */
export async function draftView(name: string, decided?: string): Promise<void> {
  redrawOnSessionChange(() => draftView(name));
  const answer = await api<DraftShown>('GET', `/drafts/${encodeURIComponent(name)}`);
  const title = `Draft ${name}`;
  if (!answer.ok) return setView(title, problemBox(answer.data));
  const d = answer.data;
  setView(
    title,
    h(
      'p',
      { class: 'meta' },
      h('a', { href: '#/releases' }, 'Releases'),
      ' · ',
      h('strong', { id: 'draft-state', class: `state ${d.state}` }, d.state),
      d.decision ? [' · edits ', h('a', { href: `#/tables/${d.decision}` }, d.decision)] : ' · rule files',
      ' · in force from ',
      h('strong', {}, d.effectiveFrom),
      ' once approved · by ',
      d.author,
    ),
    h('p', { class: 'reason-text' }, h('strong', {}, 'Reason: '), d.reason),
    d.state === 'IN_REVIEW' ? decisionForm(d) : '',
    decided ? h('p', { class: 'good', role: 'status', id: 'draft-decided' }, decided) : '',
    h('section', { 'aria-labelledby': 'history-h' }, h('h3', { id: 'history-h' }, 'History'), history(d)),
    evidenceView(d.evidence),
  );
}

function history(d: DraftShown): HTMLElement {
  return h(
    'table',
    { class: 'grid small', id: 'draft-history' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['When', 'Who', 'What', 'Comment'].map((t) => h('th', {}, t)),
      ),
    ),
    h(
      'tbody',
      {},
      d.history.map((e) => h('tr', {}, h('td', {}, e.at), h('td', {}, e.by), h('td', {}, e.action), h('td', {}, e.comment ?? ''))),
    ),
  );
}

/**
 * Approve, reject (another analyst with the approver scope) or withdraw (its author). The page does not know who
 * is signed in beyond the token: the server decides who may, and its refusal shows here, by the buttons.
 */
function decisionForm(d: DraftShown): HTMLElement {
  const comment = h('textarea', { id: 'draft-comment', rows: 2, cols: 60 });
  const result = h('div', { id: 'draft-decision-result', 'aria-live': 'polite' });
  const decide = async (step: (typeof STEPS)[number]) => {
    result.replaceChildren();
    const text = comment.value.trim();
    const answer = await api<DraftShown>('POST', `/drafts/${encodeURIComponent(d.name)}/${step.step}`, text ? { comment: text } : {});
    if (!answer.ok) return show(result, problemBox(answer.data));
    await draftView(d.name, step.step === 'approve' ? `${step.done} ${d.effectiveFrom}.` : `${step.done}.`);
  };
  return h(
    'section',
    { class: 'panel', 'aria-labelledby': 'decide-h' },
    h('h3', { id: 'decide-h' }, 'Review'),
    h('label', { for: 'draft-comment', class: 'inline' }, 'Comment (kept in the history; say why when rejecting)'),
    comment,
    h(
      'div',
      { class: 'bar' },
      STEPS.map((s) => h('button', { type: 'button', id: `draft-${s.step}`, onclick: () => void decide(s) }, s.label)),
    ),
    result,
  );
}
