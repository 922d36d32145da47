import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exportCommand } from '../adapters/cli/export.ts';
import { serveProcess, type ServerProcess } from './helpers/process.ts';

/**
 * `signalbox export`: the scenarios' requests as a Postman collection, loaded back and run by newman against a
 * served instance, and as an .http file; both with their token and Requestor set up, the target a variable.
 */
const require = createRequire(import.meta.url);
const newman = require('newman') as { run(options: object, done: (err: Error | null, summary: NewmanSummary) => void): void };
interface NewmanSummary {
  run: {
    stats: { requests: { total: number; failed: number }; assertions: { total: number; failed: number } };
    failures: Array<{ error: { message: string }; source?: { name?: string } }>;
    executions: Array<{ item: { name: string }; response?: { code: number } }>;
  };
}

const dir = mkdtempSync(join(tmpdir(), 'signalbox-export-'));
const SCENARIOS = ['scenarios/booking/sell-one-journey.yaml', 'scenarios/offers/no-offers.yaml'];
/** `signalbox export` in-process (its one line on stderr silenced); the file it wrote. */
const exportTo = async (format: string, file: string) => {
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    expect(await exportCommand(['--format', format, '--out', file, ...SCENARIOS])).toBe(0);
  } finally {
    vi.restoreAllMocks();
  }
  return readFileSync(file, 'utf8');
};

describe('signalbox export', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await serveProcess('memory', {}, ['--sandbox']);
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('--format postman: newman runs every request against a served instance, each expected status met', async () => {
    const file = join(dir, 'collection.json');
    const collection = JSON.parse(await exportTo('postman', file));
    expect(collection.item.map((f: { name: string }) => f.name)).toEqual([
      'One journey sold end to end (spec §3, §4.1)',
      expect.stringMatching(/^No offers for a cancelled train/),
    ]);
    const summary = await new Promise<NewmanSummary>((resolve, reject) => {
      newman.run({ collection: file, envVar: [{ key: 'baseUrl', value: server.base }], reporters: [] }, (err, s) => (err ? reject(err) : resolve(s)));
    });
    const { stats, failures, executions } = summary.run;
    expect(failures.map((f) => `${f.source?.name}: ${f.error.message}`)).toEqual([]);
    expect(stats.requests.failed).toBe(0);
    // The clock and the token first, then the steps: the token request's form body is what the server accepted.
    expect(executions.slice(0, 3).map((e) => [e.item.name, e.response?.code])).toEqual([
      ["set the sandbox clock to the scenario's start (a sandbox server only)", 200],
      ['token for demo-reseller', 200],
      ['offers for one adult on the 08:00 Stockholm–Göteborg', 200],
    ]);
    expect(stats.assertions.total).toBeGreaterThanOrEqual(8);
    expect(executions.some((e) => e.response?.code === 202)).toBe(true); // the confirmation, with the saved booking id
  }, 60_000);

  it('--format http: named requests, later ones reading saved values from earlier responses', async () => {
    const text = await exportTo('http', join(dir, 'requests.http'));
    expect(text).toContain('@baseUrl = http://127.0.0.1:8080');
    expect(text).toMatch(
      /POST \{\{baseUrl\}\}\/oauth2\/token\nContent-Type: application\/x-www-form-urlencoded\n\ngrant_type=client_credentials&client_id=demo-reseller&client_secret=\{\{secret_demo_reseller\}\}/,
    );
    expect(text).toContain('Authorization: Bearer {{r2.response.body.$.access_token}}');
    expect(text).toMatch(/"offerId": "\{\{r3\.response\.body\.\$\.offers\[0\]\.offerId\}\}"/);
    expect(text).not.toMatch(/\$\{\w+\}/); // no runner template is left
  });

  it('refuses an unknown format and says which there are', async () => {
    let stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((t) => {
      stderr += String(t);
      return true;
    });
    try {
      expect(await exportCommand(['--format', 'soap', ...SCENARIOS])).toBe(2);
    } finally {
      vi.restoreAllMocks();
    }
    expect(stderr).toContain('--format wants postman, http or bruno, not soap');
  });
});

describe('signalbox export --format bruno', () => {
  it('writes a Bruno collection: a folder per scenario, a .bru file per request, the environment with baseUrl', async () => {
    const out = join(dir, 'bruno');
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await exportCommand(['--format', 'bruno', '--out', out, SCENARIOS[0]!])).toBe(0);
    } finally {
      vi.restoreAllMocks();
    }
    const folder = join(out, '01-one-journey-sold-end-to-end-spec-3-4-1');
    expect(JSON.parse(readFileSync(join(out, 'bruno.json'), 'utf8'))).toMatchObject({ version: '1', type: 'collection' });
    expect(readFileSync(join(out, 'environments/local.bru'), 'utf8')).toBe(
      'vars {\n  baseUrl: http://127.0.0.1:8080\n  secret_demo_reseller: demo-reseller-secret\n}\n',
    );
    const token = readFileSync(join(folder, '02-token-for-demo-reseller.bru'), 'utf8');
    expect(token).toContain(
      'body:form-urlencoded {\n  grant_type: client_credentials\n  client_id: demo-reseller\n  client_secret: {{secret_demo_reseller}}\n}',
    );
    expect(token).toContain('bru.setVar("token_demo_reseller", res.getBody()["access_token"]);');
    const offers = readFileSync(join(folder, '03-offers-for-one-adult-on-the-08-00-stockholm-g-teborg.bru'), 'utf8');
    expect(offers).toContain('Authorization: Bearer {{token_demo_reseller}}');
    expect(offers).toContain('bru.setVar("offerId", res.getBody()["offers"][0]["offerId"]);');
    expect(offers).toContain('assert {\n  res.status: eq 200\n}');
  });
});
