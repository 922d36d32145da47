import type { Problem } from './api.ts';
import { h } from './dom.ts';

/** A Problem answer, as the page shows it. */
export function problemBox(p: Problem | undefined): HTMLElement {
  return h(
    'div',
    { class: 'problem-box', role: 'alert' },
    h('strong', {}, `${p?.status ?? ''} ${p?.code ?? ''} ${p?.title ?? 'Refused'}`),
    h('p', {}, p?.detail ?? ''),
    ...(p?.pointers ?? []).map((x) => h('p', { class: 'pointer' }, `${x.requestPointer}${x.detail ? `: ${x.detail}` : ''}`)),
  );
}
