import { stripVTControlCharacters } from 'node:util';

/** The narrowest a column is cut to, so that even a cut header still says which it is. */
const NARROWEST = 4;

/**
 * Text columns padded to their widest cell (ANSI colour codes not counted), for the terminal. Given a `width`,
 * the widest column is cut (its long cells end in …) until the lines fit, down to a few characters a column.
 */
export function table(head: readonly string[], rows: ReadonlyArray<readonly string[]>, width = Infinity): string {
  const length = (s: string) => stripVTControlCharacters(s).length;
  const widths = head.map((h, i) => Math.max(length(h), ...rows.map((r) => length(r[i] ?? ''))));
  const total = () => widths.reduce((n, w) => n + w, 0) + 2 * (widths.length - 1);
  while (total() > width) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest]! <= NARROWEST) break;
    widths[widest]!--;
  }
  const cut = (c: string, w: number) => (length(c) <= w ? c : `${stripVTControlCharacters(c).slice(0, w - 1)}…`);
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => cut(c, widths[i]!))
      .map((c, i) => (i === cells.length - 1 ? c : c + ' '.repeat(widths[i]! - length(c))))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n';
}
