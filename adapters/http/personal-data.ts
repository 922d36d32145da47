/**
 * Personal data masked out of a journal entry an analyst reads (docs/studio.md): the values of the fields
 * `studioJournalPersonalData` names (rules/limits.yaml), whole strings that are identity or member numbers
 * (rules/cards.yaml patterns: a personal pass names its holder by an identity number as the passenger's
 * externalRef), and each of those values again wherever else it stands in the entry — a Problem's detail names the
 * identity number that was not found, a booking repeats its passengers' names.
 */
const MASK = '…';

/** A value found inside a longer text is masked there only from this length on: "Al" is in too many words. */
const SHORTEST_IN_TEXT = 3;

export function maskPersonalData<T>(value: T, fields: readonly string[], patterns: readonly RegExp[]): T {
  const personalField = new Set(fields);
  // A JSON text cut short (a long answer) is no object any more: its fields are read from the text.
  const inText = new RegExp(`"(?:${fields.map((f) => f.replace(/\W/g, '\\$&')).join('|')})"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`, 'g');
  const found = new Set<string>();

  const collect = (v: unknown, personal: boolean): void => {
    if (typeof v === 'string') {
      if (personal || patterns.some((p) => p.test(v))) found.add(v);
      else if (fields.length > 0) for (const [, text] of v.matchAll(inText)) if (text) found.add(text);
    } else if (typeof v === 'number' && personal) found.add(String(v));
    else if (Array.isArray(v)) for (const x of v) collect(x, personal);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) collect(x, personal || personalField.has(k));
  };
  collect(value, false);
  // The longest first, so that a value holding another is masked whole.
  const inTexts = [...found].filter((v) => v.length >= SHORTEST_IN_TEXT).sort((a, b) => b.length - a.length);

  const mask = (v: unknown, personal: boolean): unknown => {
    if (typeof v === 'string') return personal || found.has(v) ? MASK : inTexts.reduce((text, f) => text.split(f).join(MASK), v);
    if (typeof v === 'number') return personal ? MASK : v;
    if (Array.isArray(v)) return v.map((x) => mask(x, personal));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mask(x, personal || personalField.has(k))]));
    return v;
  };
  return found.size === 0 ? value : (mask(value, false) as T);
}
