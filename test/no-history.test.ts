import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Code and docs say what is and why, citing the spec; they never point at the tracker or the story of their own
 * writing. Issue numbers and titles mean nothing to a reader of the repository (and nothing at all once it moves).
 * Measurements belong in docs/performance.md, where the bench that makes them is named: a figure in a comment goes
 * stale the day the code or the machine changes, and nothing tells.
 */
const roots = ['engine', 'machines', 'adapters', 'bench', 'test', 'rules', 'docs', 'examples', 'scenarios', 'schemas', '.ci', 'bin', 'README.md'];
const text = /\.(ts|cjs|js|mjs|md|yaml|yml|json|sh)$|^run$/;
const issueReference = /\bissues? #?\d+|(?<![\w&])#\d{2}\b(?!\d)/i;
/** `(issue "Seats")`, `see the spec-oracle issue`, `the "Benchmarks" issue`: a tracker's title instead of its number. */
const issueTitle = /\bissues?\s+["“'][^"”']+["”']|\bthe\s+(?:["“][^"”]+["”]|[\w]+(?:-[\w]+)+)\s+issue\b(?!['’\w-])/i;

/** A measurement: a speed-up, a rate, a time in µs or ns, an approximate or measured time or share. */
const number = String.raw`\d(?:[\d.,–-]*\d)?`;
const figure = new RegExp(
  [
    String.raw`${number}\s?×`, // 2.3×, 0.89× the CPU, 3–4× from one day to the next
    String.raw`${number}x\s+(?:faster|slower|more|less|fewer)\b`, // 3x faster
    String.raw`${number}\s?(?:req|requests|calls|ops|bookings|offers|sales|writes)\s?/\s?s\b`, // 1,200 req/s
    String.raw`${number}\s?(?:µs|μs|ns)(?![\w])`, // 340 µs
    String.raw`(?:~|≈|\babout\s|\bsome\s|\baround\s|\broughly\s)${number}\s?(?:ms|s|%|KB|MB|bytes)(?![\w])`, // ~30 ms, about 5 %
    String.raw`${number}\s?%\s+(?:faster|slower|quicker|cheaper|more|less|fewer)\b`, // 12 % faster
    String.raw`${number}\s?%\s+of\s+(?:an?\s+|the\s+|its\s+)?[\w' -]{0,40}?\b(?:CPU|time)\b`, // 5 % of an offers request's CPU
    String.raw`±\s?${number}\s?%`, // ±40 %
    String.raw`\b(?:took|takes|cost|costs|costing|saves|saved)\b[^.;:]{0,40}?${number}\s?(?:ms|s|%)(?![\w])`, // took 661 ms
    String.raw`\b(?:twice|half|three times|four times|ten times) as (?:much|long|fast|slow|many)\b`, // twice as much
  ].join('|'),
  'i',
);

/** The comments of a file with their line numbers: `//` and `/* … *\/` in code, `#` in YAML and shell. */
function commentsOf(file: string, source: string): Array<{ line: number; text: string }> {
  const hash = /\.(sh|ya?ml)$|(^|\/)run$/.test(file);
  const found: Array<{ line: number; text: string }> = [];
  let inBlock = false;
  source.split('\n').forEach((raw, i) => {
    let said = '';
    if (hash) {
      said = /(?:^|\s)#(?!!)(.*)$/.exec(raw)?.[1] ?? '';
    } else {
      let rest = raw;
      while (rest) {
        if (inBlock) {
          const end = rest.indexOf('*/');
          said += ` ${end < 0 ? rest : rest.slice(0, end)}`;
          rest = end < 0 ? '' : rest.slice(end + 2);
          inBlock = end < 0;
          continue;
        }
        // A comment opens at the start of a line or after a space: not in `'**/*.js'`, `http://…` or a regex.
        const open = /(?:^|\s)(\/\/|\/\*)/.exec(rest);
        if (!open) break;
        rest = rest.slice(open.index + open[0].length);
        if (open[1] === '//') {
          said += ` ${rest}`;
          rest = '';
        } else inBlock = true;
      }
    }
    if (said.trim()) found.push({ line: i + 1, text: said.trim() });
  });
  return found;
}

/** The figures the comments of a file carry, as `line: figure`. */
function figuresIn(file: string, source: string): string[] {
  return commentsOf(file, source).flatMap(({ line, text }) => {
    const hit = figure.exec(text);
    return hit ? [`${line}: ${hit[0]}`] : [];
  });
}

function* filesUnder(path: string): Generator<string> {
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
    for (const entry of readdirSync(path)) if (entry !== 'node_modules') yield* filesUnder(join(path, entry));
  } else if (text.test(path.split('/').pop()!)) {
    yield path;
  }
}

/** Every text file but this one, whose samples say what it looks for. */
function* repositoryFiles(): Generator<string> {
  for (const root of roots) for (const file of filesUnder(root)) if (file !== join('test', 'no-history.test.ts')) yield file;
}

function linesMatching(pattern: RegExp): string[] {
  const found: string[] = [];
  for (const file of repositoryFiles()) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const hit = pattern.exec(line);
        if (hit) found.push(`${file}:${i + 1}: ${hit[0]}`);
      });
  }
  return found;
}

describe('no issue numbers in code or docs', () => {
  it('no file names an issue (issue 9, issues 7, 10, #18)', () => {
    expect(linesMatching(issueReference)).toEqual([]);
  });

  it('no file names an issue by its title (issue "Seats", the spec-oracle issue)', () => {
    expect(linesMatching(issueTitle)).toEqual([]);
  });

  it('a title is told from the word issue as code and prose use it', () => {
    const flagged = (line: string) => issueTitle.test(line);
    expect(flagged('/** held places, so that a sold-out product is not offered (issue "Seats"). */')).toBe(true);
    expect(flagged('// see the spec-oracle issue')).toBe(true);
    expect(flagged('// (the shared-sandbox issue)')).toBe(true);
    expect(flagged('// the “Benchmarks” issue')).toBe(true);
    expect(flagged('const issue = result.error.issues[0]!;')).toBe(false);
    expect(flagged("issue(at, 'validTo is before validFrom');")).toBe(false);
    expect(flagged('// the same issue again: the locale of the issue decides')).toBe(false);
    expect(flagged('// the operator issues its fulfillments; a ticket is issued once')).toBe(false);
  });
});

describe('no benchmark figures in comments', () => {
  it('no comment carries a measurement (2.3×, 1,200 req/s, 340 µs, 12 % faster); docs/performance.md does', () => {
    const found: string[] = [];
    for (const file of repositoryFiles()) {
      if (file.endsWith('.md') || file.endsWith('.json')) continue;
      for (const hit of figuresIn(file, readFileSync(file, 'utf8'))) found.push(`${file}:${hit}`);
    }
    expect(found).toEqual([]);
  });

  it('flags the figures of a sample file, in every kind of comment, and nothing else', () => {
    const sample = [
      "import { a } from './a.ts'; // 2.3× faster than the interpreter",
      '/**',
      ' * Serves 1,200 req/s on one core.',
      ' */',
      'const cache = new Map(); /* a hit costs 340 µs */',
      '// A Buffer per quote made the put 12 % faster.',
      '// Checking a secret costs ~30 ms of scrypt.',
      '// About 5 % of an offers request’s CPU.',
      "const label = '12 % faster'; // the string is output, not a comment",
      '// spec §2.7, §4.1 rule 11; OSDM 3.4; CONTRACT §4c',
      '// a 404 for an unknown id, a 409 once it expired (RFC 9457)',
      '// refunds 100 %, and the price may rise by 10 % (rules/limits.yaml)',
      "const glob = 'adapters/**/*.js'; const url = 'http://127.0.0.1:8480/'; // a timeout of 200 ms",
      '// version as major × 100 + minor',
      '// without the index a quote cost twice as much to store',
    ].join('\n');
    expect(figuresIn('sample.ts', sample)).toEqual([
      '1: 2.3×',
      '3: 1,200 req/s',
      '5: 340 µs',
      '6: 12 % faster',
      '7: costs ~30 ms',
      '8: About 5 %',
      '15: twice as much',
    ]);
    expect(figuresIn('sample.yaml', "# took 661 ms in its first run\nname: '2× faster' # a name, not a comment\n")).toEqual(['1: took 661 ms']);
  });
});
