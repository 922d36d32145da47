import { signatureOf } from './osdm-conformance.ts';
import type { ScenarioResult } from './results.ts';

/**
 * The OSDM conformance part of a run (`signalbox test --osdm`): per step, where its response breaks the OSDM 3.4
 * schema of its operation and status; then the counts, the deviations CONTRACT §4c allows, and the violations
 * the caller's list already knows (`--osdm-known`), which do not fail the run.
 */
export function osdmReport(results: readonly ScenarioResult[], known: ReadonlySet<string> = new Set()): { text: string; violations: number } {
  const lines: string[] = ['', 'OSDM 3.4 conformance'];
  let checked = 0, violations = 0, knownSeen = 0;
  const deviations = new Map<string, number>();
  for (const r of results) {
    for (const step of r.steps) {
      if (!step.osdm) continue;
      checked++;
      for (const a of step.osdm.allowed) deviations.set(a.deviation, (deviations.get(a.deviation) ?? 0) + 1);
      const fresh = step.osdm.violations.filter((v) => !known.has(signatureOf(v)));
      knownSeen += step.osdm.violations.length - fresh.length;
      if (fresh.length === 0) continue;
      violations += fresh.length;
      lines.push(`  ✗ ${step.name}  (${step.at})`, `      ${step.request?.method} ${step.request?.path} → ${step.response?.status}  (${fresh[0]!.operation})`);
      for (const v of fresh) lines.push(`        ${v.pointer || '(body)'}: ${v.message}`);
    }
  }
  const allowed = [...deviations].map(([id, n]) => `${id} ×${n}`).join(', ');
  lines.push(`  ${checked} responses checked: ${violations} violation${violations === 1 ? '' : 's'}`
    + `${knownSeen > 0 ? `, ${knownSeen} known (--osdm-known)` : ''}${allowed ? `; deviations CONTRACT §4c allows: ${allowed}` : ''}`);
  return { text: `${lines.join('\n')}\n`, violations };
}
