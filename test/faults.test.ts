import { afterAll, describe, expect, it } from 'vitest';
import { withPriceChanged } from '../adapters/service/faults.ts';
import { buildServer } from '../adapters/http/server.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import type { Booking, Money } from '../engine/index.ts';
import { durationMs } from '../engine/rules/time.ts';
import { engine, testServer } from './helpers/server.ts';

/**
 * Faults on demand (X-Sandbox-Fault, docs/api-and-integration.md#faults-on-demand). The scenarios under
 * scenarios/faults/ show each fault as an integrator meets it; here what they cannot: a production server ignores
 * the header, /openapi.json documents it where it applies, and a delay really delays.
 */
const sandbox = await testServer();
const production = await buildServer({ engine: engine(), store: memoryStore(), jwtSecret: 'p' });
afterAll(async () => {
  await sandbox.app.close();
  await production.close();
});

/** The analysts' numbers (rules/limits.yaml sandboxFaults): the tests hold whatever they set. */
const limits = engine().rules.limits.sandboxFaults;
const seconds = (iso: string) => Math.round(durationMs(iso) / 1000);

const parameters = (doc: any, path: string, method: string): Array<{ name: string; description?: string }> => doc.paths[path][method].parameters;

describe('X-Sandbox-Fault', () => {
  it('is ignored by a server without --sandbox, as the operator would ignore it', async () => {
    const res = await production.inject({ method: 'GET', url: '/health', headers: { 'x-sandbox-fault': 'unavailable' } });
    expect(res.statusCode).toBe(200);
    const unauthenticated = await production.inject({ method: 'GET', url: '/v3/bookings/x', headers: { 'x-sandbox-fault': 'unavailable' } });
    expect(unauthenticated.statusCode).toBe(401);
    const doc = (await production.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(JSON.stringify(doc)).not.toContain('"name":"X-Sandbox-Fault"');
    expect(doc.paths['/v3/offers'].post.responses['503']).toBeUndefined();
  });

  it('is documented on a sandbox, with the faults of each operation and the 503 of the Reseller API', async () => {
    const doc = (await sandbox.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const fault = (path: string, method: string) => parameters(doc, path, method).find((p) => p.name === 'X-Sandbox-Fault')?.description ?? '';
    expect(fault('/v3/booking', 'post')).toContain('`place-taken`');
    expect(fault('/v3/bookings/{bookingId}', 'patch')).toContain('`place-taken`');
    expect(fault('/v3/bookings/{bookingId}/fulfillment', 'post')).toContain(
      `\`price-changed;percent=N\` (${limits.percentMin}…${limits.percentMax}; ${limits.priceChangePercent} when left out)`,
    );
    expect(fault('/v3/bookings/{bookingId}/fulfillment', 'post')).toContain(
      `\`fulfillment-pending;seconds=N\` (1…${seconds(limits.pendingMax)}; ${seconds(limits.fulfillmentPending)} when left out)`,
    );
    expect(fault('/v3/bookings/{bookingId}/fulfillment', 'post')).toContain('`technical-failure`');
    expect(fault('/v3/offers', 'post')).not.toContain('place-taken');
    expect(fault('/v3/offers', 'post')).toContain(
      `\`unavailable;retry-after=N\` (0…${seconds(limits.retryAfterMax)}; ${seconds(limits.retryAfter)} when left out)`,
    );
    expect(fault('/customer/contacts/email', 'post')).not.toContain('unavailable');
    expect(fault('/customer/contacts/email', 'post')).toContain(`\`delay;ms=N\` (0…${durationMs(limits.delayMax)}): the answer comes`);
    // The 503: a Problem, and what it says of Retry-After.
    const unavailable = doc.paths['/v3/offers'].post.responses['503'];
    expect(unavailable).toEqual({ $ref: '#/components/responses/Problem503' });
    const problem503 = doc.components.responses.Problem503;
    expect(problem503.content).toEqual({ 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } });
    expect(problem503.description).toMatch(/^SERVICE_UNAVAILABLE, with Retry-After/);
    expect(problem503.headers['Retry-After'].schema).toEqual({ type: 'integer' });
    expect(doc.paths['/customer/contacts/email'].post.responses['503']).toBeUndefined();
  });

  it('refuses a parameter beyond the bounds of rules/limits.yaml, and takes one at them', async () => {
    const faulted = (url: string, method: 'GET' | 'POST', header: string) => sandbox.app.inject({ method, url, headers: { 'x-sandbox-fault': header } });
    const confirm = '/v3/bookings/nobody-s-booking/fulfillment';
    for (const header of [
      `price-changed;percent=${limits.percentMax + 1}`,
      `price-changed;percent=${limits.percentMin - 1}`,
      `fulfillment-pending;seconds=${seconds(limits.pendingMax) + 1}`,
    ]) {
      const res = await faulted(confirm, 'POST', header);
      expect(res.statusCode, header).toBe(400);
      expect(res.json(), header).toMatchObject({ code: '86001', pointers: [{ requestPointer: 'header:X-Sandbox-Fault' }] });
    }
    for (const header of [
      `price-changed;percent=${limits.percentMax}`,
      `price-changed;percent=${limits.percentMin}`,
      `fulfillment-pending;seconds=${seconds(limits.pendingMax)}`,
    ]) {
      expect((await faulted(confirm, 'POST', header)).statusCode, header).toBe(401); // read, then on to the credentials
    }
    expect((await faulted('/v3/bookings/x', 'GET', `unavailable;retry-after=${seconds(limits.retryAfterMax) + 1}`)).statusCode).toBe(400);
    const atMost = await faulted('/v3/bookings/x', 'GET', `unavailable;retry-after=${seconds(limits.retryAfterMax)}`);
    expect(atMost.statusCode).toBe(503);
    expect(atMost.headers['retry-after']).toBe(String(seconds(limits.retryAfterMax)));
  });

  it("price-changed sums the provisional price's VAT per rate", () => {
    const vat = (percentage: number, amount: number) => ({ countryCode: 'SE', percentage, scope: 'NATIONAL' as const, amount });
    const price = (amount: number, vats: ReturnType<typeof vat>[]): Money => ({ currency: 'SEK', amount, scale: 2, vats });
    const booking = {
      admissions: [{ price: price(10600, [vat(6, 600)]) }, { price: price(21200, [vat(6, 1200)]) }],
      reservations: [{ price: price(0, [vat(6, 0)]) }],
      ancillaries: [{ price: price(12500, [vat(25, 2500)]) }],
      provisionalPrice: price(44300, [vat(6, 1800), vat(25, 2500)]),
    } as unknown as Booking;
    const moved = withPriceChanged(booking, 10).provisionalPrice;
    expect(moved.amount).toBe(11660 + 23320 + 13750);
    expect(moved.vats).toEqual([vat(6, 660 + 1320), vat(25, 2750)]);
  });

  it('delay answers no sooner than asked', async () => {
    const started = performance.now();
    const res = await sandbox.app.inject({ method: 'GET', url: '/health', headers: { 'x-sandbox-fault': 'delay;ms=200' } });
    expect(res.statusCode).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('a header given twice counts as one list', async () => {
    const res = await sandbox.app.inject({
      method: 'GET',
      url: '/v3/bookings/x',
      headers: { 'x-sandbox-fault': ['delay;ms=1', 'unavailable;retry-after=7'] },
    });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('7');
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});
