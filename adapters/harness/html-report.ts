import { describeDifference } from './diff.ts';
import { describeTraces, failureMessage, summary } from './report.ts';
import type { ScenarioResult, StepResult } from './results.ts';
import { escapeHtml } from '../shared/html.ts';

/**
 * The HTML report: one self-contained page (no script, no request elsewhere) with every scenario in file
 * order and, for each step, the request sent, the response got, each mismatch with its expected/actual diff
 * and, for the failing step, the rule traces behind it. A failing scenario and its failing step start open.
 */
const json = (v: unknown) => (v === undefined ? '(empty)' : typeof v === 'string' ? v : JSON.stringify(v, null, 2));
const pre = (cls: string, text: string) => `<pre class="${cls}">${escapeHtml(text)}</pre>`;

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}h1{font-size:1.3em}
summary{cursor:pointer;padding:.2em 0}.pass>summary{color:#17692b}.fail>summary{color:#a31515;font-weight:bold}
.skip>summary{color:#777}details details{margin-left:1.5em}pre{background:#f6f6f6;padding:.5em;overflow:auto;max-height:30em}
pre.diff{background:#fff8f0}pre.traces{background:#f0f4ff}.at{color:#777;font-weight:normal}h3{font-size:1em;margin:.6em 0 .2em}`;

export function htmlReport(results: readonly ScenarioResult[], title = 'signalbox scenarios'): string {
  return [
    '<!doctype html>',
    `<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>`,
    `<h1>${escapeHtml(title)}</h1>`,
    `<p class="summary">${escapeHtml(summary(results))}</p>`,
    ...results.map(scenario),
    '</body></html>',
    '',
  ].join('\n');
}

function scenario(r: ScenarioResult): string {
  const verdict = r.passed ? 'pass' : 'fail';
  const problems = r.problems.length > 0 ? `<h3>Problems of the file</h3>${pre('diff', r.problems.join('\n'))}` : '';
  const why = r.passed ? '' : `<p class="failure">${escapeHtml(failureMessage(r))}</p>`;
  return `<details class="scenario ${verdict}"${r.passed ? '' : ' open'}><summary>${r.passed ? '✓' : '✗'} ${escapeHtml(r.name)} <span class="at">[${escapeHtml(r.file)}] ${Math.round(r.ms)} ms</span></summary>
${why}${problems}${r.steps.map(step).join('\n')}</details>`;
}

function step(s: StepResult): string {
  const verdict = s.skipped ? 'skip' : s.passed ? 'pass' : 'fail';
  const mark = s.skipped ? '–' : s.passed ? '✓' : '✗';
  const parts: string[] = [];
  if (s.request)
    parts.push(
      `<h3>Request</h3>${pre('request', `${s.request.method} ${s.request.path}${s.request.body === undefined ? '' : `\n\n${json(s.request.body)}`}`)}`,
    );
  if (s.response) parts.push(`<h3>Response ${s.response.status}</h3>${pre('response', json(s.response.body))}`);
  if (s.error) parts.push(`<h3>Error</h3>${pre('diff', s.error)}`);
  if (s.mismatches.length > 0) {
    const lines = s.mismatches.flatMap((m) => [
      `${m.path}: ${m.message}${m.at ? `  (${m.at})` : ''}`,
      ...(m.kind === 'schema' ? [] : describeDifference(m.expected, m.actual).map((l) => `  ${l}`)),
    ]);
    parts.push(`<h3>Mismatches</h3>${pre('diff', lines.join('\n'))}`);
  }
  // The traces as the terminal report prints them, so both read the same.
  if (s.traces) parts.push(`<h3>Rule traces</h3>${pre('traces', s.traces.length === 0 ? 'no decision was made' : describeTraces(s.traces).join('\n'))}`);
  if (s.tracesUnavailable) parts.push(`<h3>Rule traces</h3>${pre('traces', `not available: ${s.tracesUnavailable}`)}`);
  return `<details class="step ${verdict}"${verdict === 'fail' ? ' open' : ''}><summary>${mark} ${escapeHtml(s.name)} <span class="at">(${escapeHtml(s.at)})</span></summary>${parts.join('\n')}</details>`;
}
