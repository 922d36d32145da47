import { signatureOf, type Violation } from './osdm-conformance.ts';
import type { ScenarioResult, StepResult } from './results.ts';

/** What `signalbox test --osdm` found: the steps whose answer breaks OSDM 3.4 beyond the known violations, and the counts. */
export interface OsdmFindings {
  steps: Array<{ file: string; step: StepResult; violations: Violation[] }>;
  checked: number;
  violations: number;
  known: number;
  /** How often each deviation of CONTRACT §4c was met. */
  deviations: Map<string, number>;
}

export function osdmFindings(results: readonly ScenarioResult[], known: ReadonlySet<string> = new Set()): OsdmFindings {
  const found: OsdmFindings = { steps: [], checked: 0, violations: 0, known: 0, deviations: new Map() };
  for (const r of results) {
    for (const step of r.steps) {
      if (!step.osdm) continue;
      found.checked++;
      for (const a of step.osdm.allowed) found.deviations.set(a.deviation, (found.deviations.get(a.deviation) ?? 0) + 1);
      const fresh = step.osdm.violations.filter((v) => !known.has(signatureOf(v)));
      found.known += step.osdm.violations.length - fresh.length;
      if (fresh.length === 0) continue;
      found.violations += fresh.length;
      found.steps.push({ file: r.file, step, violations: fresh });
    }
  }
  return found;
}

/** One step's violations, as the pretty report and JUnit show them. */
export function describeOsdmStep({ step, violations }: OsdmFindings['steps'][number]): string[] {
  return [
    `  ✗ ${step.name}  (${step.at})`,
    `      ${step.request?.method} ${step.request?.path} → ${step.response?.status}  (${violations[0]!.operation})`,
    ...violations.map((v) => `        ${v.pointer || '(body)'}: ${v.message}`),
  ];
}

/**
 * The OSDM conformance part of a run (`signalbox test --osdm`): per step, where its response breaks the OSDM 3.4
 * schema of its operation and status; then the counts, the deviations CONTRACT §4c allows, and the violations
 * the caller's list already knows (`--osdm-known`), which do not fail the run.
 */
export function osdmReport(found: OsdmFindings): string {
  const lines: string[] = ['', 'OSDM 3.4 conformance', ...found.steps.flatMap(describeOsdmStep)];
  const allowed = [...found.deviations].map(([id, n]) => `${id} ×${n}`).join(', ');
  lines.push(
    `  ${found.checked} responses checked: ${found.violations} violation${found.violations === 1 ? '' : 's'}` +
      `${found.known > 0 ? `, ${found.known} known (--osdm-known)` : ''}${allowed ? `; deviations CONTRACT §4c allows: ${allowed}` : ''}`,
  );
  return `${lines.join('\n')}\n`;
}
