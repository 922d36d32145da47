import { defaultOsdmConformance, readKnownViolations, signatureOf, type OsdmConformance } from '../../adapters/scenarios/osdm-conformance.ts';

/**
 * Where a Reseller API answer a test got breaks OSDM 3.4 (CONTRACT §4c), as the scenarios' answers are checked:
 * violations beyond the listed deviations and the known ones (test/osdm-known-violations.txt), one line each.
 * Without ../shared nothing is checked (test/osdm-conformance.test.ts says why).
 */
let osdm: OsdmConformance | null | undefined;
let known: Set<string> | undefined;
export function osdmViolations(method: string, url: string, status: number, body: unknown): string[] {
  if (osdm === undefined) {
    const found = defaultOsdmConformance();
    osdm = 'missing' in found ? null : found;
    known = readKnownViolations(new URL('../osdm-known-violations.txt', import.meta.url).pathname);
  }
  // Test-only routes are no operation of any API.
  if (!osdm || url.startsWith('/v3/test-only/')) return [];
  return osdm.check(method, url, status, body).violations
    .filter((v) => !known!.has(signatureOf(v)))
    .map((v) => `${v.pointer || '(body)'}: ${v.message}`);
}
