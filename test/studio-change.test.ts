import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../engine/index.ts';
import { virtualClock } from '../adapters/service/clock.ts';
import { buildServer } from '../adapters/http/server.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { studioExtension } from '../adapters/studio/routes.ts';
import type { DecisionTable, TableEdit } from '../adapters/http/openapi/studio-schemas.ts';
import { analystAuthorization } from './helpers/server.ts';

/**
 * Changing rules safely through the studio's endpoints: the examples edited with the rows, the regression gate on
 * save, scenario expectations updated in the same change, the reason kept, and the editors' catalogue.
 * On copies of rules/ and of one scenario (saves write both).
 */
let dir: string;
let rulesDir: string;
let scenario: string;
let app: FastifyInstance;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'studio-change-'));
  rulesDir = join(dir, 'rules');
  cpSync('rules', rulesDir, { recursive: true });
  cpSync('scenarios/booking', join(dir, 'scenarios/booking'), { recursive: true });
  cpSync('scenarios/fixtures', join(dir, 'scenarios/fixtures'), { recursive: true });
  scenario = join(dir, 'scenarios/booking/names-and-cards.yaml');
  app = await buildServer({
    engine: createEngine({ rulesDir }),
    store: memoryStore(),
    sandbox: true,
    jwtSecret: 'studio-change-test',
    clock: virtualClock(new Date('2026-11-20T10:00:00+01:00')),
    extensions: [studioExtension({ sandbox: true, rulesDir, scenarios: [scenario], fixtures: join(dir, 'scenarios/fixtures') })],
  });
});
afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

const table = async (): Promise<DecisionTable> => (await app.inject({ method: 'GET', url: '/studio/api/decisions/passengerType' })).json();

/** The edit the page would send: every cell's value as JSON, the examples as they are. */
async function edit(): Promise<Required<Pick<TableEdit, 'rows' | 'examples'>> & TableEdit> {
  const t = await table();
  return {
    version: t.version,
    rows: t.rows.map((r) => ({
      was: r.id,
      id: r.id,
      otherwise: r.otherwise,
      when: Object.fromEntries(Object.entries(r.when).map(([k, c]) => [k, JSON.stringify(c.value)])),
      then: Object.fromEntries(Object.entries(r.then).map(([k, c]) => [k, JSON.stringify(c.value)])),
    })),
    examples: t.examples.map((e) => ({ given: e.given, expect: e.expect as Record<string, unknown> })),
  };
}

/** Children up to `last`: youths, students and pensioners from the next year. */
async function childrenUpTo(last: number) {
  const e = await edit();
  const age = (id: string, value: unknown) => (e.rows.find((r) => r.id === id)!.when['age'] = JSON.stringify(value));
  age('child-7-15', { between: [7, last] });
  age('youth-16-19', { between: [last + 1, 19] });
  age('student', { between: [last + 1, 64] });
  age('pensioner', { between: [last + 1, 64] });
  return e;
}
const childrenUpTo16 = () => childrenUpTo(16);

const call = async (method: 'POST' | 'PUT', url: string, payload: unknown) =>
  app.inject({ method, url, payload: payload as object, headers: { authorization: await analystAuthorization(app) } });

describe('the editors', () => {
  it('describes each outcome as its catalogue does: closed vocabularies, bounds, texts in every language, refusal codes', async () => {
    const t = await table();
    expect(t.outcomes).toEqual([
      { name: 'internalType', kind: 'enum', values: ['CHILD_0_6', 'CHILD_7_15', 'YOUTH_16_19', 'YOUTH_20_25', 'ADULT', 'STUDENT', 'SENIOR'] },
      { name: 'responseType', kind: 'enum', values: ['CHILD', 'YOUTH', 'PERSON', 'SENIOR'] },
      { name: 'description', kind: 'text', values: ['en-GB', 'sv-SE'] },
    ]);
    const guard: DecisionTable = (await app.inject({ method: 'GET', url: '/studio/api/decisions/refundGuard' })).json();
    expect(guard.outcomes.find((o) => o.name === 'reject')).toMatchObject({ kind: 'enum', values: expect.arrayContaining(['86011', 'X_CARD_REMOVAL']) });
    expect(guard.outcomes.find((o) => o.name === 'allow')).toEqual({ name: 'allow', kind: 'boolean' });
  });

  it('takes cells as JSON and writes them in the file’s own style, untouched lines byte for byte', async () => {
    const before = readFileSync(join(rulesDir, 'passenger-types.yaml'), 'utf8');
    const e = await edit();
    const checked = (await call('POST', '/studio/api/decisions/passengerType/check', e)).json();
    expect(checked).toMatchObject({ changed: false, problems: [] });
    expect(checked.text).toBe(before);
  });
});

describe('examples', () => {
  it('are checked with the edit; one that fails says what the edited rules decide instead, and an edited one is written', async () => {
    const e = await childrenUpTo16();
    const refused = (await call('POST', '/studio/api/decisions/passengerType/check', e)).json();
    // The example of a 15-year-old student holds; none is about a 16-year-old, so all hold.
    expect(refused.problems).toEqual([]);
    // An example of a 16-year-old student expecting STUDENT fails, and says the rules now make her a child.
    e.examples.push({ given: { age: 16, typingCard: 'SWE_STUDENT' }, expect: { internalType: 'STUDENT' } });
    const failing = (await call('POST', '/studio/api/decisions/passengerType/check', e)).json();
    expect(failing.problems).toContainEqual(expect.objectContaining({ example: 6, message: expect.stringContaining('example fails') }));
    expect(failing.examples[6]).toEqual({
      passed: false,
      row: 'child-7-15',
      outcome: { internalType: 'CHILD_7_15', responseType: 'CHILD', description: { 'en-GB': 'Child 7–15 years', 'sv-SE': 'Barn 7–15 år' } },
    });
    expect(failing.examples.slice(0, 6).every((x: { passed: boolean }) => x.passed)).toBe(true);
    e.examples[6] = { given: { age: 16, typingCard: 'SWE_STUDENT' }, expect: { internalType: 'CHILD_7_15' } };
    const fixed = (await call('POST', '/studio/api/decisions/passengerType/check', e)).json();
    expect(fixed.problems).toEqual([]);
    expect(fixed.text).toContain('  - given: { age: 16, typingCard: SWE_STUDENT }\n    expect: { internalType: CHILD_7_15 }');
    // The examples that were there stay as written.
    expect(fixed.text).toContain('  - given: { age: 70, typingCard: SWE_STUDENT }\n    expect: { internalType: SENIOR }\n');
  });
});

describe('saving is gated on the scenarios', () => {
  it('refuses a change a scenario step fails on, saves it with its expectation updated, and keeps the record', async () => {
    const rules = readFileSync(join(rulesDir, 'passenger-types.yaml'), 'utf8');
    const before = readFileSync(scenario, 'utf8');
    const e = await childrenUpTo16();

    const preview = (await call('POST', '/studio/api/decisions/passengerType/impact', e)).json();
    const failing = preview.impact.scenarios.find((s: { verdict?: { to: string } }) => s.verdict?.to === 'failed');
    const mismatch = failing.mismatches.find((m: { path: string }) => m.path === 'body.passenger.type');
    expect(mismatch).toMatchObject({ expected: 'PERSON', actual: 'CHILD', keys: ['expect', 'body', 'passenger', 'type'] });

    const refused = await call('PUT', '/studio/api/decisions/passengerType', e);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'X_SCENARIOS_FAIL' });
    expect(refused.json().detail).toMatch(/^The edited rules were not saved: \d+ scenario steps fail on them, the first at .*names-and-cards\.yaml:\d+\./);
    expect(readFileSync(join(rulesDir, 'passenger-types.yaml'), 'utf8')).toBe(rules);
    expect(existsSync(join(rulesDir, 'CHANGES.md'))).toBe(false);

    // Updating the expectations the preview names (each run again with the ones before) until none fails.
    e.expectations = [];
    for (let i = 0; i < 10; i++) {
      const x = (await call('POST', '/studio/api/decisions/passengerType/impact', e)).json();
      const steps = x.impact.scenarios.filter((s: { verdict?: { to: string } }) => s.verdict?.to === 'failed');
      if (steps.length === 0) break;
      for (const s of steps) for (const m of s.mismatches) e.expectations.push({ scenario: s.scenario, step: s.at, keys: m.keys, value: m.actual });
    }
    const saved = await call('PUT', '/studio/api/decisions/passengerType', e);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ saved: true, scenarios: [scenario], failing: 0 });
    const after = readFileSync(scenario, 'utf8');
    expect(after).toContain('expect: { status: 200, body: { passenger: { age: 16, type: CHILD } } }');
    // Only the lines of the updated expectations changed.
    const changed = after.split('\n').filter((line, i) => line !== before.split('\n')[i]);
    expect(changed.length).toBe(e.expectations.length);
    expect(readFileSync(join(rulesDir, 'CHANGES.md'), 'utf8')).toMatch(
      /^# Rule changes saved from the studio\n\n## \d{4}-\d\d-\d\dT.* · passenger-types\.yaml · demo-analyst\n\nScenario expectations updated: .*names-and-cards\.yaml\.\n/,
    );
  }, 60_000);

  it('saves a change scenario steps fail on when the analyst says why, and keeps the reason', async () => {
    // Back to children up to 15, against the expectation the change before updated.
    const e = await childrenUpTo(15);
    const refused = await call('PUT', '/studio/api/decisions/passengerType', e);
    expect(refused.statusCode).toBe(422);
    const saved = await call('PUT', '/studio/api/decisions/passengerType', { ...e, reason: 'Children are up to 15 again.\nThe scenario follows next week.' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().failing).toBeGreaterThan(0);
    expect(readFileSync(join(rulesDir, 'CHANGES.md'), 'utf8').split('## ').at(-1)).toMatch(
      /Saved with \d+ scenario steps? failing\.\n\nReason:\n\n> Children are up to 15 again\.\n> The scenario follows next week\.\n\n$/,
    );
  }, 60_000);

  it('writes only the corpus’s own scenarios, where an expectation stands', async () => {
    const e = { ...(await edit()), reason: 'x' };
    const outside = await call('PUT', '/studio/api/decisions/passengerType', {
      ...e,
      expectations: [{ scenario: join(rulesDir, 'passenger-types.yaml'), step: 'x:1', keys: ['expect', 'status'], value: 200 }],
    });
    expect(outside.statusCode).toBe(400);
    expect(outside.json()).toMatchObject({ code: '86001', pointers: [{ requestPointer: '#/expectations/0/scenario' }] });
    const nowhere = await call('PUT', '/studio/api/decisions/passengerType', {
      ...e,
      expectations: [{ scenario, step: `${scenario}:1`, keys: ['expect', 'status'], value: 200 }],
    });
    expect(nowhere.json()).toMatchObject({ code: '86001', pointers: [{ requestPointer: '#/expectations/0/step' }] });
    // In the caller's language.
    const swedish = await app.inject({
      method: 'PUT',
      url: '/studio/api/decisions/passengerType',
      payload: { ...e, expectations: [{ scenario, step: `${scenario}:1`, keys: ['expect', 'status'], value: 200 }] },
      headers: { authorization: await analystAuthorization(app), 'accept-language': 'sv-SE' },
    });
    expect(swedish.json().detail).toContain(`${scenario} har inget steg vid ${scenario}:1`);
    expect(nowhere.json().detail).toContain(`${scenario} has no step at ${scenario}:1`);
    // The first step of the scenario, which expects a status and offers but no passenger.
    const step = `${scenario}:8`;
    const written = readFileSync(scenario, 'utf8');
    for (const keys of [['post'], ['expect', 'body', 'passenger']]) {
      const refused = await call('PUT', '/studio/api/decisions/passengerType', { ...e, expectations: [{ scenario, step, keys, value: 'x' }] });
      expect(refused.statusCode, keys.join('.')).toBe(400);
      expect(refused.json()).toMatchObject({ code: '86001', pointers: [{ requestPointer: '#/expectations/0/keys' }] });
    }
    expect(readFileSync(scenario, 'utf8')).toBe(written);
  });
});

describe('mutants', () => {
  it('runs a table’s mutants, suggests the scenario that kills a survivor, and adds it beside the fixtures', async () => {
    const report = (await call('POST', '/studio/api/decisions/fareFactor/mutants', undefined)).json();
    expect(report.decisions[0]).toMatchObject({ decision: 'fareFactor', file: expect.stringContaining('fare-factors.yaml') });
    const survivor = report.mutants.find((m: { verdict: string; change: string }) => m.verdict === 'survived' && m.change === 'youth-16-19: factor 0.7 → 0.8');
    expect(survivor).toBeDefined();
    const suggested = await call('POST', `/studio/api/decisions/fareFactor/mutants/${encodeURIComponent(survivor.id)}/suggestion`, undefined);
    expect(suggested.statusCode, suggested.body).toBe(200);
    const { name, text } = suggested.json();
    expect(text).toContain('youth-16-19: factor 0.7 → 0.8');
    const first = (await call('PUT', '/studio/api/scenarios/suggested', { name, text })).json();
    expect(first.file).toBe(join(dir, 'scenarios/suggested', `${name}.yaml`));
    expect(readFileSync(first.file, 'utf8')).toBe(text);
    // Never over a file: the next free name.
    expect((await call('PUT', '/studio/api/scenarios/suggested', { name, text })).json().file).toBe(join(dir, 'scenarios/suggested', `${name}-2.yaml`));
    const none = await call('POST', '/studio/api/decisions/fareFactor/mutants/fareFactor:9999/suggestion', undefined);
    expect(none.statusCode).toBe(404);
  }, 120_000);
});
