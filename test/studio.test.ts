import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, loadRules } from '../engine/index.ts';
import { virtualClock } from '../adapters/service/clock.ts';
import { buildServer } from '../adapters/http/server.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { studioExtension } from '../adapters/studio/routes.ts';
import { editedText, tableOf } from '../adapters/studio/tables.ts';
import type { TableEdit } from '../adapters/http/openapi/studio-schemas.ts';
import { analystAuthorization } from './helpers/server.ts';

/** The studio's endpoints without a browser: editing YAML in place, who may save, the journal's bound. */
let rulesDir: string;
const apps: FastifyInstance[] = [];

async function studioServer(sandbox: boolean, edit = false) {
  const app = await buildServer({
    engine: createEngine({ rulesDir }),
    store: memoryStore(),
    sandbox,
    jwtSecret: 'studio-test',
    clock: virtualClock(new Date('2026-11-20T10:00:00+01:00')),
    extensions: [studioExtension({ sandbox, edit, rulesDir, scenarios: ['scenarios/offers/passenger-types.yaml'] })],
  });
  apps.push(app);
  return app;
}

const analystToken = analystAuthorization;

/** The table as the page sends it back, every cell as shown. */
function asEdit(app: FastifyInstance, decision: 'fareFactor' | 'passengerType'): TableEdit['rows'] {
  const file = `${decision === 'fareFactor' ? 'fare-factors' : 'passenger-types'}.yaml`;
  const table = tableOf(app.engine.rules, decision, readFileSync(join(rulesDir, file), 'utf8'));
  return table.rows.map((r) => ({
    was: r.id,
    id: r.id,
    otherwise: r.otherwise,
    when: Object.fromEntries(Object.entries(r.when).map(([k, c]) => [k, c.text])),
    then: Object.fromEntries(Object.entries(r.then).map(([k, c]) => [k, c.text])),
  }));
}

beforeAll(() => {
  rulesDir = mkdtempSync(join(tmpdir(), 'studio-api-'));
  cpSync('rules', rulesDir, { recursive: true });
});
afterAll(async () => {
  for (const app of apps) await app.close();
  rmSync(rulesDir, { recursive: true, force: true });
});

describe('editing a table in its YAML', () => {
  const file = 'rules/passenger-types.yaml';
  const text = readFileSync(file, 'utf8');
  const rows = () => {
    const table = tableOf(loadRules(), 'passengerType', text);
    return table.rows.map((r) => ({
      was: r.id,
      id: r.id,
      otherwise: r.otherwise,
      when: Object.fromEntries(Object.entries(r.when).map(([k, c]) => [k, c.text])),
      then: Object.fromEntries(Object.entries(r.then).map(([k, c]) => [k, c.text])),
    }));
  };

  it('changes only the line of the cell edited: comments, spacing and every other line stay byte for byte', () => {
    const edit = rows();
    edit.find((r) => r.id === 'student')!.when['age'] = '{ between: [18, 64] }';
    const out = editedText(file, text, { rows: edit }).text;
    const before = text.split('\n');
    const after = out.split('\n');
    expect(after.length).toBe(before.length);
    const changed = before.flatMap((line, i) => (line === after[i] ? [] : [[line, after[i]]]));
    expect(changed).toEqual([
      ['    when: { age: { between: [16, 64] }, typingCard: SWE_STUDENT }', '    when: { age: { between: [18, 64] }, typingCard: SWE_STUDENT }'],
    ]);
  });

  it('reorders, removes and adds rows, keeping the comments of the rows it moves', () => {
    const edit: TableEdit['rows'] = rows()
      .filter((r) => r.id !== 'pensioner')
      .reverse();
    edit.push({
      id: 'new-row',
      otherwise: false,
      when: { age: '{ between: [200, 300] }' },
      then: { internalType: 'ADULT', description: '{ en-GB: Nobody, sv-SE: Ingen }' },
    });
    const out = editedText(file, text, { rows: edit }).text;
    expect([...out.matchAll(/- id: ([\w-]+)/g)].map((m) => m[1])).toEqual([
      ...rows()
        .filter((r) => r.id !== 'pensioner')
        .map((r) => r.id)
        .reverse(),
      'new-row',
    ]);
    expect(out).toContain('# The operator derives its internal passenger type');
    expect(out).toContain(
      '  - id: new-row\n    when: { age: { between: [200, 300] } }\n    then:\n      internalType: ADULT\n      description: { en-GB: Nobody, sv-SE: Ingen }\n',
    );
  });
});

describe('the studio API', () => {
  it('refuses to save on a server that does not change its rules, whoever asks', async () => {
    const app = await studioServer(false);
    const before = readFileSync(join(rulesDir, 'fare-factors.yaml'), 'utf8');
    const rows = asEdit(app, 'fareFactor');
    rows.find((r) => r.id === 'student')!.then['factor'] = '0.6';
    const res = await app.inject({
      method: 'PUT',
      url: '/studio/api/decisions/fareFactor',
      headers: { authorization: await analystToken(app), 'accept-language': 'sv-SE' },
      payload: { rows },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'X_STUDIO_READ_ONLY', title: 'Reglerna är skrivskyddade här' });
    expect(readFileSync(join(rulesDir, 'fare-factors.yaml'), 'utf8')).toBe(before);
    // A reseller's token is no analyst's, even where saving is allowed.
    const editable = await studioServer(false, true);
    const reseller = (
      await editable.inject({
        method: 'POST',
        url: '/oauth2/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'grant_type=client_credentials&client_id=demo-reseller&client_secret=demo-reseller-secret',
      })
    ).json().access_token;
    const refused = await editable.inject({
      method: 'PUT',
      url: '/studio/api/decisions/fareFactor',
      headers: { authorization: `Bearer ${reseller}` },
      payload: { rows },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('FORBIDDEN');
  });

  it('refuses to save rules check finds problems in, naming them, and writes nothing', async () => {
    const app = await studioServer(false, true);
    const before = readFileSync(join(rulesDir, 'passenger-types.yaml'), 'utf8');
    const rows = asEdit(app, 'passengerType');
    rows.find((r) => r.id === 'student')!.when['age'] = '{ between: [18, 64] }';
    expect((await app.inject({ method: 'POST', url: '/studio/api/decisions/passengerType/check', payload: { rows } })).statusCode).toBe(401);
    const checked = (
      await app.inject({
        method: 'POST',
        url: '/studio/api/decisions/passengerType/check',
        headers: { authorization: await analystToken(app) },
        payload: { rows },
      })
    ).json();
    expect(checked.problems.map((p: { message: string }) => p.message)).toContain(
      'no row matches {"age":16,"typingCard":"SWE_STUDENT"}; add a row or an `otherwise` row',
    );
    const res = await app.inject({
      method: 'PUT',
      url: '/studio/api/decisions/passengerType',
      headers: { authorization: await analystToken(app) },
      payload: { rows },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('X_RULES_REFUSED');
    expect(res.json().detail).toBe(
      `The edited rules were not saved: check finds ${checked.problems.length} problems in them; the studio shows each at its cell.`,
    );
    // A problem in a cell is pointed at, as the page places it.
    rows.find((r) => r.id === 'student')!.when['age'] = '{ between: [16, x] }';
    const atCell = await app.inject({
      method: 'PUT',
      url: '/studio/api/decisions/passengerType',
      headers: { authorization: await analystToken(app) },
      payload: { rows },
    });
    expect(atCell.json().pointers).toEqual([{ requestPointer: '#/rows/6/when/age' }]);
    expect(readFileSync(join(rulesDir, 'passenger-types.yaml'), 'utf8')).toBe(before);
  });

  it('saves with --edit and serves the new rules at once', async () => {
    const app = await studioServer(false, true);
    const explain = async () =>
      (
        await app.inject({
          method: 'POST',
          url: '/studio/api/decisions/fareFactor/explain',
          payload: { facts: { internalType: 'STUDENT', age: 17, trafficDisturbanceTicket: false, familyDiscount: false } },
        })
      ).json().explanation.outcome;
    expect(await explain()).toEqual({ factor: 0.75 });
    const rows = asEdit(app, 'fareFactor');
    rows.find((r) => r.id === 'student')!.then['factor'] = '0.7';
    const res = await app.inject({
      method: 'PUT',
      url: '/studio/api/decisions/fareFactor',
      headers: { authorization: await analystToken(app) },
      payload: { rows },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ saved: true });
    expect(await explain()).toEqual({ factor: 0.7 });
    expect(readFileSync(join(rulesDir, 'fare-factors.yaml'), 'utf8')).toContain(
      '  - id: student\n    when: { internalType: STUDENT }\n    then: { factor: 0.7 }\n',
    );
    // An edit started from the file as it was before that save is refused, not written over it.
    const stale = await app.inject({
      method: 'PUT',
      url: '/studio/api/decisions/fareFactor',
      headers: { authorization: await analystToken(app) },
      payload: { rows, version: 'before-the-save' },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      code: 'X_RULES_CHANGED',
      detail: 'fare-factors.yaml changed since the table was opened; open it again and redo the edit.',
    });
  });

  it('answers bad input with a Problem, never a 5xx', async () => {
    const app = await studioServer(true);
    for (const [method, url, payload] of [
      ['GET', '/studio/api/decisions/__proto__', undefined],
      ['POST', '/studio/api/decisions/nope/explain', { facts: {} }],
      ['POST', '/studio/api/decisions/passengerType/explain', { facts: 'x' }],
      ['POST', '/studio/api/decisions/passengerType/check', { rows: [{ id: 1 }] }],
      ['POST', '/studio/api/decisions/passengerType/simulate', { csv: 'age\n"unclosed' }],
      ['POST', '/studio/api/offers', { trip: 'nowhere', passengers: [{ age: 30 }] }],
      ['GET', '/studio/api/seats?contextType=BOOKING&contextId=NOPE', undefined],
      ['GET', '/studio/assets/..%2fpage.ts', undefined],
    ] as const) {
      const res = await app.inject({ method, url, ...(payload !== undefined ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${method} ${url}`).toBeLessThan(500);
      expect(res.headers['content-type'], `${method} ${url}`).toMatch(/^application\/problem\+json/);
    }
    // Facts that do not fit are an answer of their own, saying why.
    const res = await app.inject({ method: 'POST', url: '/studio/api/decisions/passengerType/explain', payload: { facts: { age: 'old' } } });
    expect(res.json().problems.join(' ')).toContain('age');
  });

  it('keeps the latest studioJournalSize requests on a sandbox, with their traces, and none elsewhere', async () => {
    writeFileSync(join(rulesDir, 'limits.yaml'), readFileSync(join(rulesDir, 'limits.yaml'), 'utf8').replace(/studioJournalSize: \d+/, 'studioJournalSize: 3'));
    const app = await studioServer(true);
    const analyst = { authorization: await analystToken(app) };
    for (let i = 0; i < 5; i++) await app.inject({ method: 'GET', url: `/errors/8600${i}`, headers: { accept: 'application/json' } });
    const journal = (await app.inject({ method: 'GET', url: '/studio/api/journal', headers: analyst })).json();
    expect(journal.size).toBe(3);
    expect(journal.entries.map((e: { url: string }) => e.url)).toEqual(['/errors/86004', '/errors/86003', '/errors/86002']);
    // A token request is journaled without its secret, and its answer without the token.
    await app.inject({
      method: 'POST',
      url: '/oauth2/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=client_credentials&client_id=demo-reseller&client_secret=demo-reseller-secret',
    });
    const token = (await app.inject({ method: 'GET', url: '/studio/api/journal', headers: analyst })).json().entries[0];
    expect(token.request.body).toMatchObject({ client_id: 'demo-reseller', client_secret: '…' });
    expect(token.response.body).toMatchObject({ token_type: 'Bearer', access_token: '…' });
    expect(JSON.stringify(token)).not.toContain('demo-reseller-secret');
    expect((await (await studioServer(false)).inject({ method: 'GET', url: '/studio/api/journal' })).statusCode).toBe(404);
  });

  it('runs scenarios for an analyst only, and its coverage names the rows none exercises, those listed unreachable apart', async () => {
    const app = await studioServer(true);
    expect((await app.inject({ method: 'POST', url: '/studio/api/scenarios/run', payload: {} })).statusCode).toBe(401);
    const run = (
      await app.inject({ method: 'POST', url: '/studio/api/scenarios/run', headers: { authorization: await analystToken(app) }, payload: {} })
    ).json();
    expect(run).toMatchObject({ passed: 1, failed: 0 });
    expect(run.coverage.unexercised).toContain('refundGuard#allow');
    expect(run.coverage.unexercised).not.toContain('familyDiscountRole#nobody');
    expect(run.coverage.rows.find((r: { row: string }) => r.row === 'nobody').unreachable).toMatch(/safety net/);
    expect(run.scenarios[0].steps[0].traces.map((t: { decision: string }) => t.decision)).toContain('passengerType');
  });

  it('documents its endpoints in /openapi.json under the Studio tag, where the studio is served', async () => {
    const app = await studioServer(true);
    expect((await app.inject({ method: 'GET', url: '/', headers: { accept: 'application/json' } })).json().links).toContainEqual({
      href: '/studio',
      title: 'Studio',
    });
    expect((await app.inject({ method: 'GET', url: '/studio/api/nothing-here' })).statusCode).toBe(404);
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.paths['/studio/api/decisions/{decision}/explain'].post.tags).toEqual(['Studio']);
    expect(doc.paths['/studio/api/decisions/{decision}'].put.security).toEqual([{ oauth2: ['analyst'] }]);
    // The journal answers any client's token, and nobody without one.
    expect(doc.paths['/studio/api/journal'].get.security).toEqual([{ oauth2: [] }]);
    expect(doc.paths['/studio/api/journal'].get.responses['401']).toEqual({ $ref: '#/components/responses/Problem401' });
    expect(doc['x-signalbox-undocumented']).toBeUndefined();
    const plain = await buildServer({ engine: createEngine({ rulesDir }), store: memoryStore(), jwtSecret: 'x' });
    apps.push(plain);
    expect(Object.keys((await plain.inject({ method: 'GET', url: '/openapi.json' })).json().paths).filter((p) => p.startsWith('/studio'))).toEqual([]);
  });
});
