import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultRulesDir, RuleFileError, type RuleSet } from '../../engine/index.ts';
import { replayJournal } from '../analysis/replay.ts';
import type { NotReplayed, ReplayChange, ReplayPrice, ReplayReport } from '../http/openapi/replay-report.ts';
import { ruleSetAt } from '../analysis/rule-set-at.ts';
import { readJournal } from '../http/journal-file.ts';
import { painter, type Paint } from './colour.ts';

const USAGE =
  'usage: signalbox replay --journal FILE --rules A [--against B] [--json] [--examples N]   (A, B: a folder or a git revision; B defaults to rules/)\n';

/** How many changes of each kind the report shows unless `--examples` says otherwise: what a reader reads. */
const SHOWN_EXAMPLES = 5;
/** How many of one request's changed prices a text report lists. */
const SHOWN_PRICES = 3;

/** `signalbox replay`: a journal run on two rule sets (docs/replay.md); exit 1 when any answer changed, 2 on bad usage. */
export async function replay(args: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        journal: { type: 'string' },
        rules: { type: 'string' },
        against: { type: 'string' },
        json: { type: 'boolean', default: false },
        examples: { type: 'string' },
      },
    }));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const examples = values.examples === undefined ? SHOWN_EXAMPLES : Number(values.examples);
  if (!values.journal || !values.rules || !Number.isInteger(examples) || examples < 0) {
    process.stderr.write(USAGE);
    return 2;
  }
  let text: string;
  try {
    text = readFileSync(values.journal, 'utf8');
  } catch (e) {
    process.stderr.write(`${values.journal}: ${(e as Error).message}\n`);
    return 2;
  }
  const { records, problems } = readJournal(text, values.journal);
  if (problems.length > 0) {
    process.stderr.write(`${problems.join('\n')}\n`);
    return 2;
  }
  const against = values.against ?? defaultRulesDir();
  let a: RuleSet;
  let b: RuleSet;
  try {
    a = ruleSetAt(values.rules);
    b = ruleSetAt(against);
  } catch (e) {
    if (!(e instanceof RuleFileError)) throw e;
    process.stderr.write(`${e.problems.join('\n')}\n`);
    return 2;
  }
  const report = await replayJournal(records, a, b, { names: { a: values.rules, b: values.against ?? relative(process.cwd(), against) }, examples });
  process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : replayText(report, values.journal, painter(process.stdout)));
  return report.changed > 0 ? 1 : 0;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const price = (p: ReplayPrice | null) => (p === null ? '-' : `${(p.amount / 10 ** p.scale).toFixed(p.scale)} ${p.currency}`);

function difference(a: ReplayPrice | null, b: ReplayPrice | null, paint: Paint): string {
  if (a === null || b === null || a.currency !== b.currency) return '';
  const scale = Math.max(a.scale, b.scale);
  const minor = b.amount * 10 ** (scale - b.scale) - a.amount * 10 ** (scale - a.scale);
  const text = `${minor < 0 ? '−' : '+'}${(Math.abs(minor) / 10 ** scale).toFixed(scale)}`;
  return ` (${paint(minor < 0 ? 'green' : 'red', text)})`;
}

const answer = (x: { status: number; code: string | null }) => `${x.status}${x.code ? ` ${x.code}` : ''}`;

function exampleLines(change: ReplayChange, paint: Paint): string[] {
  const request = `#${change.request} ${change.method} ${change.url}${change.client ? ` by ${change.client}` : ''} at ${change.at}`;
  if (change.prices.length === 0) return [`  ${request}: ${answer(change.a)} → ${answer(change.b)}`];
  const lines = [`  ${request}:`];
  for (const p of change.prices.slice(0, SHOWN_PRICES)) lines.push(`      ${p.at}: ${price(p.a)} → ${price(p.b)}${difference(p.a, p.b, paint)}`);
  if (change.prices.length > SHOWN_PRICES) lines.push(`      … and ${plural(change.prices.length - SHOWN_PRICES, 'more price')}`);
  return lines;
}

const NOT_REPLAYED: Record<NotReplayed, string> = {
  'token-requests': 'token requests (the replay has a token of its own for each client)',
  'clock-changes': 'sandbox clock changes (every request runs at its recorded instant)',
  'trace-look-ups': "look-ups of the recording server's traces",
  'customer-api': 'Customer API requests (a journal keeps no subscription key)',
  studio: 'studio requests',
};

const HEADINGS: Record<keyof ReplayReport['changes'], (n: number) => string> = {
  status: (n) => `${plural(n, 'request')} answered with another status`,
  code: (n) => `${plural(n, 'request')} refused with another Problem code`,
  price: (n) => `${plural(n, 'request')} answered with other prices`,
};

/** The report as an analyst reads it: what was replayed, then each kind of change with its first examples. */
function replayText(report: ReplayReport, journal: string, paint: Paint = (_, t) => t): string {
  const { requests, replayed, skipped } = report.journal;
  const out = [`replayed ${replayed} of ${plural(requests, 'request')} of ${journal} on ${report.rules.a} (A) and ${report.rules.b} (B)`];
  const left = Object.entries(skipped).map(([kind, n]) => `${n} ${NOT_REPLAYED[kind as NotReplayed]}`);
  if (left.length > 0) out.push(`not replayed: ${left.join('; ')}`);
  out.push(`as recorded: A answered ${report.asRecorded.a} of ${replayed} with the recorded status, B ${report.asRecorded.b}`, '');
  for (const kind of ['status', 'code', 'price'] as const) {
    const { count, examples } = report.changes[kind];
    if (count === 0) continue;
    out.push(paint('bold', `${HEADINGS[kind](count)}:`));
    for (const example of examples) out.push(...exampleLines(example, paint));
    if (count > examples.length) out.push(`  … and ${count - examples.length} more`);
    out.push('');
  }
  const { status, code, price: prices } = report.changes;
  out.push(
    report.changed === 0
      ? 'no change: every replayed request got the same status, Problem code and prices from A and B'
      : `${plural(report.changed, 'request')} changed: ${status.count} in status, ${code.count} in Problem code, ${prices.count} in price only`,
  );
  return `${out.join('\n')}\n`;
}
