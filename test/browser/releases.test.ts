import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportSkip, startPostgres, type PostgresServer } from '../helpers/postgres.ts';
import { resellerToken, serveProcess, type ServerProcess } from '../helpers/process.ts';
import { passengers, trip } from '../helpers/server.ts';
import { chromiumFor, copiedRules, shooter, signIn } from '../helpers/studio-browser.ts';

/**
 * Four eyes on a rule release, in the studio (docs/studio.md, "Releases"), on two `signalbox serve --sandbox`
 * processes sharing one PostgreSQL database: analyst A proposes the youth fare change from the table's edit on the
 * first and may not approve it herself; analyst B, on the second, reads its evidence (the diff, the scenario impact,
 * A's reseller's offers replayed with the changed price) and approves it. Without a restart, both processes then
 * answer the new price, naming the release, at the reseller's instants from the release's on, and the old one before.
 */
const { browser, missing } = await chromiumFor('test/browser/releases.test.ts');
const noPostgres = reportSkip('the studio\u2019s releases on two servers sharing PostgreSQL');

const RELEASE = 'youth-fares-2027';
const IN_FORCE_FROM = '2026-12-13T00:00+01:00';
/** The reseller's instants: before the release, and after it (the trip, the 14th, is ahead of both). */
const BEFORE = '2026-12-12T12:00:00+01:00';
const AFTER = '2026-12-13T06:00:00+01:00';
const YOUTH_TRIP = trip('ST', '2026-12-14T08:00:00+01:00', '2026-12-14T11:00:00+01:00');

let rulesDir: string;
let postgres: PostgresServer | undefined;
let servers: ServerProcess[] = [];
let token: string;
let pageA: Page;
let pageB: Page;
const shot = { a: shooter(() => pageA), b: shooter(() => pageB) };

/** The reseller's clock on one process, frozen at `now`. */
async function setClock(server: ServerProcess, now: string) {
  const res = await fetch(`${server.base}/sandbox/clock`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ now, freeze: true }),
  });
  expect(res.status, await res.text()).toBe(200);
}

/** The 17-year-old's cheapest offer on one process, and the release that priced it (the Rules-Release header). */
async function youthOffer(server: ServerProcess): Promise<{ price: number; release: string | null }> {
  const res = await fetch(`${server.base}/v3/offers`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      requestor: Buffer.from(JSON.stringify({ salesApplication: 'WEB_SE', salesUnitCode: 'TEST' })).toString('base64'),
    },
    body: JSON.stringify({ tripSpecifications: [YOUTH_TRIP], anonymousPassengerSpecifications: passengers(17) }),
  });
  const body = (await res.json()) as { offers: Array<{ offerSummary: { minimalPrice: { amount: number } } }> };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return { price: body.offers[0]!.offerSummary.minimalPrice.amount, release: res.headers.get('rules-release') };
}

const sek = (minor: number) => `${(minor / 100).toFixed(2)} SEK`;

describe.skipIf(missing !== undefined || noPostgres !== undefined)('a rule release through four eyes, in the studio, on two servers', () => {
  beforeAll(async () => {
    rulesDir = copiedRules('releases-rules-');
    // Each server reads the store's releases every second, so the one that did not approve follows within the test.
    const limits = join(rulesDir, 'limits.yaml');
    const text = readFileSync(limits, 'utf8');
    expect(text).toMatch(/^releasePollInterval: PT10S/m);
    writeFileSync(limits, text.replace(/^releasePollInterval: PT10S/m, 'releasePollInterval: PT1S'));
    postgres = await startPostgres();
    // One JWT secret, as behind a load balancer: the reseller's token is good on both.
    const env = { SIGNALBOX_JWT_SECRET: 'releases-test-secret' };
    const args = ['--sandbox', '--rules', rulesDir];
    const started = await Promise.allSettled([serveProcess(postgres.url(), env, args), serveProcess(postgres.url(), env, args)]);
    servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    token = await resellerToken(servers[0]!.base);
    pageA = await (await browser!.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    pageB = await (await browser!.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all(servers.map((s) => s.stop()));
    await postgres?.stop();
    if (rulesDir) rmSync(rulesDir, { recursive: true, force: true });
  }, 30_000);

  let before: number;
  let after: number;

  it('analyst A proposes the youth fare edit as a release, and may not approve it herself', async () => {
    const [one] = servers as [ServerProcess, ServerProcess];
    // The reseller's traffic the evidence replays: a 17-year-old's offers, before the release's instant.
    await setClock(one, BEFORE);
    before = (await youthOffer(one)).price;

    await pageA.goto(`${one.base}/studio#/tables/fareFactor`);
    await signIn(pageA);
    await pageA.getByRole('button', { name: 'Edit this table' }).click();
    await pageA.getByLabel('Row youth-16-19: outcome factor').fill('0.75');
    await pageA.getByLabel('Release name').fill(RELEASE);
    await pageA.getByLabel(/^In force from/).fill(IN_FORCE_FROM);
    await pageA.getByLabel(/^Reason/).fill('Youth fares up at the timetable change');
    await pageA.getByRole('button', { name: 'Propose as a release' }).click();

    // The draft's page, in review, with A's proposal in its history.
    await pageA.getByRole('heading', { name: `Draft ${RELEASE}` }).waitFor({ timeout: 60_000 });
    expect(pageA.url()).toMatch(new RegExp(`#/releases/drafts/${RELEASE}$`));
    expect(await pageA.locator('#draft-state').textContent()).toBe('IN_REVIEW');
    expect(await pageA.locator('#draft-history tbody tr').allTextContents()).toEqual([expect.stringMatching(/demo-analyst\s*PROPOSED\s*Youth fares up/)]);
    await shot.a('releases-draft');

    await pageA.getByRole('button', { name: 'Approve' }).click();
    const refusal = pageA.locator('#draft-decision-result .problem-box');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/403 X_DRAFT_OWN/);
    expect(await pageA.locator('#draft-state').textContent()).toBe('IN_REVIEW');
    await shot.a('releases-own-refused');
  }, 90_000);

  it('analyst B, on the other server, reads its evidence and approves it', async () => {
    const [, two] = servers as [ServerProcess, ServerProcess];
    await pageB.goto(`${two.base}/studio#/releases`);
    await signIn(pageB, 'demo-reviewer');
    const listed = pageB.locator(`#draft-${RELEASE}`);
    await listed.waitFor();
    expect(await listed.locator('td').allTextContents()).toEqual(['IN_REVIEW', 'demo-analyst', IN_FORCE_FROM, 'fareFactor', expect.any(String)]);
    await listed.getByRole('link', { name: RELEASE }).click();
    await pageB.getByRole('heading', { name: `Draft ${RELEASE}` }).waitFor();

    // The diff: the youth row's factor, added and removed lines marked.
    expect(await pageB.locator('#evidence-diff figcaption').allTextContents()).toEqual(['fare-factors.yaml changed']);
    expect(await pageB.locator('#evidence-diff pre ins').allTextContents()).toEqual([expect.stringContaining('factor: 0.75')]);
    expect(await pageB.locator('#evidence-diff pre del').allTextContents()).toEqual([expect.stringContaining('factor: 0.7 ')]);
    // The impact on the corpus: its summary, and the youth row's outcome changed.
    expect(await pageB.locator('#evidence-impact [role=status]').textContent()).toMatch(
      /^\d+ scenario steps? fails? on the draft\. .* [1-9]\d* offer prices? of the price probes and 1 decision outcome \(\d+ boundary cases?\) change\.$/,
    );
    expect(await pageB.locator('#evidence-impact table').last().textContent()).toMatch(/fareFactor\s*youth-16-19 .*0\.7.*youth-16-19 .*0\.75/);
    // The reseller's offers request, replayed: the youth price up.
    expect(await pageB.locator('#evidence-replay [role=status]').textContent()).toMatch(
      /^\d+ of \d+ journal requests replayed .*; [1-9]\d* answered otherwise/,
    );
    const priced = pageB.locator('#replay-price tbody tr', { hasText: 'POST /v3/offers' }).first();
    expect(await priced.locator('td').nth(1).textContent()).toBe('demo-reseller');
    const minimal = await priced.locator('.replay-price', { hasText: 'offers[0].offerSummary.minimalPrice' }).textContent();
    const [, was, now] = /: (\d+\.\d\d) SEK → (\d+\.\d\d) SEK$/.exec(minimal ?? '') ?? [];
    expect(`${was} SEK`).toBe(sek(before));
    after = Math.round(Number(now) * 100);
    expect(after).toBeGreaterThan(before);
    await pageB.locator('#evidence').scrollIntoViewIfNeeded();
    await shot.b('releases-evidence');
    await pageB.locator('#evidence-replay').scrollIntoViewIfNeeded();
    await shot.b('releases-replay');

    await pageB.getByLabel(/^Comment/).fill('Checked against the fare notice');
    await pageB.getByRole('button', { name: 'Approve' }).click();
    await pageB.locator('#draft-decided').waitFor();
    expect(await pageB.locator('#draft-state').textContent()).toBe('APPROVED');
    expect(await pageB.locator('#draft-history tbody tr').allTextContents()).toEqual([
      expect.stringMatching(/demo-analyst\s*PROPOSED/),
      expect.stringMatching(/demo-reviewer\s*APPROVED\s*Checked against the fare notice/),
    ]);
    // Gone from the buttons: a decided draft is not decided again.
    expect(await pageB.getByRole('button', { name: 'Approve' }).count()).toBe(0);

    await pageB.getByRole('link', { name: 'Releases', exact: true }).first().click();
    const release = pageB.locator(`#release-${RELEASE}`);
    await release.waitFor();
    expect(await release.locator('td').allTextContents()).toEqual([
      IN_FORCE_FROM,
      expect.stringMatching(/^(scheduled|in force now)$/),
      'demo-analyst',
      expect.any(String),
      'demo-reviewer',
      'Youth fares up at the timetable change',
    ]);
    await shot.b('releases-list');
  }, 60_000);

  it('both servers answer the new price from the release\u2019s instant on, naming it, and the old one before, without a restart', async () => {
    for (const server of servers) {
      await setClock(server, AFTER);
      // The server that approved reads the release at once; the other at its next poll of the store (every second).
      await expect.poll(() => youthOffer(server), { timeout: 10_000, interval: 250 }).toEqual({ price: after, release: RELEASE });
      await setClock(server, BEFORE);
      expect(await youthOffer(server)).toEqual({ price: before, release: null });
    }
  }, 30_000);
});
