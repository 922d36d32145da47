import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_SECRETS } from '../adapters/cli/demo.ts';
import { buildServer } from '../adapters/http/server.ts';
import { coverageMatrix, type CoverageMatrix } from '../adapters/scenarios/coverage.ts';
import { coverageSummary } from '../adapters/scenarios/coverage-summary.ts';
import { listRoutes, routeOf } from '../adapters/scenarios/routes.ts';
import { apiRoutes } from '../adapters/scenarios/routes-of-server.ts';
import { runScenario } from '../adapters/scenarios/runner.ts';
import { inProcess, live, type Target } from '../adapters/scenarios/targets.ts';
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
const paths = Object.fromEntries(Object.entries(files).map(([name, text]) => {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, text);
  return [name, path];
})) as Record<keyof typeof files, string>;

async function matrix(target: Target): Promise<CoverageMatrix> {
  const results = [];
  for (const file of Object.values(paths)) results.push(await runScenario(file, target, { secrets: DEMO_SECRETS, coverage: true }));
  expect(results.map((r) => r.passed)).toEqual([true, true]);
  return coverageMatrix(results, engine(), await apiRoutes(engine()));
}
const rowBy = (m: CoverageMatrix, decision: string, row: string) => m.decisions.find((d) => d.decision === decision)!.rows.find((r) => r.row === row)!.by;

describe('routes', () => {
  it('lists every route of the server once, without the HEAD twins of GETs', async () => {
    const app = await buildServer({ engine: engine(), store: memoryStore(), sandbox: true, jwtSecret: 'x' });
    await app.ready();
    const routes = listRoutes(app).map((r) => `${r.method} ${r.url}`);
    expect(routes).toEqual(expect.arrayContaining([
      'GET /health', 'POST /oauth2/token', 'POST /v3/offers', 'POST /v3/booking', 'POST /v3/bookings',
      'GET /v3/bookings/:bookingId', 'POST /v3/bookings/:bookingId/fulfillment', 'GET /v3/fulfillments/:fulfillmentId',
      'GET /sandbox/clock', 'POST /sandbox/clock', 'GET /sandbox/traces/:requestId',
    ]));
    expect(routes.filter((r) => r.startsWith('HEAD'))).toEqual([]);
    expect(new Set(routes).size).toBe(routes.length);
    expect(routeOf(listRoutes(app), 'post', '/v3/bookings/SB123/fulfillment?x=1')).toEqual({ method: 'POST', url: '/v3/bookings/:bookingId/fulfillment' });
    expect(routeOf(listRoutes(app), 'GET', '/v3/bookings/')).toBeUndefined();
    await app.close();
  });

  it('counts the API without the sandbox controls', async () => {
    expect((await apiRoutes(engine())).filter((r) => r.url.startsWith('/sandbox'))).toEqual([]);
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
    expect(m.routes.find((r) => r.url === '/v3/bookings/:bookingId' && r.method === 'GET')!.by).toEqual([paths.confirm]);
    expect(m.routes.find((r) => r.url === '/health')!.by).toEqual([]);
    expect(m.transitions).toEqual(expect.arrayContaining([
      { from: 'PREBOOKED', event: 'CONFIRM', to: 'FULFILLED', by: [paths.confirm] },
      { from: 'PREBOOKED', event: 'EXPIRE', to: 'EXPIRED', by: [paths.expire] },
    ]));
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
      const viaHttp = await matrix(live(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`));
      const inside = await matrix(inProcess(engine()));
      expect(viaHttp.decisions).toEqual(inside.decisions);
      expect(viaHttp.errors).toEqual(inside.errors);
      expect(viaHttp.transitions).toEqual(inside.transitions);
    } finally {
      await app.close();
    }
  });
});
