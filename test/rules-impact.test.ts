import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_SECRETS } from '../adapters/harness/demo-secrets.ts';
import { impactOf } from '../adapters/analysis/impact.ts';
import { loadRules } from '../engine/index.ts';

/**
 * `signalbox simulate` and `signalbox diff` on edits an analyst makes: the child age bound moved from 15 to
 * 16, and the agents' refund fee raised from 25 to 30 kronor.
 */
const work = mkdtempSync(join(tmpdir(), 'signalbox-impact-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function editedRules(name: string, edits: Record<string, Array<[string, string]>>): string {
  const dir = join(work, name);
  cpSync('rules', dir, { recursive: true });
  for (const [file, replacements] of Object.entries(edits)) {
    let text = readFileSync(join(dir, file), 'utf8');
    for (const [from, to] of replacements) {
      expect(text, `${file} no longer has ${from}`).toContain(from);
      text = text.split(from).join(to);
    }
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

const childUpTo16 = () =>
  editedRules('child-16', {
    'passenger-types.yaml': [
      ['when: { age: { between: [7, 15] } }', 'when: { age: { between: [7, 16] } }'],
      ['when: { age: { between: [16, 19] }, typingCard: NONE }', 'when: { age: { between: [17, 19] }, typingCard: NONE }'],
      ['between: [16, 64]', 'between: [17, 64]'],
    ],
  });
const agentFee30 = () =>
  editedRules('fee-30', {
    'refund-fees.yaml': [
      ['then: { refundPercent: 100, fee: 2500 }', 'then: { refundPercent: 100, fee: 3000 }'],
      ['expect: { refundPercent: 100, fee: 2500 }', 'expect: { refundPercent: 100, fee: 3000 }'],
    ],
  });
const cli = (...args: string[]) => spawnSync(process.execPath, ['bin/signalbox.js', ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

describe('signalbox simulate', () => {
  it('prints the deciding row and outcome of every case of a CSV file, and the boundary cases as JSON', () => {
    const cases = join(work, 'ages.csv');
    writeFileSync(cases, 'age,typingCard\n15,NONE\n16,\n17,SWE_STUDENT\n');
    const table = cli('simulate', 'passengerType', '--cases', cases);
    expect(table.status, table.stderr).toBe(0);
    const lines = table.stdout.split('\n');
    expect(lines[0]).toMatch(/^# +age +typingCard +row +outcome$/);
    expect(lines[2]).toMatch(/^1 +15 +NONE +child-7-15 +internalType: CHILD_7_15, responseType: CHILD/);
    expect(lines[3]).toMatch(/^2 +16 +NONE +youth-16-19 /);
    expect(lines[4]).toMatch(/^3 +17 +SWE_STUDENT +student /);

    const json = cli('simulate', 'passengerType', '--boundaries', '--json', '--rules', childUpTo16());
    const results = JSON.parse(json.stdout) as Array<{ facts: { age: number; typingCard: string }; row: string }>;
    const at = (age: number) => results.find((r) => r.facts.age === age && r.facts.typingCard === 'NONE')!.row;
    expect([at(6), at(7), at(16), at(17), at(19), at(20)]).toEqual(['child-0-6', 'child-7-15', 'child-7-15', 'youth-16-19', 'youth-16-19', 'youth-20-25']);
  }, 30_000);
});

describe('signalbox diff', () => {
  it('moving the child age bound from 15 to 16 changes the rows for age 16, and the scenarios that type a 16-year-old', async () => {
    const impact = await impactOf(loadRules('rules'), loadRules(childUpTo16()), ['scenarios'], {
      secrets: DEMO_SECRETS,
      fixtures: 'scenarios/fixtures',
      now: new Date('2026-11-28T00:00:00Z'),
    });
    expect(
      impact.decisions.map(
        (d) => `${d.decision}: ${d.from.row} → ${d.to.row} at ${d.cases.map((c) => `${String(c['age'])}/${String(c['typingCard'])}`).join(' ')}`,
      ),
    ).toEqual([
      'passengerType: youth-16-19 → child-7-15 at 16/NONE',
      'passengerType: student → child-7-15 at 16/SWE_STUDENT',
      'passengerType: pensioner → child-7-15 at 16/SWE_PENSIONER',
    ]);
    expect(impact.summary.scenarios).toBeGreaterThan(0);
    // What the 16-year-old now pays, on the trip the studio tries first, in the cheapest offer.
    expect(impact.prices).toContainEqual(
      expect.objectContaining({ trip: 'sto-gbg-1200', offer: 'JREF_2_N', passengers: 'aged 16, no card', currency: 'SEK', from: 38400, to: 27500 }),
    );
    // The scenario step that now fails, with what it expects and what comes instead.
    const failing = impact.scenarios.find((s) => s.verdict?.to === 'failed')!;
    expect(failing).toMatchObject({ scenario: 'scenarios/booking/names-and-cards.yaml', verdict: { from: 'passed', to: 'failed' } });
    expect(failing.mismatches).toContainEqual(expect.objectContaining({ path: 'body.passenger.type', expected: 'PERSON', actual: 'CHILD' }));
    expect(impact.summary.failingSteps).toBeGreaterThan(0);
  }, 60_000);

  it("raising the agents' refund fee changes that row, and every agent refund pays back 5 kronor less", async () => {
    const impact = await impactOf(loadRules('rules'), loadRules(agentFee30()), ['scenarios/aftersales'], { secrets: DEMO_SECRETS });
    expect(impact.decisions).toHaveLength(1);
    expect(impact.decisions[0]).toMatchObject({
      decision: 'refundFee',
      from: { row: 'flexible-agent', outcome: { fee: 2500 } },
      to: { row: 'flexible-agent', outcome: { fee: 3000 } },
    });
    expect(impact.decisions[0]!.cases.every((c) => c['flexibility'] === 'FULL_FLEXIBLE')).toBe(true);
    const refund = impact.scenarios.find((s) => s.scenario === 'scenarios/aftersales/refund-terms.yaml')!;
    expect(refund.prices).toContainEqual({ at: '/refundOffers/0/refundFee', currency: 'SEK', from: 2500, to: 3000, difference: 500 });
    expect(refund.prices).toContainEqual(expect.objectContaining({ at: '/refundOffers/0/refundableAmount', difference: -500 }));
  }, 60_000);

  it('compares with a git revision, prints JSON for tools and exits 1 on a change, 0 without', () => {
    const changed = cli('diff', '--rules', 'HEAD', '--against', agentFee30(), '--scenarios', 'scenarios/aftersales/refund-terms.yaml', '--json');
    expect(changed.status, changed.stderr).toBe(1);
    expect(JSON.parse(changed.stdout).summary).toMatchObject({ changedRows: 1, scenarios: 1 });
    const same = cli('diff', '--rules', 'rules', '--against', 'rules', '--scenarios', 'scenarios/aftersales/refund-terms.yaml');
    expect(same.stdout).toBe('no change: every boundary case, offer price and scenario step answers as before\n');
    expect(same.status).toBe(0);
  }, 60_000);

  it('the cleanup terms, the exchange fee and the reservation price are read from rules/, not fixed in code', async () => {
    const edited = editedRules('values', {
      'cleanup.yaml': [
        ['then: { refundPercent: 100, fee: 0 }', 'then: { refundPercent: 50, fee: 0 }'],
        ['expect: { refundPercent: 100, fee: 0 }', 'expect: { refundPercent: 50, fee: 0 }'],
      ],
      'exchange-guards.yaml': [
        ['then: { allow: true, exchangeFee: 0 }', 'then: { allow: true, exchangeFee: 1500 }'],
        ['expect: { allow: true, exchangeFee: 0 }', 'expect: { allow: true, exchangeFee: 1500 }'],
      ],
      'reservation-prices.yaml': [
        ['then: { price: 0 }', 'then: { price: 1000 }'],
        ['expect: { price: 0 }', 'expect: { price: 1000 }'],
      ],
    });
    const impact = await impactOf(loadRules('rules'), loadRules(edited), ['scenarios/aftersales/cleanup.yaml', 'scenarios/aftersales/exchange.yaml'], {
      secrets: DEMO_SECRETS,
    });
    const prices = impact.scenarios.flatMap((s) => s.prices.map((p) => `${s.scenario.split('/').pop()} ${p.at} ${p.difference}`));
    expect(prices).toContain('exchange.yaml /exchangeOffers/0/exchangeFee 1500');
    expect(prices.some((p) => /^cleanup\.yaml \/offers\/0\/reservationOfferParts\/0\/price 1000$/.test(p))).toBe(true);
    expect(
      impact.scenarios.some((s) => s.scenario.endsWith('cleanup.yaml') && s.prices.some((p) => p.at === '/booking/refundAmount' && p.difference < 0)),
    ).toBe(true);
  }, 60_000);
});
