import type { z } from 'zod';
import type { Price as OsdmPrice } from '../../../engine/model/osdm/index.ts';
import type { DecisionTable } from '../../http/openapi/studio-schemas.ts';
import { h } from './dom.ts';

type Cell = DecisionTable['rows'][number]['when'][string];

/** A value as one line: a string as it is, anything else as JSON. */
export const json = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** Rule texts: one per language (`{ en-GB: …, sv-SE: … }`). */
const isTexts = (v: unknown): v is Record<string, string> => !!v && typeof v === 'object' && !Array.isArray(v) && ('en-GB' in v || 'sv-SE' in v);

/** A value as the tables show it: rule texts in both languages, each marked with its language. */
export function valueView(v: unknown): HTMLElement {
  if (isTexts(v))
    return h(
      'span',
      { class: 'texts' },
      ...Object.entries(v).map(([lang, text]) => h('span', { lang, class: 'text' }, h('abbr', { title: lang }, lang.slice(0, 2)), ' ', text)),
    );
  return h('code', {}, json(v));
}

/** A cell as the file writes it (`{ between: [16, 64] }`); rule texts in both languages. */
export const cellView = (c: Cell): HTMLElement => (isTexts(c.value) ? valueView(c.value) : h('code', {}, c.text));

/** `rules/fare-factors.yaml:34:5` → `fare-factors.yaml:34`; the whole place is the title. */
export const shortAt = (at: string): string => at.replace(/^.*\//, '').replace(/:\d+$/, '');

/** Facts as `name=value` pairs on one line. */
export const factLine = (facts: Record<string, unknown>): string =>
  Object.entries(facts)
    .map(([k, v]) => `${k}=${json(v)}`)
    .join(' ');

/** An OSDM price: an amount in minor units with its scale and currency (or a report's price of the same fields). */
type Price = Pick<z.output<typeof OsdmPrice>, 'amount' | 'scale'> & { currency: string };

export function money(m: Price | undefined): string {
  return m ? `${(m.amount / 10 ** (m.scale ?? 2)).toFixed(m.scale ?? 2)} ${m.currency}` : '';
}
