import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplayReport } from '../adapters/http/openapi/replay-report.ts';
import { readJournal } from '../adapters/http/journal-file.ts';

/**
 * `signalbox replay` as an analyst uses it (docs/replay.md): a journal recorded from scenarios in-process
 * (`signalbox test --journal`), replayed on the working copy of rules/ and on an edited copy of it.
 */
const cli = (...args: string[]) => spawnSync(process.execPath, ['bin/signalbox.js', ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

/** The offers and booking scenarios: they price children aged 7 to 15, whose fare factor the known change moves. */
const SCENARIOS = ['scenarios/offers', 'scenarios/booking'];

let dir: string;
let journal: string;
/** rules/ with a comment added: nothing any answer depends on. */
let commented: string;
/** rules/ with the fare factor of the child-7-15 row raised from 0.5 to 0.6. */
let dearerChildren: string;
/** rules/ selling ten days ahead instead of 120: the scenarios' trains, eleven days ahead, are not yet for sale. */
let shortHorizon: string;

/** A copy of rules/ with one file's text changed; the change must take, or the test would prove nothing. */
function rulesWith(name: string, file: string, change: (text: string) => string): string {
  const copy = join(dir, name);
  cpSync('rules', copy, { recursive: true });
  const before = readFileSync(join(copy, file), 'utf8');
  const after = change(before);
  expect(after).not.toBe(before);
  writeFileSync(join(copy, file), after);
  return copy;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'signalbox-replay-'));
  journal = join(dir, 'journal.jsonl');
  const recorded = cli('test', ...SCENARIOS, '--journal', journal);
  expect(recorded.status, recorded.stdout + recorded.stderr).toBe(0);
  commented = rulesWith('commented', 'fare-factors.yaml', (text) => `# read again before the December timetable change\n${text}`);
  dearerChildren = rulesWith('dearer-children', 'fare-factors.yaml', (text) =>
    text.replace(/(- id: child-7-15\n\s+when: \{ internalType: CHILD_7_15 \}\n\s+then: \{ factor: )0\.5 \}/, '$10.6 }'),
  );
  shortHorizon = rulesWith('short-horizon', 'limits.yaml', (text) => text.replace(/^bookingHorizon: P120D/m, 'bookingHorizon: P10D'));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a journal recorded from the scenarios (signalbox test --journal)', () => {
  it('holds every request the scenarios sent, with its instant, client, headers and answer, and no credential', () => {
    const text = readFileSync(journal, 'utf8');
    const { records, problems } = readJournal(text, journal);
    expect(problems).toEqual([]);
    expect(records.length).toBeGreaterThan(200);
    const offers = records.find((r) => r.method === 'POST' && r.url === '/v3/offers')!;
    expect(offers).toMatchObject({
      at: '2026-11-20T09:00:00.000Z',
      client: 'demo-reseller',
      headers: { 'accept-language': 'en-GB' },
      response: { status: 200 },
    });
    expect(offers.headers.requestor).toBeDefined();
    expect(text.match(/demo-reseller-secret|"access_token":"ey|authorization|Bearer ey/i)).toBeNull();
  });
});

describe('signalbox replay', () => {
  it('reports no change for an edit that changes no answer, and exits 0', () => {
    const r = cli('replay', '--journal', journal, '--rules', 'rules', '--against', commented);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^replayed \d+ of \d+ requests of .*journal\.jsonl on rules \(A\) and .*commented \(B\)$/m);
    expect(r.stdout).toContain('no change: every replayed request got the same status, Problem code and prices from A and B');
  }, 60_000);

  it('reports exactly the prices a dearer child fare changes: the offers, bookings and booking reads of children aged 7 to 15', () => {
    const r = cli('replay', '--journal', journal, '--rules', 'rules', '--against', dearerChildren, '--json');
    expect(r.status, r.stderr).toBe(1);
    const report = ReplayReport.parse(JSON.parse(r.stdout));
    expect(report.changed).toBe(6);
    expect(report.changes.status.count).toBe(0);
    expect(report.changes.code.count).toBe(0);
    expect(report.changes.price.count).toBe(6);
    // A fare moves prices only: both sides answer as many requests with the recorded status.
    expect(report.asRecorded.b).toBe(report.asRecorded.a);
    const [first] = report.changes.price.examples;
    expect(first).toMatchObject({ method: 'POST', url: '/v3/offers', client: 'demo-reseller', a: { status: 200, code: null }, b: { status: 200, code: null } });
    // The child's part of a family's offer rises from 0.5 to 0.6 of the adult fare, and the offer's price with it.
    expect(first!.prices).toEqual([
      { at: 'offers[0].offerSummary.minimalPrice', a: { amount: 160600, scale: 2, currency: 'SEK' }, b: { amount: 171300, scale: 2, currency: 'SEK' } },
      { at: 'offers[0].admissionOfferParts[2].price', a: { amount: 53500, scale: 2, currency: 'SEK' }, b: { amount: 64200, scale: 2, currency: 'SEK' } },
    ]);
    // That offer is booked, and the booking read back: each side books its own offer and reads its own booking.
    const [, booked, read] = report.changes.price.examples;
    expect(booked).toMatchObject({ method: 'POST', prices: [{ at: 'booking.bookedOffers[0].admissions[2].price' }, { at: 'booking.provisionalPrice' }] });
    expect(read).toMatchObject({
      method: 'GET',
      url: expect.stringMatching(/^\/v3\/bookings\/[^/]+$/),
      prices: [{ b: { amount: 64200 } }, { b: { amount: 171300 } }],
    });
    // Dearer children: no price anywhere falls.
    for (const change of report.changes.price.examples) for (const p of change.prices) expect(p.b!.amount).toBeGreaterThan(p.a!.amount);
  }, 60_000);

  it('follows a refusal through: what B never offered, B cannot book, and each later request on that booking is not found there', () => {
    const r = cli('replay', '--journal', journal, '--rules', 'rules', '--against', shortHorizon, '--json', '--examples', '1000');
    expect(r.status, r.stderr).toBe(1);
    const report = ReplayReport.parse(JSON.parse(r.stdout));
    // B answers the offers requests with no offer: every price A gave is gone.
    const offers = report.changes.price.examples.filter((c) => c.url === '/v3/offers');
    expect(offers.length).toBeGreaterThan(0);
    for (const change of offers) expect(change.prices.every((p) => p.a !== null && p.b === null)).toBe(true);
    // A booking of an offer B never made finds nothing on B, however A answered it: never another offer of B's.
    const status = report.changes.status.examples;
    expect(status.length).toBe(report.changes.status.count);
    expect(status.some((c) => c.method === 'POST' && c.url === '/v3/booking' && c.a.status === 200)).toBe(true);
    expect(status.some((c) => c.method === 'GET' && /^\/v3\/bookings\/[^/]+$/.test(c.url))).toBe(true);
    expect(new Set(status.map((c) => `${c.b.status} ${c.b.code}`))).toEqual(new Set(['404 RESOURCE_NOT_FOUND']));
  }, 60_000);

  it('says the same in words: how many requests changed, and where the first prices moved', () => {
    const r = cli('replay', '--journal', journal, '--rules', 'rules', '--against', dearerChildren, '--examples', '1');
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toContain('6 requests answered with other prices:');
    expect(r.stdout).toMatch(/^ {2}#\d+ POST \/v3\/offers by demo-reseller at 2026-11-20T09:00:00\.000Z:$/m);
    expect(r.stdout).toContain('      offers[0].admissionOfferParts[2].price: 535.00 SEK → 642.00 SEK (+107.00)\n  … and 5 more');
    expect(r.stdout).toMatch(/6 requests changed: 0 in status, 0 in Problem code, 6 in price only\n$/);
  }, 60_000);

  it('exits 2 with its usage without a journal or rules, and names the line of a journal it cannot read', () => {
    const bare = cli('replay', '--journal', journal);
    expect(bare.status).toBe(2);
    expect(bare.stderr).toContain('usage: signalbox replay --journal FILE --rules A');

    const broken = join(dir, 'broken.jsonl');
    writeFileSync(broken, `${readFileSync(journal, 'utf8').split('\n')[0]}\n{"at":"yesterday","method":"GET","url":"/v3/bookings"}\n`);
    const unread = cli('replay', '--journal', broken, '--rules', 'rules');
    expect(unread.status).toBe(2);
    expect(unread.stderr).toMatch(/broken\.jsonl:2: at: an ISO 8601 date-time with offset/);

    const nowhere = cli('replay', '--journal', journal, '--rules', 'no-such-folder-or-revision');
    expect(nowhere.status).toBe(2);
    expect(nowhere.stderr).toContain('no-such-folder-or-revision: neither a folder nor a git revision');
  }, 60_000);
});
