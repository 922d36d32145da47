import type { Paint } from './colour.ts';

type Fn = (text: string) => string;

/** One report line coloured by what it is; anything unrecognised stays as it is. */
function colourLine(line: string, paint: Paint): string {
  const [green, red, dim, bold] = (['green', 'red', 'dim', 'bold'] as const).map((style) => (t: string) => paint(style, t)) as [Fn, Fn, Fn, Fn];
  const m = /^(\s*)(.*)$/.exec(line)!;
  const [indent, text] = [m[1]!, m[2]!];
  // A verdict line: the mark and name coloured, its trailing `[file] N ms` or `(file:line)` dimmed.
  if (text.startsWith('✓ ') || text.startsWith('✗ ')) {
    const tail = /\s+(\[[^\]]+\] \d+ ms|\([^()]+:\d+\))$/.exec(text);
    const head = tail ? text.slice(0, tail.index) : text;
    return indent + (text.startsWith('✓') ? green(head) : red(bold(head))) + (tail ? dim(tail[0]) : '');
  }
  if (text.startsWith('- ')) return indent + green(text);
  if (text.startsWith('+ ')) return indent + red(text);
  if (text.startsWith('expected  ')) return indent + green(text);
  if (text.startsWith('actual    ')) return indent + red(text);
  if (/^\d+ passed, \d+ failed/.test(text)) return indent + (/ 0 failed/.test(` ${text}`) ? green(text) : red(bold(text)));
  return indent + text.replace(/\(([^()\s]+\.ya?ml:\d+(:\d+)?)\)$/, (s) => dim(s));
}

/**
 * The pretty scenario report as a terminal shows it: verdicts green and red, a diff's `-` expected and `+` actual,
 * `file:line` references dimmed. The text is the same either way, only wrapped in escape codes where `paint` colours.
 */
export function colourReport(report: string, paint: Paint): string {
  return report
    .split('\n')
    .map((line) => colourLine(line, paint))
    .join('\n');
}
