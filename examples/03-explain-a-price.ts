// Why an offer costs what it costs: the engine in-process, and the rule rows behind each passenger's fare.
// A family of an adult (35) and a child (8) in 2nd class: the child travels on the family discount.
//
//   npx tsx examples/03-explain-a-price.ts
//
// prints: /^offer: 2 klass, standardplats, FULL_FLEXIBLE: \d+ SEK$/m
// prints: /^passengerType age=35 → adult \(rules\/passenger-types\.yaml:\d+:\d+\)$/m
// prints: /^fareFactor internalType=CHILD_7_15 familyDiscount=true → family-discount-child \(rules\/fare-factors\.yaml:\d+:\d+\)$/m
import { createEngine } from '../engine/index.ts';

const engine = createEngine(); // the rules/ of this checkout
let n = 0;
const call = {
  requestor: { client: 'example', salesApplication: 'WEB_SE', salesUnitCode: 'WEB', language: 'sv-SE' as const },
  now: new Date('2026-11-20T10:00:00+01:00'), // the engine never reads a clock itself…
  ids: { next: (kind: string) => `${kind}-${++n}` }, // …nor randomness
};
const stop = (code: string, time: string) => ({
  stopPlaceRef: { objectType: 'StopPlaceRef', stopPlaceRef: `urn:x_swe:stn:${code}` },
  [code === '740000001' ? 'serviceDeparture' : 'serviceArrival']: { timetabledTime: time },
});
const offerRequest = {
  tripSpecifications: [
    {
      legs: [
        {
          externalRef: 'leg-1',
          timedLeg: {
            start: stop('740000001', '2026-11-27T08:00:00+01:00'),
            end: stop('740000002', '2026-11-27T11:00:00+01:00'),
            service: {
              publishedServiceName: '421',
              vehicleNumbers: ['421'],
              productCategory: { productCategoryRef: 'urn:x_swe:sbc:ST' },
              carriers: [{ ref: 'urn:x_swe:carrier:74' }],
            },
          },
        },
      ],
    },
  ],
  anonymousPassengerSpecifications: [
    { externalRef: 'parent', type: 'PERSON', age: 35 },
    { externalRef: 'child', type: 'PERSON', age: 8 },
  ],
  offerSearchCriteria: { currency: 'SEK', travelClasses: ['SECOND'], flexibilities: ['FULL_FLEXIBLE'] },
};

const { value, traces } = engine.offers(call, offerRequest);
type Offer = { products: Array<{ summary: string; flexibility: string }>; offerSummary: { minimalPrice: { amount: number; currency: string } } };
for (const offer of value.response['offers'] as Offer[]) {
  const price = offer.offerSummary.minimalPrice;
  console.log(`offer: ${offer.products[0]!.summary}, ${offer.products[0]!.flexibility}: ${price.amount / 100} ${price.currency}`);
}
// Each decision's trace: the facts it saw and the row that fired, with its place in rules/.
const shown = new Set<string>();
for (const trace of traces) {
  if (trace.decision !== 'passengerType' && trace.decision !== 'fareFactor') continue;
  const facts =
    trace.decision === 'passengerType'
      ? `age=${String(trace.facts['age'])}`
      : `internalType=${String(trace.facts['internalType'])} familyDiscount=${String(trace.facts['familyDiscount'])}`;
  const line = `${trace.decision} ${facts} → ${trace.fired.map((f) => `${f.row} (${f.at})`).join(', ')}`;
  if (shown.has(line)) continue;
  shown.add(line);
  console.log(line);
}
