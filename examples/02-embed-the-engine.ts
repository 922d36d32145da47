// Embedding the engine: one journey sold end to end inside your own program, with no HTTP server and no store
// (docs/embedding.md). In your project, `npm install @signalbox/engine` and import from '@signalbox/engine'
// instead of '../engine/index.ts'.
//
//   npx tsx examples/02-embed-the-engine.ts
//
// prints: /^2 offers; decisions: offerRequestLimits, passengerType, /m
// prints: /^booking \S+: FULFILLED, \d+ SEK, 2 tickets$/m
// prints: refused: 86001 Valideringsfel (#/externalRef)
import { createEngine, RuleViolation, type Call, type StoredOffer } from '../engine/index.ts';

// The rules/ shipped with the package; createEngine({ rulesDir: 'my-rules' }) reads your own copy instead.
const engine = createEngine();

// Every call says who asks, the time and where new ids come from: the engine reads no clock and no randomness.
let lastId = 0;
const call: Call = {
  requestor: { client: 'demo-reseller', salesApplication: 'WEB_SE', salesUnitCode: 'X', language: 'en-GB' },
  now: new Date('2026-11-20T10:00:00+01:00'),
  ids: { next: (kind) => `${kind}-${++lastId}` },
};

// An OSDM OfferCollectionRequest: one adult on the 08:00 Stockholm C–Göteborg C of 1 December 2026.
const offerRequest = {
  tripSpecifications: [
    {
      legs: [
        {
          externalRef: 'leg-1',
          timedLeg: {
            start: {
              stopPlaceRef: { objectType: 'StopPlaceRef', stopPlaceRef: 'urn:x_swe:stn:740000001' },
              serviceDeparture: { timetabledTime: '2026-12-01T08:00:00+01:00' },
            },
            end: {
              stopPlaceRef: { objectType: 'StopPlaceRef', stopPlaceRef: 'urn:x_swe:stn:740000002' },
              serviceArrival: { timetabledTime: '2026-12-01T11:00:00+01:00' },
            },
            service: { vehicleNumbers: ['421'], productCategory: { productCategoryRef: 'urn:x_swe:sbc:ST' }, carriers: [{ ref: 'urn:x_swe:carrier:74' }] },
          },
        },
      ],
    },
  ],
  anonymousPassengerSpecifications: [{ externalRef: 'anna', type: 'PERSON', age: 46 }],
  offerSearchCriteria: { currency: 'SEK', travelClasses: ['SECOND'], flexibilities: ['NON_FLEXIBLE'] },
};

// 1. Offers: what to keep (your store) and what to answer, with the trace of every rule decision behind it.
const quoted = engine.offers(call, offerRequest);
const offers = new Map<string, StoredOffer>(quoted.value.offers.map((o) => [o.offerId, o]));
const [offer] = quoted.value.offers;
if (!offer) throw new Error('no offer for this trip');
console.log(`${offers.size} offers; decisions: ${[...new Set(quoted.traces.map((t) => t.decision))].join(', ')}`);

// 2. A provisional booking of the first offer: the request is validated first and names the offers to load.
const bookingRequest = {
  externalRef: 'my-order-1',
  offers: [{ offerId: offer.offerId, passengerRefs: ['anna'] }],
  passengerSpecifications: [{ externalRef: 'anna', type: 'PERSON', age: 46, detail: { firstName: 'Anna', lastName: 'Svensson' } }],
  purchaser: { detail: { firstName: 'Anna', lastName: 'Svensson', email: 'anna.svensson@example.se', phoneNumber: '+46701234567' } },
};
const { request, offerIds } = engine.readBookingRequest(bookingRequest);
// Load them from your store; one it does not have is left out, and book() refuses it as not found.
const loaded = new Map(offerIds.filter((id) => offers.has(id)).map((id) => [id, offers.get(id)!]));
const provisional = engine.book(call, request, loaded).value.booking;

// 3. Confirmed a minute later: the tickets are issued.
const confirmed = engine.confirm({ ...call, now: new Date('2026-11-20T10:01:00+01:00') }, provisional).value;
const answer = engine.renderBooking(confirmed, 'en-GB'); // the OSDM BookingResponse, to send as it is
const { amount, scale, currency } = confirmed.confirmedPrice;
console.log(`booking ${confirmed.id}: ${confirmed.machine.value}, ${amount / 10 ** scale} ${currency}, ${confirmed.fulfillments.length} tickets`);
console.log(JSON.stringify(answer).slice(0, 120));

// A refused request throws a RuleViolation; engine.problem() renders it as an OSDM Problem in either language.
try {
  engine.readBookingRequest({ ...bookingRequest, externalRef: undefined });
} catch (error) {
  if (!(error instanceof RuleViolation)) throw error;
  const problem = engine.problem(error, 'sv-SE');
  console.log(`refused: ${problem.code} ${problem.title} (${problem.pointers?.map((p) => p.requestPointer).join(', ')})`);
}
