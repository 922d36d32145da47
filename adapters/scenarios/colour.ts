/**
 * Colour for the pretty report on a terminal: verdicts green and red, a diff's `-` expected and `+` actual,
 * `file:line` references dimmed. Off when the output is not a terminal or NO_COLOR is set (no-color.org);
 * FORCE_COLOR turns it on anywhere. The report's text is the same either way, only wrapped in escape codes.
 */
export function wantsColour(stream: { isTTY?: boolean }, env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  if (env['NO_COLOR']) return false;
  if (env['FORCE_COLOR'] !== undefined) return env['FORCE_COLOR'] !== '0';
  return stream.isTTY === true && env['TERM'] !== 'dumb';
}

const paint = (code: string, text: string) => `\x1b[${code}m${text}\x1b[0m`;
const green = (t: string) => paint('32', t);
const red = (t: string) => paint('31', t);
const dim = (t: string) => paint('2', t);
const bold = (t: string) => paint('1', t);

/** One report line coloured by what it is; anything unrecognised stays as it is. */
function colourLine(line: string): string {
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

export function colourReport(report: string): string {
  return report.split('\n').map(colourLine).join('\n');
}
