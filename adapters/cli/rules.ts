import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createEngine, loadRules, RuleFileError, type Explanation } from '../../engine/index.ts';

/** `signalbox check`: every problem of every rule file as `file:line:col: message`; exit 1 on any. */
export async function check(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { rules: { type: 'string' } } });
  try {
    const rules = loadRules(values.rules);
    const decisions = Object.values(rules.decisions);
    process.stdout.write(`${rules.files.length} rule files, ${decisions.length} decisions, ${decisions.reduce((n, d) => n + d.rows.length, 0)} rows: no problems\n`);
    return 0;
  } catch (e) {
    if (!(e instanceof RuleFileError)) throw e;
    process.stdout.write(`${e.problems.join('\n')}\n`);
    return 1;
  }
}

/** `signalbox explain <decision> --facts FILE|JSON [--json]`: which row fired and why, each condition with its fact. */
export async function explain(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { facts: { type: 'string' }, json: { type: 'boolean', default: false }, rules: { type: 'string' } },
  });
  const [decision] = positionals;
  if (!decision || !values.facts) {
    process.stderr.write('usage: signalbox explain <decision> --facts FILE|JSON [--json]\n');
    return 2;
  }
  const facts: unknown = JSON.parse(existsSync(values.facts) ? readFileSync(values.facts, 'utf8') : values.facts);
  const engine = createEngine(values.rules ? { rulesDir: values.rules } : {});
  let explanation: Explanation;
  try {
    explanation = engine.explain(decision, facts);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    return 1;
  }
  process.stdout.write(values.json ? `${JSON.stringify(explanation, null, 2)}\n` : renderExplanation(explanation));
  return 0;
}

export function renderExplanation(x: Explanation): string {
  const v = (value: unknown) => JSON.stringify(value);
  const fired = x.rows.filter((r) => r.fired);
  const lines = [
    `${x.decision}: ${x.title}  (${x.file}, hit policy ${x.hitPolicy})`,
    `facts: ${Object.entries(x.facts).map(([k, val]) => `${k} = ${v(val)}`).join(', ')}`,
    `outcome: ${v(x.outcome)}`,
    fired.length ? `decided by: ${fired.map((r) => `row "${r.row}" at ${r.at}`).join(', ')}` : 'decided by: no row matched',
    '',
  ];
  for (const row of x.rows) {
    lines.push(`${row.fired ? '✓' : '·'} ${row.row}  (${row.at})`);
    if (row.conditions.length === 0) lines.push('    otherwise');
    for (const c of row.conditions) {
      const against = c.against !== undefined ? `, ${(c.expected as { fact: string }).fact} = ${v(c.against)}` : '';
      lines.push(`    ${c.passed ? 'ok  ' : 'FAIL'} ${c.fact} ${c.operator} ${v(c.expected)}  (actual ${v(c.actual)}${against})${row.firstFailed === c ? '  ← first failing condition' : ''}`);
    }
  }
  return lines.join('\n') + '\n';
}
