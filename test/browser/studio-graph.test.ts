import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFor, closeAll, copiedRules, signIn, studioServer } from '../helpers/studio-browser.ts';

/**
 * The decision graph and a table's CSV in a real headless Chromium (Debian's `chromium`, driven by playwright-core),
 * on a copy of rules/. Photographed, whole pages, to reports/studio/graph.png and csv.png. The browser, the studio
 * server and signing in come from test/helpers/studio-browser.ts. Without Chromium the tests are skipped, and say why.
 */
const { browser, missing } = await chromiumFor('test/browser/studio-graph.test.ts');

const SHOTS = 'reports/studio';

let rulesDir: string;
let page: Page;
let app: FastifyInstance;

describe.skipIf(missing !== undefined)('the decision graph and CSV in Chromium', () => {
  let base: string;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    rulesDir = copiedRules('studio-graph-rules-');
    app = await studioServer({ rulesDir, scenarios: ['scenarios/offers/passenger-types.yaml'] });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    page = await browser!.newPage({ viewport: { width: 1280, height: 860 }, acceptDownloads: true });
  }, 30_000);

  afterAll(() => closeAll(browser, [app], rulesDir));

  it('draws which decision feeds which, and passengerType\u2019s node opens its table', async () => {
    await page.goto(`${base}/studio`);
    await page.getByRole('link', { name: 'Decision graph' }).click();
    const node = page.locator('svg.decision-graph a[href="#/tables/passengerType"]');
    await node.waitFor();
    // The arrow from passengerType to fareFactor names the fact it feeds.
    expect(await page.locator('svg g.edge[data-from="passengerType"][data-to="fareFactor"] text').textContent()).toBe('internalType');
    expect(await page.locator('svg g.node.sink').count()).toBeGreaterThanOrEqual(5);
    await page.screenshot({ path: join(SHOTS, 'graph.png'), fullPage: true });
    await node.click();
    await page.locator('tr[data-row="student"]').waitFor();
    expect(page.url()).toMatch(/#\/tables\/passengerType$/);
    expect(await page.locator('h2').textContent()).toBe('Age and reduction card to passenger type');
  }, 20_000);

  it('exports a table as CSV, imports it edited into the editor, and saves it with the rest of the file as it was', async () => {
    await page.goto(`${base}/studio#/tables/fareFactor`);
    await signIn(page);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('fareFactor.csv');
    const csv = readFileSync(await download.path(), 'utf8');
    expect(csv.split('\r\n')[0]).toMatch(/^id,otherwise,when\./);

    await page.getByLabel('Import CSV').setInputFiles({ name: 'fareFactor.csv', mimeType: 'text/csv', buffer: Buffer.from(csv.replace('0.75', '0.7')) });
    await page.getByText(/^Imported \d+ rows from fareFactor\.csv/).waitFor();
    await page.getByText('check: no problems').waitFor();
    const student = page.getByLabel('Row student: outcome factor');
    expect(await student.inputValue()).toBe('0.7');
    await page.screenshot({ path: join(SHOTS, 'csv.png'), fullPage: true });

    const before = readFileSync(join(rulesDir, 'fare-factors.yaml'), 'utf8').split('\n');
    await page.getByRole('button', { name: /^Save to / }).click();
    await page.getByText(/^Saved .*fare-factors\.yaml/).waitFor();
    const after = readFileSync(join(rulesDir, 'fare-factors.yaml'), 'utf8').split('\n');
    expect(before.flatMap((line, i) => (line === after[i] ? [] : [[line, after[i]]]))).toEqual([['    then: { factor: 0.75 }', '    then: { factor: 0.7 }']]);
  }, 30_000);
});
