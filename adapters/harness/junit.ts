import { describeScenario, failureMessage } from './report.ts';
import { describeOsdmStep, type OsdmFindings } from './osdm-report.ts';
import type { ScenarioResult } from './results.ts';

// XML 1.0 allows neither most control characters (a terminal colour code, say) nor lone surrogates, even escaped.
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const xml = (s: string) =>
  s.replace(INVALID_XML, '\uFFFD').replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
const seconds = (ms: number) => (ms / 1000).toFixed(3);

function testcase(r: ScenarioResult): string {
  const report = describeScenario(r).join('\n');
  const verdict = r.skipped
    ? `\n    <skipped message="${xml(r.skipped)}"/>`
    : r.passed
      ? ''
      : r.problems.length > 0
        ? `\n    <error message="${xml(failureMessage(r))}" type="ScenarioFileError">${xml(r.problems.join('\n'))}</error>`
        : `\n    <failure message="${xml(failureMessage(r))}" type="StepFailed">${xml(report)}</failure>`;
  return `  <testcase classname="${xml(r.file)}" name="${xml(r.name)}" file="${xml(r.file)}" time="${seconds(r.ms)}">${verdict}\n    <system-out>${xml(report)}</system-out>\n  </testcase>`;
}

/**
 * JUnit XML for CI: one testcase per scenario (classname and file: the scenario file, name: the
 * scenario's name), a failure whose message names the failing step and its `file:line`, an error for a
 * file that could not be loaded, and the scenario's pretty report in system-out.
 */
export function junit(results: readonly ScenarioResult[], suiteName = 'signalbox scenarios', osdm?: OsdmFindings): string {
  const failures = results.filter((r) => !r.passed && r.problems.length === 0).length;
  const errors = results.filter((r) => r.problems.length > 0).length;
  const time = seconds(results.reduce((n, r) => n + r.ms, 0));
  const skipped = results.filter((r) => r.skipped !== undefined).length;
  const counts = `tests="${results.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${time}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(suiteName)}" ${counts}>`,
    `<testsuite name="${xml(suiteName)}" ${counts}>`,
    ...results.map(testcase),
    '</testsuite>',
    ...(osdm ? osdmSuite(results, osdm) : []),
    '</testsuites>',
    '',
  ].join('\n');
}

/** With `--osdm`: a testcase per scenario whose answers were checked, failing where one breaks OSDM 3.4. */
function osdmSuite(results: readonly ScenarioResult[], osdm: OsdmFindings): string[] {
  const checked = results.filter((r) => r.steps.some((s) => s.osdm));
  const failing = (r: ScenarioResult) => osdm.steps.filter((s) => s.file === r.file);
  const counts = `tests="${checked.length}" failures="${checked.filter((r) => failing(r).length > 0).length}" errors="0" skipped="0" time="0.000"`;
  return [
    `<testsuite name="OSDM 3.4 conformance" ${counts}>`,
    ...checked.map((r) => {
      const found = failing(r);
      const count = found.reduce((n, s) => n + s.violations.length, 0);
      const failure =
        found.length === 0
          ? ''
          : `\n    <failure message="${count} violation${count === 1 ? '' : 's'} of OSDM 3.4" type="OsdmViolation">${xml(found.flatMap(describeOsdmStep).join('\n'))}</failure>\n  `;
      return `  <testcase classname="${xml(r.file)}" name="${xml(`OSDM 3.4: ${r.name}`)}" file="${xml(r.file)}" time="0.000">${failure}</testcase>`;
    }),
    '</testsuite>',
  ];
}
