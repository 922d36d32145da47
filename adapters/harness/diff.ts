/**
 * Expected against actual, for one mismatch, in lines an analyst reads at a glance: two labelled lines
 * for a value, a line diff of the JSON for an object or array (`-` expected, `+` actual, a few lines of
 * context around each change).
 */
const MAX_LINE = 200;
const CONTEXT = 2;
const MAX_DIFF_LINES = 40;

const isStructured = (v: unknown) => v !== null && typeof v === 'object';
const isMatcher = (v: unknown) =>
  (typeof v === 'string' && v.startsWith('$') && !v.startsWith('$$')) ||
  (isStructured(v) && !Array.isArray(v) && Object.keys(v).some((k) => k.startsWith('$')));

/** One line of JSON, cut at MAX_LINE; `(absent)` for a missing value. */
export function compact(v: unknown, max = MAX_LINE): string {
  if (v === undefined) return '(absent)';
  const text = JSON.stringify(v);
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

export function describeDifference(expected: unknown, actual: unknown): string[] {
  if (!isStructured(expected) || !isStructured(actual) || isMatcher(expected)) {
    return [`expected  ${compact(expected)}`, `actual    ${compact(actual)}`];
  }
  // Lists of different lengths: what each holds, an item a line, before a diff kept short.
  const counted = Array.isArray(expected) && Array.isArray(actual) && expected.length !== actual.length;
  const diff = lineDiff(
    JSON.stringify(expected, null, 2).split('\n'),
    JSON.stringify(actual, null, 2).split('\n'),
    counted ? SHORT_DIFF_LINES : MAX_DIFF_LINES,
  );
  return [...(counted ? [...listSummary('expected', expected), ...listSummary('actual', actual)] : []), '(- expected, + actual)', ...diff];
}

const SHORT_DIFF_LINES = 12;
const MAX_SUMMARY_ITEMS = 10;

function listSummary(label: string, items: readonly unknown[]): string[] {
  const shown = items.slice(0, MAX_SUMMARY_ITEMS).map((item, i) => `  [${i}] ${itemSummary(item)}`);
  const more = items.length > MAX_SUMMARY_ITEMS ? [`  … (${items.length - MAX_SUMMARY_ITEMS} more items)`] : [];
  return [`${label} ${items.length} item${items.length === 1 ? '' : 's'}:`, ...shown, ...more];
}

/**
 * One line for a list item: an offer by its class, flexibility and price, as an analyst tells offers apart;
 * anything else by its first few plain fields.
 */
function itemSummary(item: unknown): string {
  const offer = (
    item as {
      offerSummary?: { overallTravelClass?: string; overallFlexibility?: string; minimalPrice?: { amount?: number; scale?: number; currency?: string } };
    } | null
  )?.offerSummary;
  if (offer) {
    const price = offer.minimalPrice;
    const amount =
      price && typeof price.amount === 'number'
        ? `${(price.amount / 10 ** (price.scale ?? 0)).toFixed(price.scale ?? 0)} ${price.currency ?? ''}`.trim()
        : undefined;
    // An expectation names only some of them: the others are left out rather than shown as unknown.
    return [offer.overallTravelClass, offer.overallFlexibility, amount].filter((part) => typeof part === 'string').join(' ') || compact(offer, 100);
  }
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return compact(item, 80);
  const plain = Object.entries(item)
    .filter(([, v]) => v === null || typeof v !== 'object')
    .slice(0, 4);
  return plain.length > 0 ? compact(Object.fromEntries(plain), 100) : compact(item, 100);
}

/** A unified-style diff of two line lists (LCS), unchanged stretches folded to CONTEXT lines each side. */
export function lineDiff(a: string[], b: string[], maxLines = MAX_DIFF_LINES): string[] {
  if (a.length * b.length > 250_000) {
    const all = [...a.map((l) => `- ${l}`), ...b.map((l) => `+ ${l}`)];
    return all.length > maxLines ? [...all.slice(0, maxLines), `  … (${all.length - maxLines} more lines)`] : all;
  }
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const ops: Array<{ kind: ' ' | '-' | '+'; line: string }> = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i]! });
      i++;
      j++;
    } else if (i < a.length && (j >= b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) ops.push({ kind: '-', line: a[i++]! });
    else ops.push({ kind: '+', line: b[j++]! });
  }
  const near = ops.map((_, k) => ops.slice(Math.max(0, k - CONTEXT), k + CONTEXT + 1).some((o) => o.kind !== ' '));
  const out: string[] = [];
  ops.forEach((o, k) => {
    if (near[k]) out.push(`${o.kind} ${o.line.length > MAX_LINE ? `${o.line.slice(0, MAX_LINE)}…` : o.line}`);
    else if (out[out.length - 1] !== '  …') out.push('  …');
  });
  return out.length > maxLines ? [...out.slice(0, maxLines), `  … (${out.length - maxLines} more lines)`] : out;
}
