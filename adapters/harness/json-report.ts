import type { CoverageMatrix } from './coverage.ts';
import { failureMessage } from './report.ts';
import type { ScenarioResult } from './results.ts';

/**
 * The JSON report, for tools: counts, then every scenario in file order with its verdict, a one-line
 * `failure` (the same as JUnit's message) and every step's result; the coverage matrix when asked for.
 */
export function jsonReport(results: readonly ScenarioResult[], coverage?: CoverageMatrix): string {
  const failed = results.filter((r) => !r.passed).length;
  return (
    JSON.stringify(
      {
        passed: results.length - failed,
        failed,
        steps: results.reduce((n, r) => n + r.steps.filter((s) => !s.skipped).length, 0),
        scenarios: results.map(({ exercised: _exercised, ...r }) => (r.passed ? r : { ...r, failure: failureMessage(r) })),
        ...(coverage ? { coverage } : {}),
      },
      null,
      2,
    ) + '\n'
  );
}
