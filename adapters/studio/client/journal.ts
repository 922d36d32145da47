import type { Journal, JournalEntry } from '../../http/openapi/studio-schemas.ts';
import { api, token, type Problem } from './api.ts';
import { h, setView, show } from './dom.ts';
import { mode } from './mode.ts';
import { problemBox } from './problems.ts';
import { needsAnalyst } from './scenarios.ts';
import { redrawOnSessionChange } from './session.ts';
import { traceList, type Trace } from './traces.ts';

/** The Requestor header is Base64 of JSON: shown as the JSON too. */
function decoded(base64: string): string {
  try {
    return atob(base64);
  } catch {
    return 'not Base64';
  }
}

/** What an entry's answer may name: a booking, or offers (the first is linked to its seat map). */
interface AnswerBody {
  code?: string;
  booking?: { id?: string };
  offers?: Array<{ offerId: string }>;
}

function entryView(e: JournalEntry): HTMLElement {
  const body = (typeof e.response.body === 'object' && e.response.body !== null ? e.response.body : undefined) as AnswerBody | undefined;
  const ids: Array<[string, string]> = [
    ...(body?.booking?.id ? [['BOOKING', body.booking.id] as [string, string]] : []),
    ...(body?.offers ?? []).slice(0, 1).map((o): [string, string] => ['OFFER', o.offerId]),
  ];
  return h(
    'details',
    { class: `entry ${e.status >= 400 ? 'failed' : ''}` },
    h(
      'summary',
      {},
      h('code', {}, `${e.method} ${e.url}`),
      ` → ${e.status}`,
      e.client ? ` · ${e.client}` : '',
      body?.code ? ` ${body.code}` : '',
      ` · ${e.ms} ms · ${e.at}`,
    ),
    ids.map(([type, id]) => h('p', {}, h('a', { href: `#/seats?type=${type}&id=${encodeURIComponent(id)}` }, `Seat map of ${type.toLowerCase()} ${id}`))),
    h(
      'div',
      { class: 'columns' },
      h(
        'section',
        {},
        h('h4', {}, 'Request'),
        h(
          'pre',
          {},
          Object.entries(e.request.headers)
            .map(([k, v]) => `${k}: ${v}${k === 'requestor' ? `   (${decoded(v)})` : ''}`)
            .join('\n'),
        ),
        e.request.body !== undefined ? h('pre', {}, JSON.stringify(e.request.body, null, 2)) : '',
      ),
      h('section', {}, h('h4', {}, 'Response'), h('pre', {}, typeof e.response.body === 'string' ? e.response.body : JSON.stringify(e.response.body, null, 2))),
    ),
    h('h4', {}, 'Rule trace'),
    e.traces.length ? traceList(e.traces as Trace[]) : h('p', {}, 'No rule decided this answer.'),
  );
}

/** The journal as a file (GET /studio/api/journal/export, docs/replay.md), saved as journal.jsonl. */
async function download(out: HTMLElement): Promise<void> {
  const bearer = token();
  const res = await fetch('/studio/api/journal/export', bearer ? { headers: { authorization: `Bearer ${bearer}` } } : {});
  if (!res.ok) return show(out, needsAnalyst('Downloading the request journal'), problemBox((await res.json().catch(() => undefined)) as Problem | undefined));
  const link = h('a', { href: URL.createObjectURL(await res.blob()), download: 'journal.jsonl' });
  link.click();
  // Released once the click has handed the file to the browser's download.
  setTimeout(() => URL.revokeObjectURL(link.href));
}

/** The sandbox's latest requests with their answers and rule traces, newest first. */
export async function journalView(): Promise<void> {
  if (!mode.sandbox) return setView('Request journal', h('p', {}, 'The request journal is kept on a sandbox only.'));
  const out = h('div', { id: 'journal-result' });
  const load = async () => {
    const answer = await api<Journal>('GET', '/journal');
    // It holds every client's requests, personal data included: only a token reads it (an analyst's, masked).
    if (!answer.ok) return show(out, needsAnalyst('Reading the request journal'), problemBox(answer.data));
    const { entries, size } = answer.data;
    show(
      out,
      h(
        'p',
        {},
        `The latest ${entries.length} of at most ${size} requests (rules/limits.yaml studioJournalSize), newest first; names, e-mails and other personal data masked unless the server was started with --journal-personal-data.`,
      ),
      ...entries.map(entryView),
    );
  };
  setView(
    'Request journal',
    h('button', { type: 'button', onclick: () => void load() }, 'Refresh'),
    ' ',
    h(
      'button',
      { type: 'button', title: 'The same requests, oldest first, as the file signalbox replay --journal reads', onclick: () => void download(out) },
      'Download as a journal file',
    ),
    out,
  );
  redrawOnSessionChange(load);
  await load();
}
