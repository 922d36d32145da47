import type { ScenarioRun } from '../../http/openapi/studio-schemas.ts';
import { h } from './dom.ts';
import { json } from './values.ts';

/** A rule trace: the decision, the rows that fired and the facts it saw. */
export type Trace = NonNullable<ScenarioRun['scenarios'][number]['steps'][number]['traces']>[number];

/** A row that fired, linked to its table explaining this case (the facts the decision saw). */
export function rowLink(decision: string, fired: { row: string; at: string }, facts: Record<string, unknown>, text: string = fired.row): HTMLElement {
  return h(
    'a',
    {
      href: `#/tables/${decision}?row=${encodeURIComponent(fired.row)}&facts=${encodeURIComponent(JSON.stringify(facts))}`,
      class: 'row-ref',
      title: `${fired.at}: open the table and explain this case`,
    },
    text,
  );
}

/** Each decision of a trace, linked to its table (a fired row to the table explaining that case). */
export function traceList(traces: readonly Trace[] | undefined): HTMLElement {
  // The same decision with the same facts and rows shows once, with how often it was made.
  const seen = new Map<string, { t: Trace; n: number }>();
  for (const t of traces ?? []) {
    const key = JSON.stringify([t.decision, t.fired, t.facts]);
    const entry = seen.get(key);
    if (entry) entry.n++;
    else seen.set(key, { t, n: 1 });
  }
  return h(
    'ol',
    { class: 'trace' },
    ...[...seen.values()].map(({ t, n }) =>
      h(
        'li',
        { 'data-decision': t.decision },
        h('a', { href: `#/tables/${t.decision}` }, t.decision),
        ' → ',
        t.fired.length ? t.fired.map((f, i) => [i ? ', ' : '', rowLink(t.decision, f, t.facts)]) : h('em', {}, 'no row'),
        n > 1 ? ` (×${n})` : '',
        h(
          'span',
          { class: 'facts' },
          ' ',
          Object.entries(t.facts)
            .map(([k, v]) => `${k}=${json(v)}`)
            .join(' '),
        ),
      ),
    ),
  );
}
