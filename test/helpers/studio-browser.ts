import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createEngine } from '../../engine/index.ts';
import { virtualClock } from '../../adapters/service/clock.ts';
import { buildServer } from '../../adapters/http/server.ts';
import { memoryStore } from '../../adapters/store/memory.ts';
import { studioExtension } from '../../adapters/studio/routes.ts';
import { missingOracle } from './oracle.ts';

/**
 * What the studio's Chromium tests share: Debian's `chromium` driven by playwright-core (whose own browser download is
 * not used), a studio server on a copy of rules/, the screenshots under reports/studio/, signing in, and closing it all
 * after. Without Chromium the tests are skipped and say why; under CI=true that fails the run instead (oracle.ts).
 */
const CHROMIUM = process.env['CHROMIUM'] ?? '/usr/bin/chromium';

/** One browser for a test file, or why there is none. */
export async function chromiumFor(testFile: string): Promise<{ browser: Browser | undefined; missing: string | undefined }> {
  let missing = existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM)`;
  const browser = missing
    ? undefined
    : await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }).catch((e: Error) => {
        missing = `${CHROMIUM} does not start: ${e.message.split('\n')[0]}`;
        return undefined;
      });
  missingOracle(testFile, missing);
  return { browser, missing };
}

/** A copy of rules/ the test may save into; never the repository's files. */
export function copiedRules(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cpSync('rules', dir, { recursive: true });
  return dir;
}

/** A studio on the memory store, a sandbox unless asked otherwise, its clock at a fixed instant. */
export function studioServer(options: { rulesDir: string; scenarios: string[]; sandbox?: boolean; fixtures?: string }): Promise<FastifyInstance> {
  const sandbox = options.sandbox ?? true;
  return buildServer({
    engine: createEngine({ rulesDir: options.rulesDir }),
    store: memoryStore(),
    sandbox,
    jwtSecret: 'browser-test',
    ...(sandbox ? { clock: virtualClock(new Date('2026-11-20T10:00:00+01:00')) } : {}),
    extensions: [
      studioExtension({ sandbox, rulesDir: options.rulesDir, scenarios: options.scenarios, ...(options.fixtures ? { fixtures: options.fixtures } : {}) }),
    ],
  });
}

/** After a file's tests: closes its browser and its studio servers, and removes its copy of rules/ if it made one. */
export async function closeAll(browser: Browser | undefined, apps: (FastifyInstance | undefined)[], rulesDir?: string): Promise<void> {
  await browser?.close();
  for (const app of apps) await app?.close();
  if (rulesDir) rmSync(rulesDir, { recursive: true, force: true });
}

const SHOTS = 'reports/studio';

/** Photographs what the page shows to reports/studio/NAME.png. */
export function shooter(page: () => Page): (name: string) => Promise<Buffer> {
  mkdirSync(SHOTS, { recursive: true });
  return (name) => page().screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
}

/** Signs in with the form at the top right as one of the sandbox's demo analysts (rules/clients.yaml). */
export async function signIn(page: Page, client: 'demo-analyst' | 'demo-reviewer' = 'demo-analyst'): Promise<void> {
  await page.locator('#sign-in [name=client]').fill(client);
  await page.getByLabel('Secret').fill(`${client}-secret`);
  await page.getByRole('button', { name: 'Sign in as analyst' }).click();
  await page.getByText('signed in as analyst').waitFor();
}
