import type { DraftListed, ReleaseList } from '../../../http/openapi/studio-release-schemas.ts';
import { api } from '../api.ts';
import { h, setView } from '../dom.ts';
import { problemBox } from '../problems.ts';
import { redrawOnSessionChange } from '../session.ts';

const TITLE = 'Releases';

/**
 * The rule releases in the store, in the order they come into force (the one in force now, the ones before it, the
 * ones scheduled after it), and the drafts of releases, each linked to its page with its evidence.
 */
export async function releasesView(): Promise<void> {
  redrawOnSessionChange(releasesView);
  const [releases, drafts] = await Promise.all([api<ReleaseList>('GET', '/releases'), api<{ drafts: DraftListed[] }>('GET', '/drafts')]);
  if (!releases.ok) return setView(TITLE, problemBox(releases.data));
  if (!drafts.ok) return setView(TITLE, problemBox(drafts.data));
  setView(
    TITLE,
    h(
      'p',
      {},
      'A table edit becomes a release through four eyes: its analyst proposes it (Change panel of the table, ',
      h('em', {}, 'Propose as a release'),
      '), another analyst with the approver scope reads its evidence and approves it; it is then in force from its instant on every server sharing the store.',
    ),
    h('section', { 'aria-labelledby': 'releases-h' }, h('h3', { id: 'releases-h' }, 'Schedule and history'), releaseTable(releases.data)),
    h('section', { 'aria-labelledby': 'drafts-h' }, h('h3', { id: 'drafts-h' }, 'Drafts'), draftTable(drafts.data.drafts)),
  );
}

function releaseTable({ inForce, releases }: ReleaseList): HTMLElement {
  if (!releases.length) return h('p', { class: 'note' }, 'No release yet: the server decides with the rules it started with.');
  // Listed in the order they come into force: those before the one in force are history, those after it scheduled.
  const current = inForce === null ? -1 : releases.findIndex((r) => r.name === inForce);
  const when = (i: number) => (i === current ? h('strong', { class: 'good' }, 'in force now') : i < current ? 'superseded' : 'scheduled');
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'grid', id: 'releases' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Release', 'In force from', 'Now', 'Created by', 'Created on', 'Approved by', 'Reason'].map((t) => h('th', {}, t)),
        ),
      ),
      h(
        'tbody',
        {},
        releases.map((r, i) =>
          h(
            'tr',
            { id: `release-${r.name}` },
            h('th', { scope: 'row' }, r.draft ? h('a', { href: `#/releases/drafts/${encodeURIComponent(r.draft)}` }, r.name) : r.name),
            h('td', {}, r.effectiveFrom),
            h('td', {}, when(i)),
            h('td', {}, r.createdBy),
            h('td', {}, r.createdOn),
            h('td', {}, r.approvedBy ?? h('span', { class: 'note' }, 'made without review (signalbox release create)')),
            h('td', {}, r.reason ?? ''),
          ),
        ),
      ),
    ),
  );
}

function draftTable(drafts: DraftListed[]): HTMLElement {
  if (!drafts.length) return h('p', { class: 'note' }, 'No draft yet.');
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'grid', id: 'drafts' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Draft', 'State', 'Author', 'In force from', 'Table', 'Proposed'].map((t) => h('th', {}, t)),
        ),
      ),
      h(
        'tbody',
        {},
        drafts.map((d) =>
          h(
            'tr',
            { id: `draft-${d.name}` },
            h('th', { scope: 'row' }, h('a', { href: `#/releases/drafts/${encodeURIComponent(d.name)}` }, d.name)),
            h('td', { class: `state ${d.state}` }, d.state),
            h('td', {}, d.author),
            h('td', {}, d.effectiveFrom),
            h('td', {}, d.decision ? h('a', { href: `#/tables/${d.decision}` }, d.decision) : 'rule files'),
            h('td', {}, d.history[0]?.at ?? ''),
          ),
        ),
      ),
    ),
  );
}
