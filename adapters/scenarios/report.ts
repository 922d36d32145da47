import type { ScenarioResult, StepResult } from './runner.ts';

/** Reports of a scenario run: pretty (terminal), JUnit XML (CI), JSON (tools). Output order is file order. */
const json = (v: unknown) => {
  const text = JSON.stringify(v) ?? 'undefined';
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

function describeStep(step: StepResult): string[] {
  const lines = [`    ✗ ${step.name}  (${step.at})`];
  if (step.error) lines.push(`      ${step.error.split('\n').join('\n      ')}`);
  for (const m of step.mismatches) lines.push(`      at ${m.path}: ${m.message}`, `        expected: ${json(m.expected)}`, `        actual:   ${json(m.actual)}`);
  if (step.request) lines.push(`      request: ${step.request.method} ${step.request.path}`);
  if (step.response && step.mismatches.length > 0) lines.push(`      response ${step.response.status}: ${json(step.response.body)}`);
  for (const t of step.traces ?? []) {
    lines.push(`      rule ${t.decision} (${t.hitPolicy}) with ${json(t.facts)} → ${t.fired.map((f) => `${f.row} at ${f.at}`).join(', ') || 'no row'}`);
  }
  return lines;
}

export function pretty(results: ScenarioResult[]): string {
  const out: string[] = [];
  for (const r of results) {
    out.push(`${r.passed ? '✓' : '✗'} ${r.name}  [${r.file}] ${Math.round(r.ms)} ms`);
    for (const p of r.problems) out.push(`    ${p}`);
    for (const s of r.steps) if (!s.passed && !s.skipped) out.push(...describeStep(s));
  }
  const failed = results.filter((r) => !r.passed).length;
  const steps = results.reduce((n, r) => n + r.steps.filter((s) => !s.skipped).length, 0);
  out.push('', `${results.length - failed} passed, ${failed} failed (${results.length} scenarios, ${steps} steps)`);
  return out.join('\n') + '\n';
}

const xml = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

export function junit(results: ScenarioResult[]): string {
  const failures = results.filter((r) => !r.passed).length;
  const time = (ms: number) => (ms / 1000).toFixed(3);
  const cases = results.map((r) => {
    const failure = r.passed ? '' : `<failure message="${xml(r.problems[0] ?? r.steps.find((s) => !s.passed && !s.skipped)?.name ?? 'failed')}">${xml([...r.problems, ...r.steps.filter((s) => !s.passed && !s.skipped).flatMap(describeStep)].join('\n'))}</failure>`;
    return `  <testcase classname="${xml(r.file)}" name="${xml(r.name)}" time="${time(r.ms)}">${failure}</testcase>`;
  });
  const total = results.reduce((n, r) => n + r.ms, 0);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites tests="${results.length}" failures="${failures}" time="${time(total)}">\n<testsuite name="signalbox scenarios" tests="${results.length}" failures="${failures}" time="${time(total)}">\n${cases.join('\n')}\n</testsuite>\n</testsuites>\n`;
}

export function jsonReport(results: ScenarioResult[]): string {
  return JSON.stringify({ passed: results.filter((r) => r.passed).length, failed: results.filter((r) => !r.passed).length, scenarios: results }, null, 2) + '\n';
}
