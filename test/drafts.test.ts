import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../engine/index.ts';
import { virtualClock } from '../adapters/service/clock.ts';
import { buildServer } from '../adapters/http/server.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { studioExtension } from '../adapters/studio/routes.ts';
import { tableOf } from '../adapters/studio/tables.ts';
import { demoTokenOf, passengers, trip } from './helpers/server.ts';

/**
 * Four eyes on a rule release (docs/releases.md), through the studio's API: analyst A drafts a fare change from an
 * edit of a table and cannot approve it; analyst B reads its evidence (the diff, the scenario impact, the journal
 * replayed with the changed prices) and approves it; it is then a release, in force from its instant.
 */

let rulesDir: string;
let app: FastifyInstance;
const clock = virtualClock(new Date('2026-12-12T12:00:00+01:00'));
const as = async (client: 'demo-reseller' | 'demo-analyst' | 'demo-reviewer') => ({ authorization: `Bearer ${await demoTokenOf(app, client)}` });
const requestor = { requestor: Buffer.from(JSON.stringify({ salesApplication: 'WEB_SE', salesUnitCode: 'TEST' })).toString('base64') };

/** The youth (16–19) row of the fare factors set to `factor`, every other as the file has it: the table as the page sends it. */
function youthFactor(factor: number) {
  const table = tableOf(app.engine.rules, 'fareFactor', readFileSync(join(rulesDir, 'fare-factors.yaml'), 'utf8'));
  return table.rows.map((r) => ({
    was: r.id,
    id: r.id,
    otherwise: r.otherwise,
    when: Object.fromEntries(Object.entries(r.when).map(([k, c]) => [k, c.text])),
    then: r.id === 'youth-16-19' ? { factor: String(factor) } : Object.fromEntries(Object.entries(r.then).map(([k, c]) => [k, c.text])),
  }));
}

async function youthOffer() {
  const res = await app.inject({
    method: 'POST',
    url: '/v3/offers',
    headers: { ...(await as('demo-reseller')), ...requestor },
    payload: { tripSpecifications: [trip('ST', '2026-12-14T08:00:00+01:00', '2026-12-14T11:00:00+01:00')], anonymousPassengerSpecifications: passengers(17) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { price: res.json().offers[0].offerSummary.minimalPrice.amount as number, release: res.headers['rules-release'] };
}

const draft = async (name: string, client: 'demo-analyst' | 'demo-reviewer' = 'demo-analyst', effectiveFrom = '2026-12-13T00:00+01:00') =>
  app.inject({
    method: 'POST',
    url: '/studio/api/decisions/fareFactor/drafts',
    headers: await as(client),
    payload: { rows: youthFactor(0.75), name, effectiveFrom, reason: 'Youth fares up at the timetable change' },
  });
const decide = async (name: string, step: string, client: 'demo-analyst' | 'demo-reviewer' | 'demo-reseller', comment?: string) =>
  app.inject({ method: 'POST', url: `/studio/api/drafts/${name}/${step}`, headers: await as(client), payload: comment ? { comment } : {} });

beforeAll(async () => {
  rulesDir = mkdtempSync(join(tmpdir(), 'drafts-'));
  cpSync('rules', rulesDir, { recursive: true });
  app = await buildServer({
    engine: createEngine({ rulesDir }),
    store: memoryStore(),
    sandbox: true,
    jwtSecret: 'drafts-test',
    clock,
    extensions: [studioExtension({ sandbox: true, rulesDir, scenarios: ['scenarios/offers/passenger-types.yaml'] })],
  });
});
afterAll(async () => {
  await app.close();
  rmSync(rulesDir, { recursive: true, force: true });
});

describe('a draft of a rule release, reviewed by a second analyst', () => {
  let before: number;
  /** The price the replay says the draft answers. */
  let after: number;

  it('is drafted with its evidence: the diff, the scenario impact and the journal replayed with its changed prices', async () => {
    before = (await youthOffer()).price;
    const res = await draft('youth-fares-2027');
    expect(res.statusCode, res.body).toBe(201);
    const d = res.json();
    expect(d).toMatchObject({ name: 'youth-fares-2027', state: 'IN_REVIEW', author: 'demo-analyst', effectiveFrom: '2026-12-13T00:00+01:00' });
    expect(d.evidence.against).toBe('rules/');
    expect(d.evidence.diff).toEqual([expect.objectContaining({ file: 'fare-factors.yaml', change: 'changed' })]);
    expect(d.evidence.diff[0].patch).toContain('+    then: { factor: 0.75 }');
    expect(d.evidence.impact.decisions).toMatchObject([{ decision: 'fareFactor', from: { outcome: { factor: 0.7 } }, to: { outcome: { factor: 0.75 } } }]);
    // The offers request above, replayed: its price is up on the draft.
    const change = d.evidence.replay.changes.price.examples[0];
    expect(change).toMatchObject({ method: 'POST', url: '/v3/offers', client: 'demo-reseller' });
    expect(change.prices[0].a.amount).toBe(before);
    after = change.prices[0].b.amount;
    expect(after).toBeGreaterThan(before);
    // Nothing changed for callers, nor in the rules folder.
    expect(await youthOffer()).toEqual({ price: before, release: undefined });
    expect(readFileSync(join(rulesDir, 'fare-factors.yaml'), 'utf8')).toBe(readFileSync('rules/fare-factors.yaml', 'utf8'));
  }, 60_000);

  it('is not approved by its author, nor by a client without the approver scope', async () => {
    const own = await decide('youth-fares-2027', 'approve', 'demo-analyst');
    expect(own.statusCode).toBe(403);
    expect(own.json()).toMatchObject({ code: 'X_DRAFT_OWN' });
    expect((await decide('youth-fares-2027', 'approve', 'demo-reseller')).statusCode).toBe(403);
    const notYours = await decide('youth-fares-2027', 'withdraw', 'demo-reviewer');
    expect(notYours.json()).toMatchObject({ code: 'FORBIDDEN', detail: expect.stringContaining('demo-analyst') });
  });

  it('approved by a second analyst, it is a release in force from its instant, and decided once', async () => {
    const res = await decide('youth-fares-2027', 'approve', 'demo-reviewer', 'Checked against the fare notice');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().history.map((h: { action: string; by: string }) => `${h.action} ${h.by}`)).toEqual(['PROPOSED demo-analyst', 'APPROVED demo-reviewer']);
    const releases = await app.inject({ method: 'GET', url: '/studio/api/releases', headers: await as('demo-reviewer') });
    expect(releases.json()).toMatchObject({
      inForce: null,
      releases: [{ name: 'youth-fares-2027', createdBy: 'demo-analyst', approvedBy: 'demo-reviewer', draft: 'youth-fares-2027' }],
    });
    expect(await youthOffer()).toEqual({ price: before, release: undefined });
    clock.set!(new Date('2026-12-13T00:00+01:00'));
    expect(await youthOffer()).toEqual({ price: after, release: 'youth-fares-2027' });
    // The journal keeps which release answered, and its file says so to a replay.
    const exported = await app.inject({ method: 'GET', url: '/studio/api/journal/export', headers: await as('demo-analyst') });
    const offers = exported.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((r) => r.url === '/v3/offers');
    expect(offers.map((r) => r.response.release ?? null)).toEqual([null, null, null, 'youth-fares-2027']);
    const again = await decide('youth-fares-2027', 'reject', 'demo-reviewer', 'too late');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'X_DRAFT_DECIDED' });
  });

  it('refuses a name a release or draft has, and lists the drafts the latest first', async () => {
    const taken = await draft('youth-fares-2027', 'demo-reviewer');
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'X_RELEASE_NAME_TAKEN' });
    expect((await draft('youth-fares-2027b', 'demo-reviewer')).statusCode).toBe(201);
    expect((await decide('youth-fares-2027b', 'withdraw', 'demo-reviewer')).json()).toMatchObject({ state: 'WITHDRAWN' });
    const list = await app.inject({ method: 'GET', url: '/studio/api/drafts', headers: await as('demo-analyst') });
    expect(list.json().drafts.map((d: { name: string; state: string }) => `${d.name} ${d.state}`)).toEqual([
      'youth-fares-2027b WITHDRAWN',
      'youth-fares-2027 APPROVED',
    ]);
  }, 60_000);

  it('takes the approver scope on the token, a reason to reject, and goes back to review when its name was taken meanwhile', async () => {
    // Its evidence compares it with the rules it would follow: those in force at its instant, not now.
    expect(await youthOffer()).toMatchObject({ release: 'youth-fares-2027' });
    expect((await draft('youth-fares-2027c')).json().evidence.against).toBe('youth-fares-2027');
    // A passenger given by her birth date, which an analyst reads masked: the evidence replays her as she was sent.
    const born = await app.inject({
      method: 'POST',
      url: '/v3/offers',
      headers: { ...(await as('demo-reseller')), ...requestor },
      payload: {
        tripSpecifications: [trip('ST', '2026-12-14T08:00:00+01:00', '2026-12-14T11:00:00+01:00')],
        anonymousPassengerSpecifications: [{ externalRef: 'p1', type: 'PERSON', dateOfBirth: '2009-06-01' }],
      },
    });
    expect(born.statusCode, born.body).toBe(200);
    const backdated = (await draft('backdated', 'demo-analyst', '2026-12-12T00:00+01:00')).json().evidence;
    expect(backdated.against).toBe('rules/');
    // Every offers request of the journal answered as recorded and priced up, hers included (masked, she would be refused on both sides).
    const { journal, asRecorded, changes } = backdated.replay;
    expect(asRecorded).toEqual({ a: journal.replayed, b: journal.replayed });
    expect(changes.price.count).toBe(journal.replayed);
    const token = await app.inject({
      method: 'POST',
      url: '/oauth2/token',
      payload: 'grant_type=client_credentials&client_id=demo-reviewer&client_secret=demo-reviewer-secret&scope=analyst',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const analystOnly = await app.inject({
      method: 'POST',
      url: '/studio/api/drafts/youth-fares-2027c/approve',
      headers: { authorization: `Bearer ${token.json().access_token}` },
      payload: {},
    });
    expect(analystOnly.statusCode).toBe(403);
    expect(analystOnly.json()).toMatchObject({ code: 'FORBIDDEN', detail: expect.stringContaining('approver') });
    const noReason = await decide('youth-fares-2027c', 'reject', 'demo-reviewer');
    expect(noReason.statusCode).toBe(400);
    expect(noReason.body).toContain('/comment');
    // `signalbox release create` took the name after the draft was proposed.
    const files = Object.fromEntries(app.engine.rules.sources.map((s) => [s.file.split(/[/\\]/).pop()!, s.text]));
    await app.service.store.putRelease({
      name: 'youth-fares-2027c',
      effectiveFrom: '2027-01-01T00:00+01:00',
      createdOn: new Date().toISOString(),
      createdBy: 'ops',
      files,
    });
    const taken = await decide('youth-fares-2027c', 'approve', 'demo-reviewer');
    expect(taken.json()).toMatchObject({ code: 'X_RELEASE_NAME_TAKEN' });
    const back = await app.inject({ method: 'GET', url: '/studio/api/drafts/youth-fares-2027c', headers: await as('demo-reviewer') });
    expect(back.json()).toMatchObject({ state: 'IN_REVIEW' });
    expect(back.json().history.map((h: { action: string }) => h.action)).toEqual(['PROPOSED', 'APPROVED', 'RETURNED']);
  }, 60_000);
});
