import type { DraftShown } from '../../../http/openapi/studio-release-schemas.ts';
import { api } from '../api.ts';
import { h, show } from '../dom.ts';
import { problemBox } from '../problems.ts';
import { theEdit, type TableState } from './session.ts';

/**
 * The edit proposed as a rule release (docs/releases.md, "Four eyes"), instead of saved: nothing changes for callers
 * until a second analyst approves it, and then from its instant on. The draft's page shows its evidence.
 */
export function proposalForm(state: TableState): HTMLElement {
  const field = (id: string, label: string, input: HTMLInputElement | HTMLTextAreaElement) => h('label', { for: id, class: 'inline' }, label, ' ', input);
  const name = h('input', { id: 'release-name', name: 'release-name', size: 24, required: true });
  const from = h('input', { id: 'release-from', name: 'release-from', size: 26, required: true, placeholder: '2026-12-13T00:00+01:00' });
  const reason = h('textarea', { id: 'release-reason', name: 'release-reason', rows: 2, cols: 60, required: true });
  const result = h('div', { id: 'propose-result', 'aria-live': 'polite' });
  const propose = async () => {
    show(result, h('p', { class: 'busy' }, 'Gathering the evidence: the rule diff, the scenario corpus on both rule sets, the journal replayed…'));
    const answer = await api<DraftShown>('POST', `/decisions/${state.table.decision}/drafts`, {
      ...theEdit(state),
      version: state.table.version,
      name: name.value.trim(),
      effectiveFrom: from.value.trim(),
      reason: reason.value.trim(),
    });
    if (!answer.ok) return show(result, problemBox(answer.data));
    location.hash = `#/releases/drafts/${encodeURIComponent(answer.data.name)}`;
  };
  return h(
    'form',
    {
      class: 'propose',
      'aria-labelledby': 'propose-h',
      onsubmit: (e: Event) => {
        e.preventDefault();
        void propose();
      },
    },
    h('h4', { id: 'propose-h' }, 'Propose as a release'),
    h('p', { class: 'note' }, 'Instead of saving: another analyst reviews the edit with its evidence, and once approved it is in force from its instant.'),
    field('release-name', 'Release name', name),
    field('release-from', 'In force from (an instant with its offset)', from),
    field('release-reason', 'Reason (the reviewer reads it, the release keeps it)', reason),
    h('button', { type: 'submit', id: 'propose' }, 'Propose as a release'),
    result,
  );
}
