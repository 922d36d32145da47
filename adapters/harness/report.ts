import type { DecisionTrace } from '../../engine/index.ts';
import { compact, describeDifference } from './diff.ts';
import type { ScenarioResult, StepResult } from './results.ts';

/**
 * The pretty report (terminal): a line per scenario; for a failing one, the failing step's `file:line`,
 * each mismatch with where it was expected and expected against actual, the response, and the rule
 * traces behind it. Output order is the order of the results (file order), whatever ran first.
 */
export function pretty(results: readonly ScenarioResult[]): string {
  const out = results.flatMap(describeScenario);
  out.push('', summary(results));
  return out.join('\n') + '\n';
}

export function summary(results: readonly ScenarioResult[]): string {
  const failed = results.filter((r) => !r.passed).length;
  const skipped = results.filter((r) => r.skipped !== undefined).length;
  const steps = results.reduce((n, r) => n + r.steps.filter((s) => !s.skipped).length, 0);
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const notRun = skipped > 0 ? `, ${skipped} skipped` : '';
  return `${results.length - failed - skipped} passed, ${failed} failed${notRun} (${count(results.length, 'scenario')}, ${count(steps, 'step')})`;
}

/** One scenario's lines: its verdict, then why it failed. JUnit's system-out holds the same lines. */
export function describeScenario(r: ScenarioResult): string[] {
  if (r.skipped !== undefined) return [`- ${r.name}  [${r.file}] skipped: ${r.skipped}`];
  const out = [`${r.passed ? '✓' : '✗'} ${r.name}  [${r.file}] ${Math.round(r.ms)} ms`];
  for (const p of r.problems) out.push(`    ${p}`);
  const failing = r.steps.find((s) => !s.passed && !s.skipped);
  if (failing) out.push(...describeStep(failing));
  const skipped = r.steps.filter((s) => s.skipped).length;
  if (skipped > 0) out.push(`    (${skipped} later step${skipped === 1 ? '' : 's'} not run)`);
  return out;
}

/** One line saying why a scenario failed: its file's first problem, or the failing step, where it is and its first mismatch. */
export function failureMessage(r: ScenarioResult): string {
  const firstLine = (text: string) => text.split('\n')[0]!;
  if (r.problems.length > 0) {
    const count = r.problems.flatMap((p) => p.split('\n')).length;
    return count === 1 ? r.problems[0]! : `${firstLine(r.problems[0]!)} (and ${count - 1} more problems)`;
  }
  const step = r.steps.find((s) => !s.passed && !s.skipped);
  if (!step) return 'failed';
  const first = step.mismatches[0];
  const why = step.error ? firstLine(step.error) : first ? `${first.path}: ${first.message}` : 'failed';
  return `step "${step.name}" at ${step.at}: ${why}${step.mismatches.length > 1 ? ` (and ${step.mismatches.length - 1} more mismatches)` : ''}`;
}

/** The failing step: what was sent, each mismatch, what came back and the rule traces behind it. */
export function describeStep(step: StepResult): string[] {
  const lines = [`  ✗ ${step.name}  (${step.at})`];
  const add = (indent: number, text: string) => lines.push(...text.split('\n').map((l) => `${' '.repeat(indent)}${l}`));
  if (step.request) add(6, `${step.request.method} ${step.request.path}${step.response ? ` → ${step.response.status}` : ''}`);
  if (step.error) add(6, step.error);
  let heading: string | undefined;
  for (const m of step.mismatches) {
    // A schema mismatch: one heading naming the operation and status, then a line per place the body breaks it.
    if (m.kind === 'schema') {
      if (m.path !== heading) add(6, `${(heading = m.path)}:${m.at ? `  (${m.at})` : ''}`);
      add(8, m.message);
      continue;
    }
    heading = undefined;
    add(6, `${m.path}: ${m.message}${m.at ? `  (${m.at})` : ''}`);
    for (const l of describeDifference(m.expected, m.actual)) add(8, l);
  }
  if (step.response && step.mismatches.length > 0)
    add(6, `response ${step.response.status}: ${step.response.body === undefined ? '(empty)' : compact(step.response.body, 500)}`);
  if (step.traces) add(6, step.traces.length === 0 ? 'rule traces: no decision was made' : ['rule traces:', ...describeTraces(step.traces)].join('\n  '));
  if (step.tracesUnavailable) add(6, `rule traces: not available: ${step.tracesUnavailable}`);
  return lines;
}

/** A line per decision made, the same ones counted once: `decision → row (file:line)  facts {…}`. */
export function describeTraces(traces: readonly DecisionTrace[]): string[] {
  const counted = new Map<string, number>();
  for (const t of traces) {
    const fired = t.fired.length === 0 ? 'no row' : t.fired.map((f) => `${f.row} (${f.at})`).join(', ');
    const line = `${t.decision} → ${fired}  facts ${compact(t.facts, 160)}`;
    counted.set(line, (counted.get(line) ?? 0) + 1);
  }
  return [...counted].map(([line, n]) => (n > 1 ? `${line}  ×${n}` : line));
}
