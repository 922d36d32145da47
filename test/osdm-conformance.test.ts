import { describe, expect, it } from 'vitest';
import { DEMO_SECRETS } from '../adapters/harness/demo-secrets.ts';
import { scenarioFiles } from '../adapters/harness/files.ts';
import { defaultOsdmConformance, DEFAULT_OSDM_DOCUMENT, signatureOf, type OsdmConformance } from '../adapters/harness/osdm-conformance.ts';
import { DEVIATIONS } from '../adapters/harness/osdm-deviations.ts';
import { fieldsOsdmDoesNotDefine, responseFieldsOsdmDoesNotDefine } from '../adapters/harness/osdm-fields.ts';
import { keyOf, operations } from '../adapters/http/operations/index.ts';
import { runScenario } from '../adapters/harness/runner.ts';
import { inProcess } from '../adapters/harness/targets.ts';
import { engine } from './helpers/server.ts';
import { missingOracle } from './helpers/oracle.ts';

/**
 * Every Reseller API response of the scenario corpus against the official OSDM 3.4 document (CONTRACT §4c),
 * read from ../shared at test time. Differences CONTRACT §4c allows are listed once in osdm-deviations.ts;
 * anything else is a violation.
 */
const found = defaultOsdmConformance();
const osdm = 'missing' in found ? undefined : found;
missingOracle('the OSDM 3.4 conformance tests', 'missing' in found ? found.missing : undefined);

describe.skipIf(!osdm)('OSDM 3.4 conformance', () => {
  const check: OsdmConformance = osdm!;

  it('every response of every scenario conforms, apart from the listed deviations', async () => {
    const target = inProcess(engine());
    const seen = new Map<string, string>();
    let responses = 0;
    const deviationsUsed = new Set<string>();
    for (const file of scenarioFiles(['scenarios'])) {
      const result = await runScenario(file, target, { secrets: DEMO_SECRETS, osdm: DEFAULT_OSDM_DOCUMENT });
      for (const step of result.steps) {
        if (step.osdm) responses++;
        for (const a of step.osdm?.allowed ?? []) deviationsUsed.add(a.deviation);
        for (const v of step.osdm?.violations ?? [])
          if (!seen.has(signatureOf(v))) seen.set(signatureOf(v), `${step.at} ${step.request?.method} ${step.request?.path}`);
      }
    }
    const violations = [...seen].map(([s, where]) => `${s}\n    first at ${where}`);
    expect(responses).toBeGreaterThan(300);
    expect(violations, 'violations of OSDM 3.4 that are no deviation of CONTRACT §4c').toEqual([]);
    // Each deviation that can show in a schema check is met somewhere in the corpus, or it is not needed.
    expect(DEVIATIONS.filter((d) => d.allows && !deviationsUsed.has(d.id)).map((d) => d.id)).toEqual([]);
  }, 60_000); // the whole corpus, with the document compiled: seconds alone, many more on a busy machine

  it('every request schema accepts only what OSDM defines at each place, apart from the listed deviations (CONTRACT §4)', () => {
    const accepted = new Set(DEVIATIONS.flatMap((d) => (d.accepts ?? []).flatMap(({ operations, field }) => operations.map((o) => `${o} ${field}`))));
    const foreign = operations.flatMap((op) => {
      if (!op.request || !op.path.startsWith('/v3/')) return [];
      return (fieldsOsdmDoesNotDefine(check, op.method, op.path, op.request.schema) ?? []).map((field) => `${keyOf(op)} ${field}`);
    });
    expect(foreign.filter((f) => !accepted.has(f))).toEqual([]);
    expect(
      [...accepted].filter((a) => !foreign.includes(a)),
      'a deviation no request needs any more',
    ).toEqual([]);
  });

  it('every response schema (and so /openapi.json) describes only what OSDM defines at each place, apart from the listed deviations', () => {
    const described = DEVIATIONS.flatMap((d) => (d.describes ? [d.describes.field] : []));
    const foreign = new Set<string>();
    for (const { method, path, responses } of operations) {
      if (!path.startsWith('/v3/')) continue;
      for (const [status, answer] of Object.entries(responses)) {
        if (!answer.schema) continue;
        for (const field of responseFieldsOsdmDoesNotDefine(check, method === 'ANY' ? 'GET' : method, path, Number(status), answer.schema) ?? []) {
          if (!described.some((d) => d.test(field))) foreign.add(`${method === 'ANY' ? 'GET' : method} ${path} ${status} ${field}`);
        }
      }
    }
    expect([...foreign]).toEqual([]);
  });

  it('merges an allOf chain into one closed object: a subtype validates, a property no part defines does not', () => {
    const body = { fulfillments: [] };
    expect(check.check('GET', '/v3/bookings/1', 200, { booking: { id: 'b1' } }).violations.map((v) => v.message)).toContain(
      'required property createdOn is missing',
    );
    const part = {
      objectType: 'Admission',
      id: 'a1',
      createdOn: '2026-11-20T10:00:00+01:00',
      validFrom: '2026-12-01T08:00:00+01:00',
      price: { currency: 'SEK', amount: 100, scale: 2 },
      status: 'PREBOOKED',
      passengerIds: ['p1'],
      refundable: 'YES',
      exchangeable: 'YES',
      summary: null,
    };
    expect(check.check('POST', '/v3/bookings/1/fulfillments', 200, body).violations).toEqual([]);
    const admissionOf = (admission: object) =>
      check
        .check('GET', '/v3/bookings/1/booked-offers/2', 200, { bookedOffer: { admissions: [admission] } })
        .violations.filter((v) => v.pointer === '/bookedOffer/admissions/0')
        .map((v) => v.message);
    expect(admissionOf(part).filter((m) => /not defined/.test(m))).toEqual([]);
    expect(admissionOf({ ...part, seatWidth: 40 })).toContain('property seatWidth is not defined here');
  });

  it('checks a reference to a discriminated base as the subtype its objectType names', () => {
    const account = { issuer: 'urn:x_swe:carrier:74', validFrom: '2026-01-01T00:00:00Z', validUntil: '2026-12-31T00:00:00Z', number: '1' };
    const messages = (objectType: string, extra = {}) =>
      check.check('GET', '/v3/travel-accounts', 200, { travelAccount: { objectType, ...account, ...extra } }).violations.map((v) => v.message);
    expect(messages('MultiRideAccount')).toContain('required property balance is missing');
    expect(messages('TravelPassAccount', { regionalConstraintSummary: 'Stockholm–Göteborg' })).toEqual([]);
    // The base alone, closed: a subtype's field is foreign to it.
    expect(messages('SomethingElse', { regionalConstraintSummary: 'x' })).toContain('property regionalConstraintSummary is not defined here');
  });

  it('reads a Problem with relative type and instance as a violation, and absolute ones as conforming', () => {
    const problem = { code: '86001', title: 'Bad request', status: 400, type: '/problems/86001', instance: '/v3/offers' };
    expect(check.check('POST', '/v3/offers', 400, problem).violations.map((v) => v.pointer)).toEqual(['/type', '/instance']);
    expect(check.check('POST', '/v3/offers', 400, { ...problem, type: 'http://127.0.0.1/problems/86001', instance: 'urn:uuid:0b5e' }).violations).toEqual([]);
  });
});
