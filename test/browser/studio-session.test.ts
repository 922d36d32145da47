import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFor, closeAll, copiedRules, shooter, signIn, studioServer } from '../helpers/studio-browser.ts';

/**
 * The analyst's session in the studio, in a real headless Chromium (Debian's `chromium`, driven by playwright-core):
 * the views that need a token follow signing in and out without a reload, and a scenario run lists its failures
 * first. On a copy of rules/ with one text changed, so that one scenario fails. Screenshots go to reports/studio/.
 * The browser, the studio server, the screenshots and signing in come from test/helpers/studio-browser.ts.
 */
const { browser, missing } = await chromiumFor('test/browser/studio-session.test.ts');

/** Run in this (file name) order: the first passes, the second pins the pensioner's description, which the copy changes. */
const SCENARIOS = ['scenarios/offers/cards-and-travel-passes.yaml', 'scenarios/offers/passenger-types.yaml'];
const ASKS_FOR_TOKEN = 'Running scenarios needs an analyst\u2019s token: sign in above.';

let rulesDir: string;
let page: Page;
let app: FastifyInstance;
let base: string;

const shot = shooter(() => page);

describe.skipIf(missing !== undefined)('the studio in Chromium: signing in and out, failures first', () => {
  beforeAll(async () => {
    rulesDir = copiedRules('studio-session-rules-');
    const file = join(rulesDir, 'passenger-types.yaml');
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('description: { en-GB: Pensioner, sv-SE: Pensionär }');
    writeFileSync(
      file,
      text.replace('description: { en-GB: Pensioner, sv-SE: Pensionär }', 'description: { en-GB: Early pensioner, sv-SE: Förtidspensionär }'),
    );
    app = await studioServer({ rulesDir, scenarios: SCENARIOS });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    page = await browser!.newPage({ viewport: { width: 1280, height: 860 } });
  }, 30_000);

  afterAll(() => closeAll(browser, [app], rulesDir));

  it('the Scenarios view stops asking for a token once the analyst signs in, and asks again after signing out', async () => {
    await page.goto(`${base}/studio#/scenarios`);
    await page.getByText(ASKS_FOR_TOKEN).waitFor();
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(false);

    await signIn(page);
    // The same view, not reloaded: the note is gone.
    await page.getByText(ASKS_FOR_TOKEN).waitFor({ state: 'detached' });
    expect(page.url()).toMatch(/#\/scenarios$/);
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
    await shot('session-signed-in');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText(ASKS_FOR_TOKEN).waitFor();
    expect(await page.locator('#mode').textContent()).toContain('not signed in');
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(false);
    await shot('session-signed-out');
  }, 20_000);

  it('a run lists the failing scenario first, open, with its difference, then the passing one', async () => {
    await page.goto(`${base}/studio#/scenarios`);
    await page.getByLabel('Secret').fill('demo-analyst-secret');
    await page.getByRole('button', { name: 'Sign in as analyst' }).click();
    await page.getByText(ASKS_FOR_TOKEN).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Run against the serving rules' }).click();
    await page.locator('#run-result [role=status]').waitFor({ timeout: 20_000 });
    expect(await page.locator('#run-result [role=status]').textContent()).toBe('1 passed, 1 failed');
    const listed = page.locator('#run-result details.scenario');
    expect(await listed.evaluateAll((all) => all.map((d) => `${d.className} ${d.querySelector('summary code')?.textContent ?? ''}`))).toEqual([
      'scenario failed scenarios/offers/passenger-types.yaml',
      'scenario passed scenarios/offers/cards-and-travel-passes.yaml',
    ]);
    expect(await listed.first().getAttribute('open')).not.toBeNull();
    expect(await listed.first().locator('.diff').first().textContent()).toContain('description: expected Pensioner, got Early pensioner');
    await shot('session-failures-first');
  }, 30_000);
});
