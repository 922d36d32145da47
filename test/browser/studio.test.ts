import { resellerTokenOf } from '../helpers/server.ts';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../adapters/http/journal-file.ts';
import { chromiumFor, closeAll, copiedRules, shooter, signIn, studioServer } from '../helpers/studio-browser.ts';

/**
 * The studio in a real headless Chromium (Debian's `chromium`, driven by playwright-core): an analyst's path
 * through the page, on a copy of rules/ (never the repository's files). Each view is photographed under
 * reports/studio/. The browser, the studio server, the screenshots and signing in come from
 * test/helpers/studio-browser.ts. Without Chromium the tests are skipped, and say why.
 */
// One browser for the whole file; a Chromium that is there but cannot start skips the tests too, saying why.
const { browser, missing } = await chromiumFor('test/browser/studio.test.ts');

/** Two scenario files: the student's price is pinned in the first, so a fare edit shows in the impact preview. */
const SCENARIOS = ['scenarios/offers/cards-and-travel-passes.yaml', 'scenarios/offers/passenger-types.yaml'];

let rulesDir: string;
let page: Page;
const servers: FastifyInstance[] = [];

async function serve(options: { sandbox: boolean; scenarios?: string[] }): Promise<string> {
  const app = await studioServer({ rulesDir, scenarios: options.scenarios ?? SCENARIOS, sandbox: options.sandbox });
  servers.push(app);
  return app.listen({ port: 0, host: '127.0.0.1' });
}

const shot = shooter(() => page);

/** The price of the first offer's admission, as the offers view shows it. */
async function studentPrice(base: string): Promise<string> {
  await page.goto(`${base}/studio#/offers`);
  await page.getByLabel('Trip').selectOption('sto-gbg-0800');
  await page.getByRole('button', { name: 'Ask for offers' }).click();
  await page.locator('#offers-result .admission-price').first().waitFor();
  return (await page.locator('#offers-result .admission-price').first().textContent())!;
}

describe.skipIf(missing !== undefined)('the studio in Chromium', () => {
  let base: string;

  beforeAll(async () => {
    rulesDir = copiedRules('studio-rules-');
    page = await browser!.newPage({ viewport: { width: 1280, height: 860 } });
    base = await serve({ sandbox: true });
  }, 30_000);

  afterAll(() => closeAll(browser, servers, rulesDir));

  it('browses a decision table (rows, conditions, outcomes in both languages, hit policy, spec, file:line), the error catalogue and the reference data', async () => {
    await page.goto(`${base}/studio`);
    await page.getByRole('link', { name: 'passengerType' }).click();
    const student = page.locator('tr[data-row="student"]');
    await expect.poll(() => student.textContent()).toContain('SWE_STUDENT');
    expect(await student.textContent()).toContain('{ between: [16, 64] }');
    expect(await student.locator('[lang="sv-SE"]').textContent()).toContain('Studerande');
    expect(await student.locator('[lang="en-GB"]').textContent()).toContain('Student');
    expect(await page.locator('.meta').textContent()).toMatch(/hit policy unique · spec §2\.9 · .*passenger-types\.yaml:\d+:\d+/);
    await shot('browse-table');
    await page.getByRole('link', { name: 'Error catalogue' }).click();
    const row = page.locator('#error-86005');
    expect(await row.locator('[lang="sv-SE"]').textContent()).toContain('Könsplacering krävs');
    expect(await row.textContent()).toContain('nightGender');
    await shot('browse-errors');
    await page.getByRole('link', { name: 'Reference data' }).click();
    await page.getByRole('heading', { name: 'Reduction cards' }).waitFor();
    expect(await page.locator('main').textContent()).toContain('SWE_STUDENT');
    await shot('browse-reference');
  }, 20_000);

  it('explains a case from the form and highlights the row that decides; simulates the boundary cases', async () => {
    await page.goto(`${base}/studio#/tables/passengerType`);
    // From the keyboard: the form's fields are labelled, and Enter explains.
    await page.getByLabel(/^typingCard/).selectOption('SWE_STUDENT');
    await page.getByLabel(/^age/).fill('17');
    await page.getByLabel(/^age/).press('Enter');
    await page.locator('.deciding-row').waitFor();
    expect(await page.locator('tr.fired').getAttribute('data-row')).toBe('student');
    expect(await page.locator('tr[data-row="youth-16-19"] td.why').textContent()).toBe('typingCard is SWE_STUDENT, needs equal NONE');
    await shot('try-explain');
    await page.getByLabel(/add the boundary cases/).check();
    await page.getByRole('button', { name: 'Simulate' }).click();
    const cases = page.locator('#simulate-result tbody tr');
    await cases.first().waitFor();
    expect(await cases.count()).toBeGreaterThan(10);
    expect(await page.locator('#simulate-result').textContent()).toContain('student');
    await shot('try-simulate');
  }, 20_000);

  it('finds why a 17-year-old student pays what she pays: the offers and prices beside the trace, whose row opens highlighted', async () => {
    const price = await studentPrice(base);
    expect(price).toMatch(/^\d+\.\d\d SEK/);
    const fare = page.locator('.trace li[data-decision="fareFactor"]').first();
    expect(await fare.textContent()).toContain('student');
    expect(await page.locator('.trace li[data-decision="passengerType"]').first().textContent()).toContain('age=17 typingCard=SWE_STUDENT');
    await shot('try-offers');
    await fare.getByRole('link', { name: 'student' }).click();
    await page.locator('.deciding-row').waitFor();
    expect(await page.locator('tr.fired').getAttribute('data-row')).toBe('student');
    expect(await page.locator('tr.fired td.then').textContent()).toBe('0.75');
    expect(await page.locator('tr[data-row="senior"] td.why').textContent()).toBe('internalType is STUDENT, needs equal SENIOR');
    await shot('try-trace-row');
  }, 20_000);

  it('runs the mutants of a table: the score, the survivors and the rows they are on', async () => {
    await page.goto(`${base}/studio#/tables/fareFactor`);
    await signIn(page);
    await page.getByRole('button', { name: 'Run the mutants' }).click();
    const status = page.locator('#mutants-result [role=status]');
    await status.waitFor({ timeout: 60_000 });
    expect(await status.textContent()).toMatch(/^Score \d+ %: \d+ of \d+ mutants killed/);
    const survivor = page.locator('#mutants-result tr.survivor').first();
    await survivor.waitFor();
    const row = (await survivor.getAttribute('data-row'))!;
    expect(await page.locator(`tr[data-row="${row}"] .survivors`).first().textContent()).toMatch(/\d+ survive/);
    // The scenario that would kill a survivor: found, checked, shown as the file it would be.
    await page.locator('#mutants-result tr.survivor', { hasText: 'factor 0.7 → 0.8' }).getByRole('button', { name: 'Suggest a scenario' }).click();
    await page.locator('#suggestion pre').waitFor({ timeout: 60_000 });
    expect(await page.locator('#suggestion pre').textContent()).toMatch(/youth-16-19: factor 0\.7 → 0\.8[\s\S]*post: \/v3\/offers/);
    await page.locator('#mutants-result').scrollIntoViewIfNeeded();
    await shot('mutants');
    await page.getByRole('button', { name: 'Sign out' }).click();
  }, 90_000);

  it('edits a bound with a typed range editor and shows the problem at the row it makes overlap', async () => {
    await page.goto(`${base}/studio#/tables/passengerType`);
    await page.getByRole('button', { name: 'Edit this table' }).click();
    // check needs an analyst: until one signs in, the page says so.
    await page.getByText(/check did not run \(401 UNAUTHORIZED\)/).waitFor();
    await signIn(page);
    // A closed vocabulary is a list, a range two bounds: no YAML typed in a cell.
    expect(await page.getByLabel('Row student: condition on typingCard: value').inputValue()).toBe('SWE_STUDENT');
    expect(await page.getByLabel('Row student: condition on age: operator').inputValue()).toBe('range');
    await page.getByLabel('Row student: condition on age: from', { exact: true }).fill('10');
    await page.locator('tr.problem .cell-problem').first().waitFor();
    expect(await page.locator('tr.problem .cell-problem').first().textContent()).toContain('rows "child-7-15" and "student" overlap');
    await shot('change-problem');
    await page.getByRole('button', { name: 'Discard the edit' }).click();
  }, 20_000);

  it('writes the overlaps an edit makes as counterexample scenarios, pinning what the serving rules answer, and adds one to the corpus', async () => {
    // Its own copy of the fixtures: the scenario is added beside them, under suggested/.
    const corpus = mkdtempSync(join(tmpdir(), 'studio-fixtures-'));
    cpSync('scenarios/fixtures', join(corpus, 'fixtures'), { recursive: true });
    const app = await studioServer({ rulesDir, scenarios: SCENARIOS, fixtures: join(corpus, 'fixtures') });
    servers.push(app);
    const at = await app.listen({ port: 0, host: '127.0.0.1' });
    await page.goto(`${at}/studio#/tables/passengerType`);
    await signIn(page);
    await page.getByRole('button', { name: 'Edit this table' }).click();
    await page.getByLabel('Row child-7-15: condition on age: to', { exact: true }).fill('16');
    await page.getByText('3 cases have no row or two rows.').waitFor();
    await page.getByRole('button', { name: 'Write counterexample scenarios' }).click();
    const youth = page.locator('#counterexamples .counterexample', { hasText: 'rows "child-7-15" and "youth-16-19" overlap' });
    await youth.locator('pre').waitFor({ timeout: 60_000 });
    // A 16-year-old alone: the serving rules make them a youth; the edit, read with the child row deciding, a child.
    expect(await youth.locator('pre').textContent()).toMatch(
      /\$passengers: \[16\]\}[\s\S]*appliedPassengerTypes: \[\{type: YOUTH, description: Youth 16–19 years\}\]/,
    );
    expect(await youth.textContent()).toContain('read with row "child-7-15" deciding');
    await youth.scrollIntoViewIfNeeded();
    await shot('counterexamples');
    await youth.getByRole('button', { name: 'Add it to scenarios/suggested/' }).click();
    await youth.getByRole('status').waitFor();
    const file = join(corpus, 'suggested', 'passengerType-overlap-child-7-15-youth-16-19.yaml');
    expect(readFileSync(file, 'utf8')).toContain('Written by `signalbox check --suggest`');
    await page.getByRole('button', { name: 'Discard the edit' }).click();
    rmSync(corpus, { recursive: true, force: true });
  }, 90_000);

  it('changes the student row, previews the scenario steps it breaks, is refused, saves with a reason, and the offers answer changes', async () => {
    const before = await studentPrice(base);
    await page.goto(`${base}/studio#/tables/fareFactor`);
    await page.getByRole('button', { name: 'Edit this table' }).click();
    await page.getByLabel('Row student: outcome factor').fill('0.6');
    await page.getByText('check: no problems').waitFor();
    await page.getByRole('button', { name: 'Preview the impact' }).click();
    const step = page.locator('#impact tr.failing-step').first();
    await step.waitFor({ timeout: 20_000 });
    expect(await step.textContent()).toContain('cards-and-travel-passes.yaml');
    expect(await page.locator('#impact').textContent()).toMatch(/fareFactor.*student/s);
    await shot('change-impact');
    // The pinned price now fails: the save is refused until the analyst says why it may go in anyway.
    await page.getByRole('button', { name: /^Save to / }).click();
    await expect.poll(() => page.locator('#save-result').textContent()).toContain('X_SCENARIOS_FAIL');
    await page.getByLabel('Why save although scenario steps fail').fill('The student discount is cut to 40 % from the December timetable.');
    await page.getByRole('button', { name: 'Save with this reason' }).click();
    await page.getByText(/^Saved .*fare-factors\.yaml/).waitFor();
    expect(await page.locator('#save-result').textContent()).toMatch(/ (1 scenario step fails|\d+ scenario steps fail) on them, as the reason says\.$/);
    expect(readFileSync(join(rulesDir, 'CHANGES.md'), 'utf8')).toContain('> The student discount is cut to 40 % from the December timetable.');
    const saved = readFileSync(join(rulesDir, 'fare-factors.yaml'), 'utf8');
    expect(saved).toContain('then: { factor: 0.6 }');
    expect(saved).toContain('# The first row that matches decides (hit policy first), so the special cases come first.');
    const after = await studentPrice(base);
    expect(after).not.toBe(before);
    expect(Number.parseFloat(after) / Number.parseFloat(before)).toBeCloseTo(0.6 / 0.75, 2);
  }, 30_000);

  it('runs the scenarios against the serving rules: the student\u2019s pinned price now fails, with its difference', async () => {
    await page.goto(`${base}/studio#/scenarios`);
    await page.getByRole('button', { name: 'Run against the serving rules' }).click();
    await page.locator('#run-result [role=status]').waitFor({ timeout: 20_000 });
    expect(await page.locator('#run-result [role=status]').textContent()).toBe('1 passed, 1 failed');
    expect(await page.locator('details.scenario.failed .diff').first().textContent()).toMatch(/expected 61800, got \d+/);
    // Every step that asked the engine carries its traces, the passing ones too.
    expect(await page.locator('#run-result summary', { hasText: 'Rule traces' }).count()).toBeGreaterThan(2);
    await shot('scenarios-run');
    await page.getByRole('link', { name: 'Coverage' }).click();
    await page.locator('table.matrix').waitFor();
    // Two offers scenarios never reach a refund; the safety-net row listed unreachable is not counted as a gap.
    const unexercised = await page.locator('code.unexercised').allTextContents();
    expect(unexercised).toContain('refundGuard#allow');
    expect(unexercised).not.toContain('familyDiscountRole#nobody');
    await shot('coverage');
  }, 30_000);

  it('draws the seat map of a booking with its places held, and journals the requests with their traces', async () => {
    const app = servers[0]!;
    const token = await resellerTokenOf(app);
    const headers = {
      authorization: `Bearer ${token}`,
      requestor: Buffer.from(JSON.stringify({ salesApplication: 'WEB_SE', salesUnitCode: 'WEB' })).toString('base64'),
      'content-type': 'application/json',
    };
    const tried = await fetch(`${base}/studio/api/offers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ trip: 'sto-gbg-0800', passengers: [{ age: 40 }] }),
    });
    const trips = ((await tried.json()) as { request: unknown }).request;
    const offers = (await app.inject({ method: 'POST', url: '/v3/offers', headers, payload: JSON.stringify(trips) })).json();
    const booked = (
      await app.inject({
        method: 'POST',
        url: '/v3/booking',
        headers,
        payload: JSON.stringify({
          externalRef: 'studio-seats',
          offers: [{ offerId: offers.offers[0].offerId, passengerRefs: ['p1'] }],
          passengerSpecifications: [{ externalRef: 'p1', type: 'PERSON', age: 40, detail: { firstName: 'Anna', lastName: 'Svensson' } }],
          purchaser: { detail: { firstName: 'Anna', lastName: 'Svensson', email: 'anna@example.se', phoneNumber: '+46701234567' } },
        }),
      })
    ).json();
    expect(booked.booking, JSON.stringify(booked)).toBeDefined();
    const bookingId = booked.booking.id as string;
    await page.goto(`${base}/studio#/seats?type=BOOKING&id=${bookingId}`);
    await page.locator('figure.coach img').first().waitFor();
    expect(await page.locator('#seats-result').textContent()).toMatch(/Places held by this booking: coach \w+ place \w+/);
    expect(await page.locator('figure.coach img').first().getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    await shot('seats');
    await page.getByRole('link', { name: 'Request journal' }).click();
    const entry = page.locator('details.entry', { hasText: 'POST /v3/booking' }).first();
    await entry.locator('summary').click();
    expect(await entry.locator('.trace').textContent()).toContain('nightGender → not-shared');
    await shot('journal');
    // The same requests as a file for signalbox replay, oldest first (docs/replay.md).
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download as a journal file' }).click()]);
    expect(download.suggestedFilename()).toBe('journal.jsonl');
    const { records, problems } = readJournal(readFileSync(await download.path(), 'utf8'), 'journal.jsonl');
    expect(problems).toEqual([]);
    expect(records.map((r) => `${r.method} ${r.url}`)).toEqual(expect.arrayContaining(['POST /v3/offers', 'POST /v3/booking']));
    expect(records.findIndex((r) => r.url === '/v3/offers')).toBeLessThan(records.findIndex((r) => r.url === '/v3/booking'));
  }, 20_000);

  it('refuses to save for a read-only visitor, with a Problem', async () => {
    const file = readFileSync(join(rulesDir, 'fare-factors.yaml'), 'utf8');
    // Not signed in, on the sandbox: 401.
    await page.evaluate('sessionStorage.clear()');
    await page.goto(`${base}/studio#/tables/fareFactor`);
    await page.reload();
    await page.getByRole('button', { name: 'Edit this table' }).click();
    await page.getByRole('button', { name: /^Save to / }).click();
    await expect.poll(() => page.locator('#save-result').textContent()).toContain('UNAUTHORIZED');
    // Signed in as analyst, on a server without --sandbox or --edit: the page says so and saving is refused.
    const readOnly = await serve({ sandbox: false });
    await page.goto(`${readOnly}/studio#/tables/fareFactor`);
    await signIn(page);
    expect(await page.locator('#mode').textContent()).toContain('read-only rules');
    await page.getByRole('button', { name: 'Edit this table' }).click();
    await page.getByLabel('Row student: outcome factor').fill('0.5');
    await page.getByRole('button', { name: /^Save to / }).click();
    await expect.poll(() => page.locator('#save-result').textContent()).toContain('X_STUDIO_READ_ONLY');
    await shot('read-only-refused');
    expect(readFileSync(join(rulesDir, 'fare-factors.yaml'), 'utf8')).toBe(file);
  }, 20_000);

  it('changes "children up to 17" end to end without typing YAML: bounds, texts, the example, the failing scenario expectations; sees the new prices; saves; the offers change', async () => {
    // Its own copy of the corpus: updating an expectation writes the scenario file.
    const corpus = mkdtempSync(join(tmpdir(), 'studio-scenarios-'));
    cpSync('scenarios', corpus, { recursive: true });
    const at = await serve({ sandbox: true, scenarios: [corpus] });
    await page.goto(`${at}/studio#/tables/passengerType`);
    await signIn(page);
    const before = await studentPrice(at);
    await page.goto(`${at}/studio#/tables/passengerType`);
    await page.getByRole('button', { name: 'Edit this table' }).click();
    const bound = (row: string, which: 'from' | 'to') => page.getByLabel(`Row ${row}: condition on age: ${which}`, { exact: true });
    await bound('child-7-15', 'to').fill('17');
    await bound('youth-16-19', 'from').fill('18');
    await bound('student', 'from').fill('18');
    await bound('pensioner', 'from').fill('18');
    await page.getByLabel('Row child-7-15: outcome description (en-GB)').fill('Child 7–17 years');
    await page.getByLabel('Row child-7-15: outcome description (sv-SE)').fill('Barn 7–17 år');
    await page.locator('table.rules').scrollIntoViewIfNeeded();
    await shot('change-typed-editors');
    // The table's own example, a 17-year-old student, fails on the edit: take what the rules now decide.
    const example = page.locator('tr[data-example="2"]');
    await expect.poll(() => example.textContent()).toContain('fails');
    expect(await example.textContent()).toContain('CHILD_7_15');
    await example.scrollIntoViewIfNeeded();
    await shot('change-example-fails');
    await example.getByRole('button', { name: 'Expect this instead' }).click();
    await page.getByText('check: no problems').waitFor();
    expect(await example.textContent()).toContain('holds');

    await page.getByRole('button', { name: 'Preview the impact' }).click();
    await page.locator('#impact tr.price-change').first().waitFor({ timeout: 30_000 });
    const price = page
      .locator('#impact tr.price-change', { hasText: 'aged 16–17, no card' })
      .and(page.locator('[data-trip="sto-gbg-1200"]'))
      .filter({ hasText: 'JREF_2_N' });
    expect(await price.textContent()).toMatch(/384\.00 SEK.*275\.00 SEK.*−109\.00/);
    const failing = page.locator('#impact tr.failing-step', { hasText: 'body.passenger.type' });
    expect(await failing.textContent()).toMatch(/names-and-cards\.yaml:\d+.*PERSON.*CHILD/);
    expect(await page.locator('#impact').textContent()).toContain('Texts that change');
    await page.locator('#impact').scrollIntoViewIfNeeded();
    await shot('change-impact-children-17');
    // The step's link opens it in the Scenarios view, in another tab, so the edit stays.
    const [tab] = await Promise.all([page.waitForEvent('popup'), failing.getByRole('link').click()]);
    await tab.locator('li.target').waitFor({ timeout: 30_000 });
    expect(await tab.locator('li.target').textContent()).toContain('a changed age reprices the booking');
    await tab.close();
    // One expectation updated from its own button, then all the others at once; the preview runs again each time.
    await failing.getByRole('button', { name: 'Expect CHILD' }).click();
    await page.locator('#impact [role=status]').waitFor({ timeout: 30_000 });
    // That step passes now with the expectation it will have: it is no longer listed as failing.
    expect(await page.locator('#impact').textContent()).toContain('1 scenario expectation updated in this change');
    expect(await page.locator('#impact tr.failing-step', { hasText: 'body.passenger.type' }).count()).toBe(0);
    await page.locator('#expect-all').click();
    await page.locator('#impact [role=status]').waitFor({ timeout: 30_000 });
    expect(await page.locator('#impact [role=status]').textContent()).toContain('No scenario step fails.');
    await page.getByRole('button', { name: /^Save to / }).click();
    await expect
      .poll(() => page.locator('#save-result').textContent(), { timeout: 30_000 })
      .toMatch(/^Saved .*passenger-types\.yaml and the expectations of .*names-and-cards\.yaml/);
    await shot('change-saved-children-17');
    const rules = readFileSync(join(rulesDir, 'passenger-types.yaml'), 'utf8');
    expect(rules).toContain('    when: { age: { between: [7, 17] } }');
    expect(rules).toContain('description: { en-GB: "Child 7–17 years", sv-SE: "Barn 7–17 år" }');
    expect(rules).toContain('  - given: { age: 17, typingCard: SWE_STUDENT }\n    expect: { internalType: CHILD_7_15, responseType: CHILD }');
    expect(readFileSync(join(corpus, 'booking/names-and-cards.yaml'), 'utf8')).toContain(
      'expect: { status: 200, body: { passenger: { age: 16, type: CHILD } } }',
    );
    // The 17-year-old student of the offers view is a child now.
    const after = await studentPrice(at);
    expect(after).not.toBe(before);
    rmSync(corpus, { recursive: true, force: true });
  }, 120_000);
});
