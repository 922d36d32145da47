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
  (isStructured(v) && !Array.isArray(v) && Object.keys(v as object).some((k) => k.startsWith('$')));

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
  const diff = lineDiff(JSON.stringify(expected, null, 2).split('\n'), JSON.stringify(actual, null, 2).split('\n'));
  return ['(- expected, + actual)', ...diff];
}

/** A unified-style diff of two line lists (LCS), unchanged stretches folded to CONTEXT lines each side. */
export function lineDiff(a: string[], b: string[]): string[] {
  if (a.length * b.length > 250_000) return [...a.map((l) => `- ${l}`), ...b.map((l) => `+ ${l}`)].slice(0, MAX_DIFF_LINES);
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const ops: Array<{ kind: ' ' | '-' | '+'; line: string }> = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) { ops.push({ kind: ' ', line: a[i]! }); i++; j++; }
    else if (i < a.length && (j >= b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) ops.push({ kind: '-', line: a[i++]! });
    else ops.push({ kind: '+', line: b[j++]! });
  }
  const near = ops.map((_, k) => ops.slice(Math.max(0, k - CONTEXT), k + CONTEXT + 1).some((o) => o.kind !== ' '));
  const out: string[] = [];
  ops.forEach((o, k) => {
    if (near[k]) out.push(`${o.kind} ${o.line.length > MAX_LINE ? `${o.line.slice(0, MAX_LINE)}…` : o.line}`);
    else if (out[out.length - 1] !== '  …') out.push('  …');
  });
  return out.length > MAX_DIFF_LINES ? [...out.slice(0, MAX_DIFF_LINES), `  … (${out.length - MAX_DIFF_LINES} more lines)`] : out;
}
