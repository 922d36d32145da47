import { defaultOsdmConformance, type OsdmConformance } from '../../adapters/harness/osdm-conformance.ts';

/**
 * Where a Reseller API answer a test got breaks OSDM 3.4 (CONTRACT §4c), as the scenarios' answers are checked:
 * violations beyond the listed deviations, one line each.
 * Without ../shared nothing is checked (test/osdm-conformance.test.ts says why).
 */
let osdm: OsdmConformance | null | undefined;
export function osdmViolations(method: string, url: string, status: number, body: unknown): string[] {
  if (osdm === undefined) {
    const found = defaultOsdmConformance();
    osdm = 'missing' in found ? null : found;
  }
  // Test-only routes are no operation of any API.
  if (!osdm || url.startsWith('/v3/test-only/')) return [];
  return osdm.check(method, url, status, body).violations.map((v) => `${v.pointer || '(body)'}: ${v.message}`);
}
