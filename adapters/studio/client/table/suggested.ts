import type { SuggestedScenario, SuggestedScenarioSaved } from '../../../http/openapi/studio-schemas.ts';
import { api } from '../api.ts';
import { h, show } from '../dom.ts';
import { mode } from '../mode.ts';
import { problemBox } from '../problems.ts';

/** A written scenario shown as the file it would be, and a button (`id`) that adds it to scenarios/suggested/. */
export function suggestedScenario({ name, text }: SuggestedScenario, id: string): HTMLElement[] {
  const saved = h('div', { 'aria-live': 'polite' });
  const add = async () => {
    const put = await api<SuggestedScenarioSaved>('PUT', '/scenarios/suggested', { name, text });
    show(saved, put.ok ? h('p', { class: 'good', role: 'status' }, `Added ${put.data.file}; the corpus runs it from now on.`) : problemBox(put.data));
  };
  return [
    h('h4', {}, `${name}.yaml`),
    h('pre', { class: 'suggested' }, text),
    mode.edit
      ? h('button', { type: 'button', id, onclick: () => void add() }, 'Add it to scenarios/suggested/')
      : h('p', { class: 'note' }, 'This server does not save: copy the scenario into scenarios/suggested/ yourself.'),
    saved,
  ];
}
