/**
 * An oracle a test needs and the machine may lack: the official OSDM document or the operator's spec in ../shared,
 * Chromium, PostgreSQL. Where it is missing the tests skip and say why; under CI=true (.ci/run) a missing oracle
 * fails the run instead, so a green CI always had every oracle.
 */
export function missingOracle(what: string, reason: string | undefined): string | undefined {
  if (reason === undefined) return undefined;
  if (process.env['CI'] === 'true') throw new Error(`${what} cannot run: ${reason}. Under CI=true every oracle must be there.`);
  console.warn(`${what} skipped: ${reason}`);
  return reason;
}
