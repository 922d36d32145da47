/**
 * Spec §2.7 rule 8: a multi-ride pass pays for as many journeys as it has rides. Random sequences of offers and
 * bookings paid by Maria's MULTI-0001 (7 rides in customers.yaml), confirmations, refunds, cleanups and time passing;
 * after each step the Customer API's ridesLeft must be the start less the journeys confirmed and not given back, never
 * below 0, and an offer must be paid by the pass exactly when a ride is free and the pass is not busy that day.
 *
 * Replay: FC_SEED=<seed> npx vitest run test/property/multi-ride.test.ts
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { runs, seed } from '../helpers/facts.ts';
import { testServer, trip, type TestServer } from '../helpers/server.ts';

/** customers.yaml: Maria's OPR_MULTIRIDE_10 MULTI-0001. */
const START = 7;
const maria = [{ externalRef: 'maria', type: 'PERSON', age: 40, cards: [{ type: 'TRAVEL_PASS', code: 'OPR_MULTIRIDE_10', number: 'MULTI-0001' }] }];
const on = (d: number) => `2026-12-${String(d).padStart(2, '0')}`;

type Step = { kind: 'book'; day: number } | { kind: 'confirm' | 'refund' | 'cleanup'; booking: number } | { kind: 'wait'; minutes: number };

interface Journey {
  id: string;
  day: number;
  state: 'held' | 'confirmed' | 'given back';
  limit: number;
  fulfillments: string[];
}

const steps = fc.array(
  fc.oneof(
    { weight: 5, arbitrary: fc.integer({ min: 1, max: 10 }).map((day): Step => ({ kind: 'book', day })) },
    { weight: 4, arbitrary: fc.nat({ max: 9 }).map((booking): Step => ({ kind: 'confirm', booking })) },
    { weight: 1, arbitrary: fc.nat({ max: 9 }).map((booking): Step => ({ kind: 'refund', booking })) },
    { weight: 1, arbitrary: fc.nat({ max: 9 }).map((booking): Step => ({ kind: 'cleanup', booking })) },
    { weight: 1, arbitrary: fc.integer({ min: 10, max: 90 }).map((minutes): Step => ({ kind: 'wait', minutes })) },
  ),
  { minLength: 20, maxLength: 40 },
);

async function ridesLeft(server: TestServer): Promise<number> {
  const res = await server.app.inject({
    method: 'POST',
    url: '/customer/contacts/email',
    payload: { email: 'maria.nilsson@example.se' },
    headers: { authorization: `Bearer ${await server.token()}`, 'ocp-apim-subscription-key': 'demo-subscription-key' },
  });
  return res.json().travelPasses[0].ridesLeft;
}

/** How many runs used the pass up: the property must reach the used-up case, not only talk about it. */
let usedUp = 0;

/**
 * One server for every run: a run starts from an empty store (POST /sandbox/reset, as `signalbox test --reset` does
 * before each scenario) and the clock at its start. Building a server per run cost more than the run itself, so
 * `npm run test:deep`'s 2,000 runs did not fit in the test's time.
 */
const START_INSTANT = new Date('2026-11-20T10:00:00+01:00');
// No request journal: no studio reads it here, and keeping it costs every request.
const server = await testServer({ start: START_INSTANT.toISOString(), journal: false });
afterAll(() => server.app.close());

async function play(sequence: readonly Step[]): Promise<void> {
  const authorization = `Bearer ${await server.token()}`;
  expect((await server.app.inject({ method: 'POST', url: '/sandbox/reset', headers: { authorization } })).statusCode).toBe(200);
  server.clock.set!(START_INSTANT);
  const journeys: Journey[] = [];
  const now = () => server.clock.now().getTime();
  const live = (j: Journey) => j.state === 'confirmed' || (j.state === 'held' && now() < j.limit);
  for (const step of sequence) {
    // The journey a step acts on: one of those it can act on (held ones to confirm, confirmed ones to give back).
    const candidates = step.kind === 'confirm' ? journeys.filter((x) => x.state === 'held') : journeys.filter((x) => x.state === 'confirmed');
    const j = step.kind === 'book' || step.kind === 'wait' ? undefined : candidates[step.booking % Math.max(1, candidates.length)];
    if (step.kind === 'wait') server.clock.advance!(`PT${step.minutes}M`);
    else if (step.kind === 'book') {
      const offers = await server.reseller('POST', '/v3/offers', {
        tripSpecifications: [trip('ST', `${on(step.day)}T08:00:00+01:00`, `${on(step.day)}T11:00:00+01:00`)],
        anonymousPassengerSpecifications: maria,
        offerSearchCriteria: { travelClasses: ['SECOND'], flexibilities: ['FULL_FLEXIBLE'] },
      });
      const free = START - journeys.filter(live).length;
      const busy = journeys.some((x) => live(x) && x.day === step.day);
      const paid = offers.body.offers[0].admissionOfferParts[0].price.amount === 0;
      expect(paid, `day ${step.day}: ${free} rides free, ${busy ? 'busy' : 'not busy'} that day`).toBe(free > 0 && !busy);
      if (free === 0) usedUp++;
      if (!paid) continue;
      const booked = await server.reseller('POST', '/v3/booking', {
        externalRef: `day-${step.day}`,
        offers: [{ offerId: offers.body.offers[0].offerId, passengerRefs: ['maria'] }],
        passengerSpecifications: [{ externalRef: 'maria', type: 'PERSON', detail: { firstName: 'Maria', lastName: 'Nilsson' } }],
        purchaser: { detail: { firstName: 'Maria', lastName: 'Nilsson', email: 'maria.nilsson@example.se', phoneNumber: '+46703456789' } },
      });
      expect(booked.status).toBe(200);
      journeys.push({
        id: booked.body.booking.id,
        day: step.day,
        state: 'held',
        limit: Date.parse(booked.body.booking.confirmationTimeLimit),
        fulfillments: [],
      });
    } else if (j && step.kind === 'confirm' && j.state === 'held' && now() < j.limit) {
      const res = await server.reseller('POST', `/v3/bookings/${j.id}/fulfillments`);
      expect(res.status).toBe(200);
      j.state = 'confirmed';
      j.fulfillments = res.body.fulfillments.map((f: { id: string }) => f.id);
    } else if (j && step.kind === 'refund' && j.state === 'confirmed') {
      const offer = await server.reseller('POST', `/v3/bookings/${j.id}/refund-offers`, { fulfillmentIds: j.fulfillments });
      expect(offer.status).toBe(200);
      expect((await server.reseller('PATCH', `/v3/bookings/${j.id}/refund-offers/${offer.body.refundOffers[0].id}`, { status: 'CONFIRMED' })).status).toBe(200);
      j.state = 'given back';
    } else if (j && step.kind === 'cleanup' && j.state === 'confirmed') {
      // Within its window (rules/cleanup.yaml) a cleanup rolls the journey back; later it is refused and changes nothing.
      const res = await server.reseller('POST', `/v3/bookings/${j.id}/cleanup`, {}, { accept: 'application/json; version=3.4' });
      if (res.status === 202) j.state = 'given back';
    }
    const confirmed = journeys.filter((x) => x.state === 'confirmed').length;
    const left = await ridesLeft(server);
    expect(left, `after ${JSON.stringify(step)}`).toBe(START - confirmed);
    expect(left).toBeGreaterThanOrEqual(0);
  }
}

describe('a multi-ride pass', () => {
  const settings = { seed: seed(), numRuns: runs(12) };
  it(
    `never gives more rides than it has: rides left = start − confirmed + given back, never below 0 (seed ${settings.seed})`,
    async () => {
      console.info(`multi-ride: seed ${settings.seed}, ${settings.numRuns} runs`);
      await fc.assert(fc.asyncProperty(steps, play), settings);
      console.info(`multi-ride: ${usedUp} offers met a used-up pass`);
      expect(usedUp).toBeGreaterThan(0);
    },
    // The work is linear in the runs (a run is dozens of requests): the time allowed grows with
    // FC_RUNS, as model-based.test.ts's does, so test:deep's 2,000 runs fit on a busy machine.
    Math.max(120_000, settings.numRuns * 150),
  );
});
