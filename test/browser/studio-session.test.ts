import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../engine/index.ts';
import { virtualClock } from '../../adapters/service/clock.ts';
import { buildServer } from '../../adapters/http/server.ts';
import { memoryStore } from '../../adapters/store/memory.ts';
import { studioExtension } from '../../adapters/studio/routes.ts';
import { missingOracle } from '../helpers/oracle.ts';

/**
 * The analyst's session in the studio, in a real headless Chromium (Debian's `chromium`, driven by playwright-core):
 * the views that need a token follow signing in and out without a reload, and a scenario run lists its failures
 * first. On a copy of rules/ with one text changed, so that one scenario fails. Screenshots go to reports/studio/.
 */
const CHROMIUM = process.env['CHROMIUM'] ?? '/usr/bin/chromium';
let missing = existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM)`;
const browser: Browser | undefined = missing
  ? undefined
  : await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }).catch((e: Error) => {
      missing = `${CHROMIUM} does not start: ${e.message.split('\n')[0]}`;
      return undefined;
    });
missingOracle('test/browser/studio-session.test.ts', missing);

const SHOTS = 'reports/studio';
/** Run in this (file name) order: the first passes, the second pins the pensioner's description, which the copy changes. */
const SCENARIOS = ['scenarios/offers/cards-and-travel-passes.yaml', 'scenarios/offers/passenger-types.yaml'];
const ASKS_FOR_TOKEN = 'Running scenarios needs an analyst\u2019s token: sign in above.';

let rulesDir: string;
let page: Page;
let app: FastifyInstance;
let base: string;

const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });

describe.skipIf(missing !== undefined)('the studio in Chromium: signing in and out, failures first', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    rulesDir = mkdtempSync(join(tmpdir(), 'studio-session-rules-'));
    cpSync('rules', rulesDir, { recursive: true });
    const file = join(rulesDir, 'passenger-types.yaml');
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('description: { en-GB: Pensioner, sv-SE: Pensionär }');
    writeFileSync(
      file,
      text.replace('description: { en-GB: Pensioner, sv-SE: Pensionär }', 'description: { en-GB: Early pensioner, sv-SE: Förtidspensionär }'),
    );
    app = await buildServer({
      engine: createEngine({ rulesDir }),
      store: memoryStore(),
      sandbox: true,
      jwtSecret: 'browser-test',
      clock: virtualClock(new Date('2026-11-20T10:00:00+01:00')),
      extensions: [studioExtension({ sandbox: true, rulesDir, scenarios: SCENARIOS })],
    });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    page = await browser!.newPage({ viewport: { width: 1280, height: 860 } });
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    if (rulesDir) rmSync(rulesDir, { recursive: true, force: true });
  });

  it('the Scenarios view stops asking for a token once the analyst signs in, and asks again after signing out', async () => {
    await page.goto(`${base}/studio#/scenarios`);
    await page.getByText(ASKS_FOR_TOKEN).waitFor();
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(false);

    await page.getByLabel('Secret').fill('demo-analyst-secret');
    await page.getByRole('button', { name: 'Sign in as analyst' }).click();
    await page.getByText('signed in as analyst').waitFor();
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
