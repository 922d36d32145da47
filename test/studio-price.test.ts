import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../engine/index.ts';
import { virtualClock } from '../adapters/service/clock.ts';
import { buildServer } from '../adapters/http/server.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { studioExtension } from '../adapters/studio/routes.ts';
import type { OffersTriedExplained } from '../adapters/http/openapi/studio-price-schemas.ts';

/**
 * "Why 412 exactly", through the studio's endpoint without a browser: the offers a 17-year-old student is offered on
 * the 08:00 Stockholm–Gothenburg fast train, each price explained from the tariff to the öre. The browser's path is in
 * test/browser/studio-price.test.ts.
 */
const apps: FastifyInstance[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

async function tried(sandbox: boolean, salesApplication = 'WEB_SE'): Promise<OffersTriedExplained> {
  const app = await buildServer({
    engine: createEngine(),
    store: memoryStore(),
    sandbox,
    jwtSecret: 'studio-price-test',
    clock: virtualClock(new Date('2026-11-20T10:00:00+01:00')),
    extensions: [studioExtension({ sandbox, rulesDir: 'rules', scenarios: [] })],
  });
  apps.push(app);
  const res = await app.inject({
    method: 'POST',
    url: '/studio/api/offers',
    payload: { trip: 'sto-gbg-0800', salesApplication, passengers: [{ age: 17, cards: ['SWE_STUDENT'] }] },
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const terms = (steps: ReadonlyArray<{ term: string; value: number; amount: number }>) => steps.map((s) => [s.term, s.value, s.amount]);

describe('an offer price explained in the studio', () => {
  it('explains 412 SEK term by term, each term pointing at its tariff line or rule row', async () => {
    for (const sandbox of [false, true]) {
      const data = await tried(sandbox);
      const offers = (data.response as { offers: Array<{ offerId: string; offerSummary: { minimalPrice: { amount: number } } }> }).offers;
      expect(data.explanations.map((x) => x.offerId)).toEqual(offers.map((o) => o.offerId));
      const [first] = data.explanations;
      const admission = first!.parts.find((p) => p.kind === 'admission')!;
      // rules/tariff.yaml ST: 99 SEK + 2.50 SEK × 180 min; DAY_2_STANDARD and NON_FLEXIBLE 1.0; the student row 0.75; to whole kronor.
      expect(terms(admission.steps)).toEqual([
        ['base', 9900, 9900],
        ['perMinute', 45000, 54900],
        ['productFactor', 1, 54900],
        ['flexibilityFactor', 1, 54900],
        ['fareFactor', 0.75, 41175],
        ['roundTo', 100, 41200],
      ]);
      expect(admission.amount).toBe(41200);
      expect(admission.steps[0]!.sources).toEqual([
        { file: 'tariff.yaml', path: ['categories', 'ST', 'base'], at: expect.stringMatching(/tariff\.yaml:\d+:\d+$/) },
      ]);
      expect(admission.steps[4]!.sources).toEqual([
        expect.objectContaining({ decision: 'fareFactor', row: 'student', at: expect.stringMatching(/fare-factors\.yaml:\d+:\d+$/) }),
      ]);
      expect(first!.minimalPrice.amount).toBe(offers[0]!.offerSummary.minimalPrice.amount);
      // The fully flexible offer of the same product: the flexibility's factor 1.3 makes 535.
      const flexible = data.explanations[1]!.parts.find((p) => p.kind === 'admission')!;
      expect(flexible.steps.find((s) => s.term === 'flexibilityFactor')).toMatchObject({ value: 1.3, ref: 'FULL_FLEXIBLE' });
      expect(flexible.amount).toBe(53500);
    }
  });

  it('explains a price in EUR with the rate and its rounding', async () => {
    const data = await tried(false, 'AGENT_EU');
    const admission = data.explanations[0]!.parts.find((p) => p.kind === 'admission')!;
    expect(terms(admission.steps).slice(-2)).toEqual([
      ['currencyRate', 0.087, 41200 * 0.087],
      ['currencyRoundTo', 10, 3580],
    ]);
  });

  it('documents the explanations in /openapi.json', async () => {
    await tried(false);
    const doc = (await apps.at(-1)!.inject({ method: 'GET', url: '/openapi.json' })).json();
    const ref: string = doc.paths['/studio/api/offers'].post.responses['200'].content['application/json'].schema.$ref;
    const schema = JSON.stringify(doc.components.schemas[ref.split('/').pop()!]);
    expect(schema).toContain('explanations');
    expect(schema).toContain('perMinute');
  });
});
