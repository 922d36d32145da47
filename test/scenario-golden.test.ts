import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SECRETS } from '../adapters/harness/demo-secrets.ts';
import { buildServer } from '../adapters/http/server.ts';
import { scenarioFiles } from '../adapters/harness/files.ts';
import { pretty } from '../adapters/harness/report.ts';
import { runScenario } from '../adapters/harness/runner.ts';
import { inProcess, live, type Target } from '../adapters/harness/targets.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { engine } from './helpers/server.ts';

/**
 * Golden self-tests of the runner (Hurl, Venom): every scenarios/failing/<name>.yaml must fail, and its
 * pretty report must equal scenarios/failing/<name>.out exactly, timings and the Node version /health names aside. A file saying
 * `# golden-target: live-without-sandbox` runs against a live server started without --sandbox.
 * After a deliberate change to the report, rewrite the .out files with UPDATE_GOLDEN=1 and read the diff.
 */
const FOLDER = 'scenarios/failing';
const cases = readdirSync(FOLDER)
  .filter((f) => f.endsWith('.yaml'))
  .sort();
// A Problem's type and instance name the server asked: in-process http://localhost, live a port of the moment.
const normalise = (report: string) =>
  report
    .replace(/\] \d+ ms$/gm, '] N ms')
    .replace(/http:\/\/127\.0\.0\.1:\d+\//g, 'http://localhost/')
    .replaceAll(process.version, 'vX.Y.Z');

async function listen(sandbox: boolean): Promise<{ app: FastifyInstance; url: string }> {
  const app = await buildServer({ engine: engine(), store: memoryStore(), sandbox, jwtSecret: 'golden-secret' });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

describe('golden failing scenarios', () => {
  const servers: FastifyInstance[] = [];
  const targets: Record<string, Target> = { 'in-process': inProcess(engine()) };
  beforeAll(async () => {
    const bare = await listen(false);
    const sandbox = await listen(true);
    servers.push(bare.app, sandbox.app);
    targets['live-without-sandbox'] = live(bare.url, { secrets: DEMO_SECRETS });
    targets['live-sandbox'] = live(sandbox.url, { secrets: DEMO_SECRETS });
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  const targetOf = (file: string) => /^# golden-target: ([\w-]+)$/m.exec(readFileSync(file, 'utf8'))?.[1] ?? 'in-process';
  const run = async (file: string, target: Target) => {
    const result = await runScenario(file, target, { secrets: DEMO_SECRETS });
    return { result, report: normalise(pretty([result])) };
  };

  it('has cases, each beside its expected report', () => {
    expect(cases.length).toBeGreaterThanOrEqual(8);
    if (process.env['UPDATE_GOLDEN']) return;
    for (const c of cases) expect(() => readFileSync(`${FOLDER}/${c.replace(/\.yaml$/, '.out')}`), `${c} has no .out`).not.toThrow();
  });

  it.each(cases)('%s fails with its exact report', async (name) => {
    const file = `${FOLDER}/${name}`;
    const { result, report } = await run(file, targets[targetOf(file)]!);
    expect(result.passed).toBe(false);
    const golden = `${FOLDER}/${name.replace(/\.yaml$/, '.out')}`;
    if (process.env['UPDATE_GOLDEN']) writeFileSync(golden, report);
    expect(report).toBe(readFileSync(golden, 'utf8'));
  });

  // The traces of a failing step come over HTTP from a live sandbox (GET /sandbox/traces/{id}): same report.
  it.each(['wrong-status.yaml', 'body-mismatch.yaml'])('%s reports the same against a live sandbox server', async (name) => {
    const { report } = await run(`${FOLDER}/${name}`, targets['live-sandbox']!);
    expect(report).toContain('rule traces:\n        offerRequestLimits → too-many-passengers');
    expect(report).toBe(readFileSync(`${FOLDER}/${name.replace(/\.yaml$/, '.out')}`, 'utf8'));
  });

  // The schema check runs on what came back, whatever the target: the same verdict against a live server.
  it('schema-mismatch.yaml reports the same against a live sandbox server', async () => {
    const { report } = await run(`${FOLDER}/schema-mismatch.yaml`, targets['live-sandbox']!);
    // A live server's booking ids are random; in-process they count from 1.
    expect(report.replace(/bookings\/\w+\/fulfillment → /, 'bookings/booking-1/fulfillment → ')).toBe(readFileSync(`${FOLDER}/schema-mismatch.out`, 'utf8'));
  });

  it('stays out of a run of the whole folder unless named', () => {
    expect(scenarioFiles(['scenarios']).some((f) => f.includes('/failing/'))).toBe(false);
    expect(scenarioFiles([FOLDER])).toEqual(cases.map((c) => `${FOLDER}/${c}`));
  });
});
