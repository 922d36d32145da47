import type { ScenarioRun } from '../../http/openapi/studio-schemas.ts';
import { h } from './dom.ts';
import { json } from './values.ts';

/** A rule trace: the decision, the rows that fired and the facts it saw. */
export type Trace = NonNullable<ScenarioRun['scenarios'][number]['steps'][number]['traces']>[number];

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
        t.fired.length
          ? t.fired.map((f, i) => [
              i ? ', ' : '',
              h(
                'a',
                {
                  href: `#/tables/${t.decision}?row=${encodeURIComponent(f.row)}&facts=${encodeURIComponent(JSON.stringify(t.facts))}`,
                  class: 'row-ref',
                  title: `${f.at}: open the table and explain this case`,
                },
                f.row,
              ),
            ])
          : h('em', {}, 'no row'),
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
