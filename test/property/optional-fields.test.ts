/**
 * Metamorphic test (DESIGN principle 8): an offer request and the booking made of its first offer get the
 * same decisions with and without the optional fields the spec's tables list that say nothing the operator decides
 * on — `objectType` and `embed` (spec §2.2), a trip's `externalRef`, `isPartOfInternationalTrip: false` on a domestic
 * trip, a product category's `name` and `shortName`, a carrier's `name`, `publishedServiceName`, the Requestor's
 * `organizationCode` (spec §2.1, "may be empty"), and the booking request's `embed` and purchaser `externalRef`
 * (spec §2.6). Decisions: status, Problem and warning codes, prices, passenger types, products, places
 * (test/helpers/decisions.ts). Each pair of sales runs on two servers that start alike.
 *
 * Replay: FC_SEED=<seed> npx vitest run test/property/optional-fields.test.ts (FC_RUNS for more cases).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEMO_SECRETS } from '../../adapters/harness/demo-secrets.ts';
import { grantToken } from '../../adapters/harness/token-grant.ts';
import { inProcess, type Session } from '../../adapters/harness/targets.ts';
import { decisionDifferences } from '../helpers/decisions.ts';
import { runs, seed } from '../helpers/facts.ts';
import { fixtureTrip, type TripName } from '../helpers/model-trips.ts';
import { engine } from '../helpers/server.ts';

type Json = Record<string, any>;
/** Before every fixture trip's departure, within the booking horizon (as the model-based test starts). */
const START = '2026-11-20T10:00:00+01:00';
const target = inProcess(engine());

/** The optional fields, each as what it adds to the offer request, the booking request or the Requestor header. */
interface Optional {
  spec: string;
  offer?: (request: Json) => Json;
  booking?: (request: Json) => Json;
  requestor?: Json;
}
const eachLeg = (request: Json, change: (service: Json) => void): Json => {
  const copy = structuredClone(request);
  for (const trip of copy['tripSpecifications']) for (const leg of trip.legs) change(leg.timedLeg.service);
  return copy;
};
const OPTIONAL = {
  objectType: { spec: '§2.2 objectType: "OfferCollectionRequest"', offer: (r) => ({ objectType: 'OfferCollectionRequest', ...r }) },
  offerEmbed: { spec: '§2.2 embed: ["ALL"]', offer: (r) => ({ ...r, embed: ['ALL'] }) },
  tripExternalRef: {
    spec: '§2.2 trip externalRef',
    offer: (r) => ({ ...r, tripSpecifications: r['tripSpecifications'].map((t: Json, i: number) => ({ externalRef: `trip-${i + 1}`, ...t })) }),
  },
  domestic: {
    spec: '§2.2 isPartOfInternationalTrip: false on a domestic trip',
    offer: (r) => ({ ...r, tripSpecifications: r['tripSpecifications'].map((t: Json) => ({ isPartOfInternationalTrip: false, ...t })) }),
  },
  categoryNames: {
    spec: '§2.2 productCategory name and shortName',
    offer: (r) =>
      eachLeg(r, (s) => {
        const code = String(s.productCategory.productCategoryRef).split(':').pop();
        s.productCategory = { name: `Category ${code}`, shortName: code, ...s.productCategory };
      }),
  },
  carrierName: { spec: '§2.2 carrier name', offer: (r) => eachLeg(r, (s) => (s.carriers = s.carriers.map((c: Json) => ({ ...c, name: 'Operator' })))) },
  publishedServiceName: { spec: '§2.2 publishedServiceName', offer: (r) => eachLeg(r, (s) => (s.publishedServiceName = s.vehicleNumbers[0])) },
  organizationCode: { spec: '§2.1 Requestor organizationCode, empty', requestor: { organizationCode: '' } },
  bookingEmbed: { spec: '§2.6 booking embed: ["ALL"]', booking: (r) => ({ ...r, embed: ['ALL'] }) },
  purchaserExternalRef: { spec: '§2.6 purchaser externalRef', booking: (r) => ({ ...r, purchaser: { externalRef: 'purchaser-1', ...r['purchaser'] } }) },
} satisfies Record<string, Optional>;
type OptionalName = keyof typeof OPTIONAL;
const NAMES = Object.keys(OPTIONAL) as OptionalName[];

/** Domestic trips of the fixtures (one leg, a connection, a night train, a through fare) and the international one. */
const TRIPS: TripName[] = ['sto-gbg-0800', 'upp-sto-gbg', 'sto-mal-ic', 'sto-lul-nt', 'mal-sto-ic-then-st', 'sto-cph-en'];

/** A fixture trip without the optional fields (the international trip keeps its `isPartOfInternationalTrip: true`). */
function bareTrip(name: TripName): Json {
  const { externalRef: _ref, isPartOfInternationalTrip: international, ...trip } = fixtureTrip(name) as Json;
  for (const leg of trip['legs']) {
    const s = leg.timedLeg.service;
    delete s.publishedServiceName;
    s.productCategory = { productCategoryRef: s.productCategory.productCategoryRef };
    s.carriers = s.carriers.map((c: Json) => ({ ref: c.ref }));
  }
  return international ? { isPartOfInternationalTrip: true, ...trip } : trip;
}

let token: Promise<string> | undefined;
/** Bookings made, so that the property shows it got past the offers. */
let booked = 0;
async function call(session: Session, method: string, path: string, body: unknown, requestor: Json = {}) {
  token ??= grantToken((x) => session.send(x), 'demo-reseller', DEMO_SECRETS['demo-reseller']!);
  const headers = {
    authorization: `Bearer ${await token}`,
    requestor: Buffer.from(JSON.stringify({ salesApplication: 'WEB_SE', salesUnitCode: 'TEST', ...requestor })).toString('base64'),
    'content-type': 'application/json',
    'accept-language': 'en-GB',
  };
  const res = await session.send({ method, path, headers, body });
  return { status: res.status, body: res.body as Json };
}

interface Case {
  trip: TripName;
  ages: number[];
  optional: OptionalName[];
}

/** The sale of `c` (offers, then a booking of the first offer), with the optional fields of `with` added. */
async function sale(c: Case, added: readonly OptionalName[]) {
  const optional = added.map((n) => OPTIONAL[n] as Optional);
  const international = c.trip === 'sto-cph-en';
  const requestor = Object.assign({}, ...optional.map((o) => o.requestor ?? {}));
  const refs = c.ages.map((_, i) => `p${i + 1}`);
  let offerRequest: Json = {
    tripSpecifications: [bareTrip(c.trip)],
    anonymousPassengerSpecifications: c.ages.map((age, i) => ({ externalRef: refs[i], type: 'PERSON', age })),
  };
  for (const [i, o] of optional.entries()) if (o.offer && !(international && added[i] === 'domestic')) offerRequest = o.offer(offerRequest);
  const session = await target.open(START);
  try {
    const offers = await call(session, 'POST', '/v3/offers', offerRequest, requestor);
    const offerId = offers.body['offers']?.[0]?.offerId as string | undefined;
    if (offers.status !== 200 || !offerId) return { offers };
    let bookingRequest: Json = {
      externalRef: 'optional-fields',
      offers: [{ offerId, passengerRefs: refs }],
      passengerSpecifications: c.ages.map((age, i) => ({
        externalRef: refs[i],
        type: 'PERSON',
        age,
        gender: 'FEMALE',
        detail: { firstName: `Passenger${i + 1}`, lastName: 'Testsson' },
      })),
      purchaser: { detail: { firstName: 'Anna', lastName: 'Svensson', email: 'anna@example.se', phoneNumber: '+46701234567' } },
    };
    for (const o of optional) if (o.booking) bookingRequest = o.booking(bookingRequest);
    const booking = await call(session, 'POST', '/v3/booking', bookingRequest, requestor);
    if (booking.status === 200) booked++;
    return { offers, booking };
  } finally {
    await session.close();
  }
}

/** What differs between the sale without the optional fields and with them: empty when the decisions are the same. */
async function differences(c: Case): Promise<string[]> {
  const without = await sale(c, []);
  const withThem = await sale(c, c.optional);
  const out: string[] = [];
  for (const step of ['offers', 'booking'] as const) {
    const a = without[step as 'offers'];
    const b = withThem[step as 'offers'];
    if (!a && !b) continue;
    if (!a || !b) {
      out.push(`POST /v3/${step === 'offers' ? 'offers' : 'booking'}: made ${a ? 'without' : 'with'} the optional fields only`);
      continue;
    }
    const d = decisionDifferences(a, b);
    if (d.length === 0) continue;
    // A refusal of what the spec lists as part of the request says so first: that is the finding, not its consequences.
    const refusal =
      b.status >= 400 && a.status < 400
        ? `\n    refused with them, accepted without: ${b.status} ${b.body['code']} ${b.body['detail'] ?? b.body['title']}`
        : '';
    out.push(`POST /v3/${step === 'offers' ? 'offers' : 'booking'} (without ≠ with):${refusal}\n    ${d.slice(0, 8).join('\n    ')}`);
  }
  return out.length === 0 ? [] : [`${c.trip}, ages ${c.ages.join(', ')}, with ${c.optional.map((n) => `${n} (spec ${OPTIONAL[n].spec})`).join(', ')}:`, ...out];
}

describe('a sale with and without the optional fields the spec lists', () => {
  // One field at a time, on one trip: which field changes a decision, named on its own.
  for (const name of NAMES)
    it(`gets the same decisions with ${OPTIONAL[name].spec} as without`, async () => {
      const before = booked;
      const d = await differences({ trip: 'sto-gbg-0800', ages: [35, 10], optional: [name] });
      if (d.length > 0) expect.fail(d.join('\n  '));
      // Both sales got as far as a booking: the same decisions are not two refusals alike.
      expect(booked - before).toBe(2);
    });

  const settings = { seed: seed(), numRuns: runs(20) };
  it(`gets the same decisions with any of them, on any trip, for any passengers (seed ${settings.seed})`, async () => {
    console.info(`optional-fields: seed ${settings.seed}, ${settings.numRuns} runs`);
    booked = 0;
    const cases = fc.record({
      trip: fc.constantFrom(...TRIPS),
      ages: fc.array(fc.integer({ min: 0, max: 90 }), { minLength: 1, maxLength: 3 }),
      optional: fc.subarray(NAMES, { minLength: 1 }),
    });
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const d = await differences(c);
        if (d.length > 0) throw new Error(d.join('\n  '));
      }),
      settings,
    );
    expect(booked).toBeGreaterThan(settings.numRuns);
  }, 60_000);
});
