import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFor, closeAll, shooter, studioServer } from '../helpers/studio-browser.ts';

/**
 * "Why 412 exactly", in a real headless Chromium (Debian's `chromium`, driven by playwright-core): an analyst asks for a
 * 17-year-old student's offers, tells the two "2nd class, standard seat" rows apart by their flexibility, opens one's
 * price and follows it term by term to the total in the answer, then follows a term to its table. The view is
 * photographed to reports/studio/price-explained.png. The browser, the studio server and the screenshot come from
 * test/helpers/studio-browser.ts. Without Chromium the test is skipped, and says why.
 */
const { browser, missing } = await chromiumFor('test/browser/studio-price.test.ts');

let page: Page;
let app: FastifyInstance;

const shot = shooter(() => page);

/** The steps a price table shows, folded as they say: add, multiply, round to the nearest multiple. */
async function folded(table: ReturnType<Page['locator']>): Promise<number> {
  const steps = await table
    .locator('tr.price-step')
    .evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-op')!, Number(r.getAttribute('data-value'))] as const));
  let amount = 0;
  for (const [op, value] of steps) amount = op === 'plus' ? amount + value : op === 'times' ? amount * value : Math.round(amount / value) * value;
  return amount;
}

/** "412.00 SEK" → 41200. */
const minor = (text: string) => Math.round(Number(/([\d.]+) SEK/.exec(text)![1]) * 100);

describe.skipIf(missing !== undefined)('an offer price explained in the studio, in Chromium', () => {
  let base: string;

  beforeAll(async () => {
    // Nothing is saved here: the repository's own rules/ are read, never written.
    app = await studioServer({ rulesDir: 'rules', scenarios: [] });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    page = await browser!.newPage({ viewport: { width: 1280, height: 1000 } });
    page.setDefaultTimeout(8_000);
  }, 30_000);

  afterAll(() => closeAll(browser, [app]));

  it('shows the flexibility of each offer, explains a price term by term to the total in the answer, and a term opens its table', async () => {
    await page.goto(`${base}/studio#/offers`);
    await page.getByLabel('Trip').selectOption('sto-gbg-0800');
    await page.getByRole('button', { name: 'Ask for offers' }).click();
    const rows = page.locator('#offers-result table.offers tbody tr[data-offer]');
    await rows.first().waitFor();
    // The two "2nd class, standard seat" offers, told apart by their flexibility.
    expect(await page.locator('table.offers th').allTextContents()).toEqual(expect.arrayContaining(['Class', 'Comfort', 'Flexibility']));
    expect(await rows.nth(0).locator('td.flexibility').textContent()).toBe('NON_FLEXIBLE');
    expect(await rows.nth(1).locator('td.flexibility').textContent()).toBe('FULL_FLEXIBLE');
    expect(await rows.nth(0).locator('td.travel-class').textContent()).toBe('SECOND');
    expect(await rows.nth(0).locator('td.comfort').textContent()).toBe('STANDARD · SEAT');

    const offer = rows.nth(0);
    const price = minor((await offer.locator('.admission-price').textContent())!);
    expect(price).toBe(41200);
    await offer.getByRole('button', { name: 'Explain' }).click();
    const explanation = page.locator('.offer-explanation:not([hidden]) .price-explanation');
    await explanation.waitFor();
    const admission = explanation.locator('.explained-part[data-kind="admission"] table.price-steps').first();
    // The terms shown, folded, are the price in the answer, and the total row says so.
    expect(await folded(admission)).toBe(price);
    expect(Number(await admission.locator('tr.price-total').getAttribute('data-amount'))).toBe(price);
    expect(await admission.locator('tr.price-total .matches').textContent()).toBe('the price in the answer');
    expect(await admission.locator('tr.price-step').evaluateAll((r) => r.map((x) => x.getAttribute('data-term')))).toEqual([
      'base',
      'perMinute',
      'productFactor',
      'flexibilityFactor',
      'fareFactor',
      'roundTo',
    ]);
    expect(await admission.locator('tr[data-term="base"]').textContent()).toMatch(/tariff\.yaml:\d+/);
    const minimal = explanation.locator('.explained-part[data-part="minimalPrice"] table.price-steps');
    expect(await folded(minimal)).toBe(minor((await offer.locator('.minimal-price').textContent())!));
    await admission.scrollIntoViewIfNeeded();
    await shot('price-explained');

    // The fare factor's term opens the fareFactor table on the row that decided, this case explained.
    await admission.locator('tr[data-term="fareFactor"]').getByRole('link', { name: 'student' }).click();
    await page.locator('.deciding-row').waitFor();
    expect(await page.locator('tr.fired').getAttribute('data-row')).toBe('student');
  }, 30_000);
});
