import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../engine/index.ts';
import { buildServer } from '../adapters/http/server.ts';
import type { DecisionGraph } from '../adapters/http/openapi/studio-graph-schemas.ts';
import type { CsvImport } from '../adapters/http/openapi/studio-csv-schemas.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { studioExtension } from '../adapters/studio/routes.ts';

/** The decision graph and a table's CSV through the studio's endpoints, as the page and other tools use them. */
let rulesDir: string;
let app: FastifyInstance;

beforeAll(async () => {
  rulesDir = mkdtempSync(join(tmpdir(), 'studio-csv-'));
  cpSync('rules', rulesDir, { recursive: true });
  app = await buildServer({
    engine: createEngine({ rulesDir }),
    store: memoryStore(),
    sandbox: true,
    jwtSecret: 'studio-csv-test',
    extensions: [studioExtension({ sandbox: true, rulesDir, scenarios: [] })],
  });
});
afterAll(async () => {
  await app.close();
  rmSync(rulesDir, { recursive: true, force: true });
});

async function analyst(): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/oauth2/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'grant_type=client_credentials&client_id=demo-analyst&client_secret=demo-analyst-secret',
  });
  return `Bearer ${res.json().access_token as string}`;
}

describe('GET /studio/api/graph', () => {
  it('says passengerType feeds fareFactor, which decides the admission price, each decision with its file', async () => {
    const res = await app.inject({ method: 'GET', url: '/studio/api/graph' });
    expect(res.statusCode).toBe(200);
    const graph = res.json<DecisionGraph>();
    expect(graph.edges).toContainEqual({ from: 'passengerType', to: 'fareFactor', facts: ['internalType'] });
    expect(graph.edges).toContainEqual({ from: 'familyDiscountRole', to: 'fareFactor', facts: ['familyDiscount'] });
    expect(graph.edges).toContainEqual({ from: 'fareFactor', to: 'sink:admissionPrice', facts: [] });
    expect(graph.nodes.find((n) => n.id === 'passengerType')).toMatchObject({ kind: 'decision', file: expect.stringMatching(/passenger-types\.yaml$/) });
    expect(graph.nodes.find((n) => n.id === 'sink:error')).toMatchObject({ kind: 'sink', label: 'Error answered' });
  });
});

describe('a table as CSV', () => {
  it('exports anyone may read, as a CSV download', async () => {
    const res = await app.inject({ method: 'GET', url: '/studio/api/decisions/passengerType/csv' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="passengerType.csv"');
    expect(res.body.split('\r\n')[0]).toBe('id,otherwise,when.age,when.typingCard,then.internalType,then.responseType,then.description');
  });

  it('imports for an analyst only, answering the rows to edit and saving nothing', async () => {
    const csv = (await app.inject({ method: 'GET', url: '/studio/api/decisions/fareFactor/csv' })).body;
    const edited = csv.replace('0.75', '0.7');
    const refused = await app.inject({ method: 'POST', url: '/studio/api/decisions/fareFactor/csv', payload: { csv: edited } });
    expect(refused.statusCode).toBe(401);
    const res = await app.inject({
      method: 'POST',
      url: '/studio/api/decisions/fareFactor/csv',
      headers: { authorization: await analyst() },
      payload: { csv: edited },
    });
    expect(res.statusCode).toBe(200);
    const { rows, problems } = res.json<CsvImport>();
    expect(problems).toEqual([]);
    expect(rows.some((r) => r.then['factor'] === '0.7')).toBe(true);
    expect(rows.every((r) => r.was === r.id)).toBe(true);
    expect(readFileSync(join(rulesDir, 'fare-factors.yaml'), 'utf8')).toBe(readFileSync('rules/fare-factors.yaml', 'utf8'));
  });

  it('404 for a decision the rules have no table for', async () => {
    expect((await app.inject({ method: 'GET', url: '/studio/api/decisions/shoeSize/csv' })).statusCode).toBe(404);
  });
});
