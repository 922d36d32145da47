import { stripVTControlCharacters } from 'node:util';

/** Text columns padded to their widest cell (ANSI colour codes not counted), for the terminal. */
export function table(head: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const width = (s: string) => stripVTControlCharacters(s).length;
  const widths = head.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i] ?? ''))));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c + ' '.repeat(widths[i]! - width(c))))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n';
}
