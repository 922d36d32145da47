import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { counterexamples } from '../analysis/counterexamples.ts';
import { suggestedDir } from '../analysis/suggest.ts';
import { freeName } from '../analysis/suggest-survivors.ts';
import { createEngine, defaultRulesDir, FactsError, loadRules, readRuleSources, RuleFileError, type Explanation, type RuleSet } from '../../engine/index.ts';
import { parseSource } from '../../engine/rules/index.ts';
import { painter, type Paint } from './colour.ts';
import { flow } from './flow.ts';
import { ruleSetAt } from '../analysis/rule-set-at.ts';

/**
 * `signalbox check [--rules DIR] [--suggest [--serving REV|DIR] [--scenarios DIR]]`: every problem of every rule file
 * as `file:line:col: message`; exit 1 on any. `--suggest` writes, for each gap and overlap a table has, a
 * counterexample scenario under `scenarios/suggested/` pinning what the serving rules (a folder, or a git revision's
 * rules/: HEAD by default) answer for that very case (analysis/counterexamples.ts).
 */
export async function check(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { rules: { type: 'string' }, suggest: { type: 'boolean', default: false }, serving: { type: 'string' }, scenarios: { type: 'string' } },
  });
  try {
    const rules = loadRules(values.rules);
    const decisions = Object.values(rules.decisions);
    process.stdout.write(
      `${rules.files.length} rule files, ${decisions.length} decisions, ${decisions.reduce((n, d) => n + d.rows.length, 0)} rows: no problems\n`,
    );
    return 0;
  } catch (e) {
    if (!(e instanceof RuleFileError)) throw e;
    process.stdout.write(problemReport(e.problems));
    if (values.suggest) await suggest(values.rules ?? defaultRulesDir(), values.serving ?? 'HEAD', join(values.scenarios ?? 'scenarios', 'fixtures'));
    return 1;
  }
}

/** The counterexamples of every table's gaps and overlaps, written beside the fixtures, and what was written. */
async function suggest(rulesDir: string, serving: string, fixtures: string): Promise<void> {
  let rules: RuleSet;
  try {
    rules = ruleSetAt(serving);
  } catch (e) {
    if (!(e instanceof RuleFileError)) throw e;
    process.stdout.write(`\nno counterexamples: the serving rules (--serving ${serving}) do not load:\n${e.problems.join('\n')}\n`);
    return;
  }
  const dir = suggestedDir(fixtures);
  const out: string[] = [];
  for (const { file, text } of readRuleSources(rulesDir))
    for (const c of await counterexamples(rules, file, text, { fixtures, dir })) {
      if (!c.suggestion) {
        out.push(`  ${c.finding.at}  no request reaches this case and tells the serving rules from the edit`);
        continue;
      }
      mkdirSync(dir, { recursive: true });
      const written = freeName(dir, c.suggestion.name);
      writeFileSync(written, c.suggestion.text);
      out.push(`  ${written}  ${c.finding.kind} at ${c.finding.at}, pins what ${serving} answers (read with ${c.reading})`);
    }
  process.stdout.write(
    out.length ? `\ncounterexamples of the gaps and overlaps:\n${out.join('\n')}\n` : '\nno gaps or overlaps to write counterexamples for\n',
  );
}

/** Where a problem lies: its file, line and column (a problem of the whole rule set has only a file). */
function placeOf(problem: string): { file: string; line: number; col: number } {
  const m = /^(.*?):(\d+):(\d+): /.exec(problem);
  return m ? { file: m[1]!, line: Number(m[2]), col: Number(m[3]) } : { file: problem.split(':')[0]!, line: 0, col: 0 };
}

/** Every problem in file and line order, as an editor's problem list reads them, then how many in how many files. */
function problemReport(problems: readonly string[]): string {
  const placed = problems.map((text) => ({ text, ...placeOf(text) }));
  placed.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.col - b.col));
  const files = new Set(placed.map((p) => p.file)).size;
  const count = `${problems.length} problem${problems.length === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}`;
  return `${placed.map((p) => p.text).join('\n')}\n${count}\n`;
}

/**
 * Facts as an analyst writes them: a YAML or JSON file, or the same inline. A syntax error is a
 * `file:line:col: message` (inline: `--facts:1:9: …`), not a stack trace.
 */
function readFacts(given: string): unknown {
  return existsSync(given) ? parseSource(given, readFileSync(given, 'utf8')).data : parseSource('--facts', given).data;
}

/** `signalbox explain <decision> --facts FILE|JSON|YAML [--json]`: which row fired and why, each condition with its fact. */
export async function explain(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { facts: { type: 'string' }, json: { type: 'boolean', default: false }, rules: { type: 'string' } },
  });
  const [decision] = positionals;
  if (!decision || !values.facts) {
    process.stderr.write('usage: signalbox explain <decision> --facts FILE|JSON|YAML [--json]\n');
    return 2;
  }
  let explanation: Explanation;
  try {
    const facts = readFacts(values.facts);
    const engine = createEngine(values.rules ? { rulesDir: values.rules } : {});
    explanation = engine.explain(decision, facts);
  } catch (e) {
    if (!(e instanceof FactsError) && !(e instanceof RuleFileError)) throw e;
    process.stderr.write(`${e.problems.join('\n')}\n`);
    return 1;
  }
  process.stdout.write(values.json ? `${JSON.stringify(explanation, null, 2)}\n` : renderExplanation(explanation, painter(process.stdout)));
  return 0;
}

export function renderExplanation(x: Explanation, paint: Paint = (_style, text) => text): string {
  const fired = x.rows.filter((r) => r.fired);
  const lines = [
    `${paint('bold', `${x.decision}: ${x.title}`)}  (${x.file}, hit policy ${x.hitPolicy})`,
    `facts: ${Object.entries(x.facts)
      .map(([k, val]) => `${k} = ${flow(val)}`)
      .join(', ')}`,
    `outcome: ${paint('bold', flow(x.outcome))}`,
    fired.length ? `decided by: ${fired.map((r) => `row "${r.row}" at ${r.at}`).join(', ')}` : paint('yellow', 'decided by: no row matched'),
    '',
  ];
  for (const row of x.rows) {
    lines.push(row.fired ? paint('green', `✓ ${row.row}  (${row.at})`) : `${paint('dim', '·')} ${row.row}  (${row.at})`);
    if (row.conditions.length === 0) lines.push('    otherwise');
    for (const test of writtenTests(row.conditions)) {
      const [c] = test;
      const passed = test.every((t) => t.passed);
      const against = c.against !== undefined ? `, ${(c.expected as { fact: string }).fact} = ${flow(c.against)}` : '';
      const first = row.firstFailed && test.includes(row.firstFailed) ? paint('yellow', '  ← first failing condition') : '';
      lines.push(`    ${passed ? paint('green', 'ok  ') : paint('red', 'FAIL')} ${c.fact}: ${flow(c.written)}  (actual ${flow(c.actual)}${against})${first}`);
    }
  }
  return lines.join('\n') + '\n';
}

type ExplainedCondition = Explanation['rows'][number]['conditions'][number];

/** The conditions as the file writes them: the two halves of a `between` are one test, at one place. */
function writtenTests(conditions: readonly ExplainedCondition[]): Array<[ExplainedCondition, ...ExplainedCondition[]]> {
  const tests: Array<[ExplainedCondition, ...ExplainedCondition[]]> = [];
  for (const c of conditions) {
    const last = tests.at(-1);
    if (last && last[0].at === c.at && last[0].fact === c.fact) last.push(c);
    else tests.push([c]);
  }
  return tests;
}
