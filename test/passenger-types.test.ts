import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../engine/index.ts';
import { BookingResponse } from '../engine/model/osdm/booking-response.ts';
import { OfferCollectionResponse } from '../engine/model/osdm/offer-response.ts';
import { passengers, testServer, trip } from './helpers/server.ts';

/**
 * Spec §2.9, every row of the table, through the HTTP adapter: what a reseller sees in
 * admissionOfferParts[].appliedPassengerTypes for an age and a reduction card.
 */
const table: Array<[age: number, card: string | undefined, type: string, description: string]> = [
  [0, undefined, 'CHILD', 'Child 0–6 years'],
  [6, 'SWE_STUDENT', 'CHILD', 'Child 0–6 years'],
  [3, 'SWE_PENSIONER', 'CHILD', 'Child 0–6 years'],
  [7, undefined, 'CHILD', 'Child 7–15 years'],
  [15, 'SWE_STUDENT', 'CHILD', 'Child 7–15 years'],
  [12, 'SWE_PENSIONER', 'CHILD', 'Child 7–15 years'],
  [16, undefined, 'YOUTH', 'Youth 16–19 years'],
  [19, undefined, 'YOUTH', 'Youth 16–19 years'],
  [20, undefined, 'YOUTH', 'Youth 20–25 years'],
  [25, undefined, 'YOUTH', 'Youth 20–25 years'],
  [26, undefined, 'PERSON', 'Adult'],
  [64, undefined, 'PERSON', 'Adult'],
  [65, undefined, 'SENIOR', 'Senior 65+'],
  [90, 'SWE_STUDENT', 'SENIOR', 'Senior 65+'],
  [70, 'SWE_PENSIONER', 'SENIOR', 'Senior 65+'],
  [16, 'SWE_STUDENT', 'PERSON', 'Student'],
  [64, 'SWE_STUDENT', 'PERSON', 'Student'],
  [16, 'SWE_PENSIONER', 'SENIOR', 'Pensioner'],
  [64, 'SWE_PENSIONER', 'SENIOR', 'Pensioner'],
];

describe('passenger type by age and reduction card (spec §2.9)', async () => {
  const server = await testServer();
  it.each(table)('age %i with %s is %s (%s)', async (age, card, type, description) => {
    const [p] = passengers(age);
    const res = await server.reseller('POST', '/v3/offers', {
      tripSpecifications: [trip()],
      anonymousPassengerSpecifications: [{ ...p, cards: card ? [{ type: 'REDUCTION_CARD', code: card }] : [] }],
      offerSearchCriteria: { travelClasses: ['SECOND'], flexibilities: ['NON_FLEXIBLE'] },
    });
    expect(res.status).toBe(200);
    expect(res.body.offers[0].admissionOfferParts[0].appliedPassengerTypes).toEqual([{ passengerRef: 'p1', type, description }]);
  });

  it('answers in Swedish when asked', async () => {
    const res = await server.reseller(
      'POST',
      '/v3/offers',
      {
        tripSpecifications: [trip()],
        anonymousPassengerSpecifications: passengers(8),
        offerSearchCriteria: { travelClasses: ['SECOND'], flexibilities: ['NON_FLEXIBLE'] },
      },
      { 'accept-language': 'sv-SE,sv;q=0.9' },
    );
    expect(res.headers['content-language']).toBe('sv-SE');
    expect(res.body.offers[0].admissionOfferParts[0].appliedPassengerTypes[0].description).toBe('Barn 7–15 år');
  });

  it('prices a child at half the adult fare (rounded to whole kronor) and an infant at 0 (first class: no family discount)', async () => {
    const res = await server.reseller('POST', '/v3/offers', {
      tripSpecifications: [trip()],
      anonymousPassengerSpecifications: passengers(40, 8, 1),
      offerSearchCriteria: { travelClasses: ['FIRST'], flexibilities: ['NON_FLEXIBLE'] },
    });
    const [adult, child, infant] = res.body.offers[0].admissionOfferParts.map((p: { price: { amount: number } }) => p.price.amount);
    expect(Math.abs(child - adult / 2)).toBeLessThanOrEqual(50);
    expect(child % 100).toBe(0);
    expect(infant).toBe(0);
    expect(res.body.offers[0].offerSummary.minimalPrice.amount).toBe(adult + child);
  });

  // The offers of one request share the family discount and fare factor decisions of a travel class
  // (engine/offers/admission-prices.ts): asking for both classes at once must price each as asking for it alone.
  it('prices each class of a request for both classes as a request for that class alone (family discount in second class only)', async () => {
    const ask = async (travelClasses: string[]) =>
      OfferCollectionResponse.parse(
        (
          await server.reseller('POST', '/v3/offers', {
            tripSpecifications: [trip()],
            anonymousPassengerSpecifications: passengers(40, 8, 9, 10),
            offerSearchCriteria: { travelClasses, flexibilities: ['NON_FLEXIBLE'] },
          })
        ).body,
      ).offers;
    const prices = (offers: Awaited<ReturnType<typeof ask>>) =>
      Object.fromEntries(offers.map((o) => [o.products[0]!.id, (o.admissionOfferParts ?? []).map((p) => p.price.amount)]));
    const both = prices(await ask(['FIRST', 'SECOND']));
    const first = prices(await ask(['FIRST']));
    const second = prices(await ask(['SECOND']));
    expect(both).toEqual({ ...first, ...second });
    // Two of the three children get the family discount in second class, none in first.
    const [secondClass] = Object.values(second);
    const [firstClass] = Object.values(first);
    expect(new Set(secondClass!.slice(1)).size).toBe(2);
    expect(new Set(firstClass!.slice(1)).size).toBe(1);
  });
});

/**
 * An offer keeps the row that typed each passenger, not its text: the booking shows the text of the rules it is
 * booked under, as it shows their product names. Rules edited in between (`serve --watch`) that no longer have the
 * row give the text of the row the passenger lands on now.
 */
describe('the passenger type text of an offer booked under edited rules', () => {
  const offered = createEngine();
  const requestor = { client: 'demo-reseller', salesApplication: 'WEB_SE', salesUnitCode: 'TEST', language: 'en-GB' } as const;
  const call = () => {
    let n = 0;
    return { requestor, now: new Date('2026-11-20T09:00:00Z'), ids: { next: (kind: string) => `${kind}-${++n}` } };
  };
  const body = {
    tripSpecifications: [trip()],
    anonymousPassengerSpecifications: passengers(8),
    offerSearchCriteria: { travelClasses: ['SECOND'], flexibilities: ['NON_FLEXIBLE'] },
  };
  const [offer] = offered.offers(call(), body).value.offers;
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  /** The passenger types of the booking of `quote` under the rules with passenger-types.yaml edited by `edit`. */
  const bookedUnder = (edit: (yaml: string) => string, quote = offer!) => {
    const dir = mkdtempSync(join(tmpdir(), 'signalbox-rules-'));
    dirs.push(dir);
    cpSync('rules', dir, { recursive: true });
    const file = join(dir, 'passenger-types.yaml');
    writeFileSync(file, edit(readFileSync(file, 'utf8')));
    const engine = createEngine({ rulesDir: dir });
    const { request } = engine.readBookingRequest({
      externalRef: 'booking-1',
      offers: [{ offerId: quote.offerId, passengerRefs: ['p1'] }],
      passengerSpecifications: [{ externalRef: 'p1', type: 'PERSON', age: 8, detail: { firstName: 'Maja', lastName: 'Ek' } }],
      purchaser: { detail: { firstName: 'Anna', lastName: 'Ek', email: 'anna.ek@example.se', phoneNumber: '+46701234567' } },
    });
    const { response } = engine.book(call(), request, new Map([[quote.offerId, quote]])).value;
    return BookingResponse.parse(response).booking.bookedOffers[0]!.admissions[0]!.appliedPassengerTypes;
  };
  const child = (description: string) => [{ passengerRef: expect.any(String), type: 'CHILD', description }];

  it('shows the text the rules give the row now', () => {
    expect(bookedUnder((yaml) => yaml.replace('"Child 7–15 years"', '"Child (7 to 15)"'))).toEqual(child('Child (7 to 15)'));
  });

  it('shows the text of the row the passenger lands on when the row that typed it is gone', () => {
    const renamed = (yaml: string) => yaml.replace('id: child-7-15', 'id: school-child').replace('"Child 7–15 years"', '"School child"');
    expect(bookedUnder(renamed)).toEqual(child('School child'));
  });

  it('gives a quote stored before offers kept the row the text of the row its passenger lands on', () => {
    const before = {
      ...offer!,
      passengers: offer!.passengers.map(({ typedBy: _, ...p }) => ({ ...p, description: { 'en-GB': 'Child 7–15 years', 'sv-SE': 'Barn 7–15 år' } })),
    };
    expect(bookedUnder((yaml) => yaml, before)).toEqual(child('Child 7–15 years'));
  });
});
