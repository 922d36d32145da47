import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_SECRETS } from '../adapters/harness/demo-secrets.ts';
import { buildServer } from '../adapters/http/server.ts';
import { coverageMatrix, type CoverageMatrix } from '../adapters/harness/coverage.ts';
import { coverageSummary } from '../adapters/harness/coverage-summary.ts';
import { runScenario } from '../adapters/harness/runner.ts';
import { inProcess, live, type Target } from '../adapters/harness/targets.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { engine } from './helpers/server.ts';

/** `signalbox test --coverage`: what the selected scenarios exercised, against everything there is. */
const dir = mkdtempSync(join(tmpdir(), 'signalbox-coverage-'));
const uses = `uses: [${resolve('scenarios/fixtures/trips.yaml')}]`;
const offer = `  - post: /v3/offers
    body:
      tripSpecifications: [{ $trip: sto-gbg-0800 }]
      anonymousPassengerSpecifications: { $passengers: anna-alone }
      offerSearchCriteria: { travelClasses: [SECOND], flexibilities: [NON_FLEXIBLE] }
    expect: { status: 200 }
    save: { offerId: "offers[0].offerId" }
  - post: /v3/bookings
    body:
      externalRef: coverage
      offers: [{ offerId: "\${offerId}", passengerRefs: [anna] }]
      passengerSpecifications: { $passengerSpecifications: anna-alone }
      purchaser: { $purchaser: anna }
    expect: { status: 200 }
    save: { bookingId: booking.id }`;
const files = {
  confirm: `name: Sell and confirm\nclock: 2026-11-20T10:00:00+01:00\n${uses}\nsteps:\n${offer}
  - post: /v3/bookings/\${bookingId}/fulfillment
    expect: { status: 202 }
  - get: /v3/bookings/\${bookingId}
    expect: { status: 200 }\n`,
  expire: `name: Too late to confirm\nclock: 2026-11-20T10:00:00+01:00\n${uses}\nsteps:\n${offer}
  - advance: PT61M
  - post: /v3/bookings/\${bookingId}/fulfillment
    expect: { status: 409 }\n`,
};
const paths = Object.fromEntries(
  Object.entries(files).map(([name, text]) => {
    const path = join(dir, `${name}.yaml`);
    writeFileSync(path, text);
    return [name, path];
  }),
) as Record<keyof typeof files, string>;

async function matrix(target: Target): Promise<CoverageMatrix> {
  const results = [];
  for (const file of Object.values(paths)) results.push(await runScenario(file, target, { secrets: DEMO_SECRETS, coverage: true }));
  expect(results.map((r) => r.passed)).toEqual([true, true]);
  return coverageMatrix(results, engine());
}
const rowBy = (m: CoverageMatrix, decision: string, row: string) => m.decisions.find((d) => d.decision === decision)!.rows.find((r) => r.row === row)!.by;

describe('operations', () => {
  it("are the route table's, without the sandbox controls, an operation for every method once", async () => {
    const m = coverageMatrix([], engine());
    const keys = m.operations.map((o) => `${o.method} ${o.path}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        'GET /health',
        'POST /oauth2/token',
        'POST /v3/offers',
        'POST /v3/booking',
        'POST /v3/bookings',
        'GET /v3/bookings/{bookingId}',
        'POST /v3/bookings/{bookingId}/fulfillment',
        'GET /v3/fulfillments/{fulfillmentId}',
        'GET /v3/availabilities/nearby',
      ]),
    );
    expect(keys.filter((k) => k.includes('/sandbox'))).toEqual([]);
    expect(new Set(keys).size).toBe(keys.length);
    expect(m.operations.find((o) => o.path === '/v3/bookings/{bookingId}' && o.method === 'GET')!.osdm).toEqual(['getBookingsId']);
  });
});

describe('the coverage matrix', () => {
  it('names the rows, codes, routes and booking transitions exercised, by which files, and the ones none did', async () => {
    const m = await matrix(inProcess(engine()));
    expect(m.scenarios).toBe(2);
    expect(rowBy(m, 'passengerType', 'adult')).toEqual([paths.confirm, paths.expire]);
    expect(rowBy(m, 'passengerType', 'senior')).toEqual([]);
    expect(m.errors.find((e) => e.code === 'X_BOOKING_EXPIRED')).toEqual({ code: 'X_BOOKING_EXPIRED', status: 409, by: [paths.expire] });
    expect(m.errors.find((e) => e.code === '86003')!.by).toEqual([]);
    expect(m.operations.find((o) => o.path === '/v3/bookings/{bookingId}' && o.method === 'GET')!.by).toEqual([paths.confirm]);
    expect(m.operations.find((o) => o.path === '/health')!.by).toEqual([]);
    // OSDM's operations by their ids: the operator's POST …/fulfillment stands for OSDM's postFulfillments.
    expect(m.osdmOperations.find((o) => o.operationId === 'getBookingsId')!.by).toEqual([paths.confirm]);
    expect(m.osdmOperations.find((o) => o.operationId === 'postFulfillments')!.by).toEqual([paths.confirm, paths.expire]);
    expect(m.osdmOperations.find((o) => o.operationId === 'postRefundOffers')!.by).toEqual([]);
    expect(m.transitions).toEqual(
      expect.arrayContaining([
        { from: 'PREBOOKED', event: 'CONFIRM', to: 'FULFILLED', by: [paths.confirm] },
        { from: 'PREBOOKED', event: 'EXPIRE', to: 'EXPIRED', by: [paths.expire] },
      ]),
    );
    expect(m.transitions.filter((t) => t.by.length > 0)).toHaveLength(2);
    expect(m.unknown).toEqual({ rows: [], codes: [], requests: [] });

    const summary = coverageSummary(m);
    const unwrapped = summary.replace(/\s+/g, ' ');
    expect(summary).toMatch(/^coverage of 2 scenarios:$/m);
    expect(summary).toMatch(new RegExp(`^ {2}booking transitions +2/${m.transitions.length} +\\d+%$`, 'm'));
    expect(unwrapped).toContain('passengerType#senior'); // listed under decision rows' "none:"
    expect(unwrapped).toMatch(/ GET \/health(,| |$)/);
  });

  it('is the same against a live sandbox server, whose traces it fetches by request id', async () => {
    const app = await buildServer({ engine: engine(), store: memoryStore(), sandbox: true, jwtSecret: 'coverage' });
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const viaHttp = await matrix(live(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, { secrets: DEMO_SECRETS }));
      const inside = await matrix(inProcess(engine()));
      expect(viaHttp.decisions).toEqual(inside.decisions);
      expect(viaHttp.errors).toEqual(inside.errors);
      expect(viaHttp.transitions).toEqual(inside.transitions);
    } finally {
      await app.close();
    }
  });
});
