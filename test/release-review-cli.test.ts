import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEngine } from '../engine/index.ts';
import { releaseCommand } from '../adapters/cli/release.ts';
import { virtualClock } from '../adapters/service/clock.ts';
import { buildServer } from '../adapters/http/server.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { studioExtension } from '../adapters/studio/routes.ts';
import { demoTokenOf } from './helpers/server.ts';

/**
 * Four eyes from a terminal (docs/releases.md): `signalbox release propose` sends a rules folder to a server as a
 * draft, `show` prints its evidence, and only a second analyst's `approve` makes it a release.
 */

const dir = mkdtempSync(join(tmpdir(), 'release-review-'));
let app: FastifyInstance;
let server: string;
/** rules/ with the youth fare factor raised: what an analyst edited in git. */
const edited = join(dir, 'rules');
const broken = join(dir, 'broken');

beforeAll(async () => {
  cpSync('rules', edited, { recursive: true });
  const file = join(edited, 'fare-factors.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/(id: youth-16-19\n.*\n\s+then: \{ factor: )0\.7 \}/, '$10.75 }'));
  cpSync('rules', broken, { recursive: true });
  writeFileSync(
    join(broken, 'fare-factors.yaml'),
    readFileSync(join(broken, 'fare-factors.yaml'), 'utf8').replace('then: { factor: 0.7 }', 'then: { factor: 7 }'),
  );
  app = await buildServer({
    engine: createEngine({}),
    store: memoryStore(),
    sandbox: true,
    jwtSecret: 'release-review-test',
    clock: virtualClock(new Date('2026-12-12T12:00:00+01:00')),
    extensions: [studioExtension({ sandbox: true, scenarios: ['scenarios/offers/passenger-types.yaml'] })],
  });
  server = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `signalbox release …` as the analyst `client` types it: its exit code and what it wrote. */
async function release(client: string | undefined, ...args: string[]) {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((t) => ((out += String(t)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((t) => ((err += String(t)), true));
  vi.stubEnv('SIGNALBOX_CLIENT_SECRET', client ? `${client}-secret` : undefined);
  vi.stubEnv('NO_COLOR', '1');
  try {
    return { code: await releaseCommand([...args, '--server', server, ...(client ? ['--client', client] : [])]), out, err };
  } finally {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  }
}

describe('signalbox release propose, show, approve', () => {
  it('proposes a rules folder as a draft and prints its evidence: the diff, the scenario impact, the replay', async () => {
    const made = await release(
      'demo-analyst',
      'propose',
      'youth-2027',
      '--effective-from',
      '2026-12-13T00:00+01:00',
      '--reason',
      'youth fares up',
      '--rules',
      edited,
    );
    expect(made.err).toBe('');
    expect(made.code).toBe(0);
    expect(made.out).toMatch(/^youth-2027 {2}IN_REVIEW {2}in force from 2026-12-13T00:00\+01:00 {2}by demo-analyst: "youth fares up"/);
    expect(made.out).toContain('Against rules/:');
    expect(made.out).toContain('-    then: { factor: 0.7 }\n+    then: { factor: 0.75 }');
    expect(made.out).toMatch(/Scenario impact: 1 rows decide otherwise/);
    // The sandbox's journal holds only the CLI's token request, which a replay leaves out.
    expect(made.out).toContain('Replay: 0 requests, 0 answer differently');
  }, 60_000);

  it('refuses the author’s approval, and makes a release of a second analyst’s', async () => {
    const own = await release('demo-analyst', 'approve', 'youth-2027');
    expect(own).toMatchObject({ code: 1, err: expect.stringContaining('403 X_DRAFT_OWN: demo-analyst wrote the draft youth-2027') });
    const listed = await release('demo-reviewer', 'drafts');
    expect(listed.out).toBe('youth-2027  IN_REVIEW  in force from 2026-12-13T00:00+01:00  by demo-analyst: "youth fares up"\n');
    const approved = await release('demo-reviewer', 'approve', 'youth-2027', '--comment', 'as the fare notice says');
    expect(approved.code).toBe(0);
    expect(approved.out).toMatch(/APPROVED by demo-reviewer: "as the fare notice says"/);
    const releases = await app.inject({
      method: 'GET',
      url: '/studio/api/releases',
      headers: { authorization: `Bearer ${await demoTokenOf(app, 'demo-reviewer')}` },
    });
    expect(releases.json().releases).toMatchObject([{ name: 'youth-2027', createdBy: 'demo-analyst', approvedBy: 'demo-reviewer' }]);
  }, 60_000);

  it('proposes nothing that check refuses, and says who to be when no secret is given', async () => {
    const refused = await release('demo-analyst', 'propose', 'broken', '--effective-from', '2026-12-13T00:00+01:00', '--reason', 'x', '--rules', broken);
    expect(refused).toMatchObject({ code: 1, err: expect.stringMatching(/fare-factors\.yaml:\d+:\d+: .*\nsignalbox release: not proposed\.\n$/) });
    const anonymous = await release(undefined, 'drafts');
    expect(anonymous).toMatchObject({ code: 2, err: expect.stringContaining('$SIGNALBOX_CLIENT_SECRET') });
  });
});
