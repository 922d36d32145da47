import { existsSync, readFileSync } from 'node:fs';
import { parseArgs, stripVTControlCharacters } from 'node:util';
import { boundaryCasesOf, createEngine, factCatalogue, RuleFileError, type DecisionName } from '../../engine/index.ts';
import { parseSource } from '../../engine/rules/index.ts';
import { painter, type Paint } from './colour.ts';
import { flow } from './flow.ts';
import { table } from './table.ts';
import { casesFromCsv, simulateCases, type SimulatedCase } from '../analysis/simulate.ts';

/** Fact rows from a CSV file (a header row of fact names; numbers and true/false read as such) or a YAML/JSON list. */
function readCases(file: string): Array<Record<string, unknown>> {
  const text = readFileSync(file, 'utf8');
  if (/\.csv$/i.test(file)) return casesFromCsv(text);
  const data = parseSource(file, text).data;
  if (!Array.isArray(data)) throw new RuleFileError([`${file}:1:1: a list of fact rows, one per case`]);
  return data as Array<Record<string, unknown>>;
}

/** An outcome as short `key: value` text, its texts in one language; a collect table's outcomes one after another. */
function outcomeText(outcome: unknown, language: string): string {
  if (Array.isArray(outcome)) return outcome.map((o) => outcomeText(o, language)).join('; ');
  if (outcome === null || typeof outcome !== 'object') return flow(outcome, language);
  return Object.entries(outcome)
    .map(([k, v]) => `${k}: ${flow(v, language)}`)
    .join(', ');
}

/** The narrowest outcome column worth a table; with less room each case gets lines of its own. */
const NARROWEST_OUTCOME = 24;

/**
 * The cases in `width` columns: a table of the facts, the deciding row and the outcome (long cells cut with …),
 * or, when a decision has too many facts for that, each case as a block: its row, its facts, its outcome.
 */
export function renderSimulation(results: readonly SimulatedCase[], options: { language: string; width: number; paint?: Paint }): string {
  const paint = options.paint ?? ((_style, text) => text);
  const facts = [...new Set(results.flatMap((r) => Object.keys(r.facts)))];
  const row = (r: SimulatedCase) => r.row ?? paint('red', 'none');
  const outcome = (r: SimulatedCase) => (r.problem ? paint('red', r.problem) : r.row === null ? '' : outcomeText(r.outcome, options.language));
  const cells = results.map((r, i) => [String(i + 1), ...facts.map((f) => (f in r.facts ? flow(r.facts[f]) : '')), row(r)]);
  const head = ['#', ...facts, 'row'];
  // A fact's name may be cut in the header (its values show what it is); its values may not.
  const widths = head.map((h, i) => Math.max(Math.min(h.length, 6), ...cells.map((c) => stripVTControlCharacters(c[i]!).length)));
  if (widths.reduce((n, w) => n + w + 2, 0) + NARROWEST_OUTCOME <= options.width)
    return table(
      [...head, 'outcome'],
      cells.map((c, i) => [...c, outcome(results[i]!)]),
      options.width,
    );
  const cut = (text: string) => (text.length <= options.width ? text : `${text.slice(0, options.width - 1)}…`);
  return results
    .map((r, i) => {
      const given = facts.filter((f) => f in r.facts).map((f) => `${f}: ${flow(r.facts[f])}`);
      return [`${i + 1}  row ${row(r)}`, ...wrap(given, '   ', options.width), cut(`   → ${stripVTControlCharacters(outcome(r))}`)].join('\n');
    })
    .join('\n\n')
    .concat('\n');
}

/** Items joined by ", " over as many lines as `width` needs, each line indented. */
function wrap(items: readonly string[], indent: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    const next = line ? `${line}, ${item}` : `${indent}${item}`;
    if (line && next.length + 1 > width) {
      lines.push(`${line},`);
      line = `${indent}${item}`;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines.map((l) => (l.length <= width ? l : `${l.slice(0, width - 1)}…`));
}

/** `signalbox simulate DECISION --cases FILE [--boundaries] [--json] [--language LANG] [--rules DIR]`. */
export async function simulate(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      cases: { type: 'string' },
      boundaries: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      language: { type: 'string' },
      rules: { type: 'string' },
    },
  });
  const [decision] = positionals;
  if (!decision || (!values.cases && !values.boundaries)) {
    process.stderr.write('usage: signalbox simulate <decision> --cases FILE.csv|FILE.yaml [--boundaries] [--json] [--language LANG] [--rules DIR]\n');
    return 2;
  }
  if (!(decision in factCatalogue)) {
    process.stderr.write(`there is no decision called ${decision}; the decisions are ${Object.keys(factCatalogue).join(', ')}\n`);
    return 2;
  }
  let results: SimulatedCase[];
  let language: string;
  try {
    if (values.cases && !existsSync(values.cases)) throw new RuleFileError([`${values.cases}: no such file`]);
    const engine = createEngine(values.rules ? { rulesDir: values.rules } : {});
    const cases = [...(values.cases ? readCases(values.cases) : []), ...(values.boundaries ? boundaryCasesOf(engine.rules, decision as DecisionName) : [])];
    results = simulateCases(engine, decision, cases);
    language = values.language ?? engine.rules.limits.languages[0]!;
    if (!engine.rules.limits.languages.includes(language as never)) {
      process.stderr.write(`--language is one of ${engine.rules.limits.languages.join(', ')}\n`);
      return 2;
    }
  } catch (e) {
    if (!(e instanceof RuleFileError)) throw e;
    process.stderr.write(`${e.problems.join('\n')}\n`);
    return 1;
  }
  if (values.json) {
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  } else {
    const width = process.stdout.isTTY ? process.stdout.columns : 80;
    process.stdout.write(renderSimulation(results, { language, width, paint: painter(process.stdout) }));
  }
  return results.some((r) => r.problem) ? 1 : 0;
}
