import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { createEngine, type DecisionName, type RuleSet } from '../../engine/index.ts';
import { differingCases, simulateCases } from './simulate.ts';
import { fixtureTrips } from './trips.ts';

/**
 * The requests a suggested scenario may send, in as few words as a scenario writes them: which fixture trips, who
 * travels (ages and reduction cards), in which class; or a refund of one adult's ticket. First those the decision's
 * boundary cases call for (the cases where the mutant decides otherwise: their ages, party sizes, classes, trip
 * counts, overrule codes), then a grid of every kind of passenger alone and with an adult, and of families, on every
 * kind of trip, then random ones drawn with a fixed seed.
 */
export interface Probe {
  trips: string[];
  passengers: Array<{ age: number; cards?: string[] }>;
  travelClass?: 'FIRST' | 'SECOND';
  /** Booked, its tickets issued and a refund offered for them (or the ticket alone), sold through this sales application. */
  refund?: { salesApplication: string; flexibility: 'NON_FLEXIBLE' | 'FULL_FLEXIBLE'; overruleCode?: string; ticketAlone?: boolean };
}

export interface ProbeTrip {
  name: string;
  /** The fixture file it is written in, a name in the fixtures folder. */
  file: string;
  /** Product categories of its legs, in order: `ST`, `IC+ST`. */
  categories: string;
}

/** The fixture trips a probe may name: the first of each sequence of product categories (trips.yaml's first). */
export function probeTrips(fixtures: string): ProbeTrip[] {
  const all = fixtureTrips(fixtures).sort((a, b) => Number(b.file === 'trips.yaml') - Number(a.file === 'trips.yaml'));
  const out = new Map<string, ProbeTrip>();
  for (const { name, file, trip } of all) {
    const categories = trip.legs.map((l) => /[^:]+$/.exec(l.timedLeg.service.productCategory?.productCategoryRef ?? '')?.[0] ?? '?').join('+');
    if (!out.has(categories)) out.set(categories, { name, file, categories });
  }
  return [...out.values()];
}

/** What the search tries, from `suggest-probes.yaml` in the fixtures: the ages, families and sales applications. */
const Search = z.strictObject({
  adult: z.number().int().min(0),
  ages: z.array(z.number().int().min(0)).min(1),
  families: z.array(z.array(z.number().int().min(0)).min(1)),
  largestParty: z.number().int().min(1),
  mostTrips: z.number().int().min(1),
  refunds: z.strictObject({ salesApplications: z.array(z.string()).min(1), overruleCodes: z.array(z.string()) }),
});
export type Search = z.infer<typeof Search>;

export function searchOf(fixtures: string): Search {
  return Search.parse(parse(readFileSync(join(fixtures, 'suggest-probes.yaml'), 'utf8')));
}

type Passenger = Probe['passengers'][number];

/** One passenger of each internal passenger type, as the rules type them: the first age and card that gives it. */
function typedPassengers(rules: RuleSet): Map<string, Passenger> {
  const cards = [undefined, ...Object.keys(rules.cards.reductionCards)];
  const cases = cards.flatMap((card) => Array.from({ length: 100 }, (_, age) => ({ age, typingCard: card ?? 'NONE' })));
  const out = new Map<string, Passenger>();
  for (const c of simulateCases(createEngine({ rules }), 'passengerType', cases)) {
    const type = (c.outcome as { internalType?: string } | null)?.internalType;
    const card = c.facts['typingCard'] as string;
    if (type && !out.has(type)) out.set(type, { age: c.facts['age'] as number, ...(card !== 'NONE' ? { cards: [card] } : {}) });
  }
  return out;
}

/**
 * A boundary case where the two rule sets decide differently, said as parties (alone or as many as the case counts,
 * and with an adult, who grants a child the family discount), class, trip count and product category.
 */
function probesOfCase(facts: Record<string, unknown>, typed: Map<string, Passenger>, tdtCard: string | undefined, search: Search) {
  let passenger: Passenger = { age: search.adult };
  if (typeof facts['internalType'] === 'string') passenger = { ...(typed.get(facts['internalType']) ?? passenger) };
  if (typeof facts['age'] === 'number') passenger = { ...passenger, age: facts['age'] };
  if (typeof facts['typingCard'] === 'string' && facts['typingCard'] !== 'NONE') passenger = { ...passenger, cards: [facts['typingCard']] };
  const tdt =
    tdtCard !== undefined &&
    (facts['trafficDisturbanceTicket'] === true || facts['trafficDisturbanceTickets'] === 'ALL' || facts['trafficDisturbanceTickets'] === 'SOME');
  const count = typeof facts['passengerCount'] === 'number' ? Math.max(1, Math.min(facts['passengerCount'], search.largestParty)) : 1;
  const adults = (n: number): Passenger[] => Array.from({ length: n }, () => ({ age: search.adult }));
  const parties = [[passenger, ...adults(count - 1)], ...(count === 1 ? [[passenger, ...adults(1)]] : [])].map((party) =>
    party.map((p, i) => (tdt && (i === 0 || facts['trafficDisturbanceTickets'] === 'ALL') ? { ...p, cards: [...(p.cards ?? []), tdtCard] } : p)),
  );
  const travelClass = facts['travelClass'] === 'FIRST' || facts['travelClass'] === 'SECOND' ? (facts['travelClass'] as Probe['travelClass']) : undefined;
  return {
    probes: parties.map((passengers) => ({ passengers, ...(travelClass ? { travelClass } : {}) })),
    trips: typeof facts['tripCount'] === 'number' ? Math.max(1, Math.min(facts['tripCount'], search.mostTrips)) : 1,
    ...(typeof facts['productCategory'] === 'string' ? { category: facts['productCategory'] } : {}),
  };
}

export function boundaryProbes(original: RuleSet, mutant: RuleSet, decision: DecisionName, trips: readonly ProbeTrip[], search: Search): Probe[] {
  return caseProbes(original, differingCases(original, mutant, decision), trips, search);
}

/** The requests that ask a decision these cases' facts, as far as the facts say who travels on what. */
export function caseProbes(original: RuleSet, cases: Iterable<Record<string, unknown>>, trips: readonly ProbeTrip[], search: Search): Probe[] {
  const typed = typedPassengers(original);
  const tdtCard = Object.entries(original.cards.reductionCards).find(([, c]) => c.effect === 'trafficDisturbanceTicket')?.[0];
  const out: Probe[] = [];
  for (const facts of cases) {
    const { probes, trips: count, category } = probesOfCase(facts, typed, tdtCard, search);
    for (const trip of trips.filter((t) => category === undefined || t.categories.split('+').includes(category)))
      for (const probe of probes) out.push({ ...probe, trips: Array.from({ length: count }, () => trip.name) });
  }
  return out;
}

/** Every kind of passenger alone and with an adult, with each card, on each trip: the same for every mutant. */
export function gridProbes(rules: RuleSet, trips: readonly ProbeTrip[], search: Search): Probe[] {
  const cards = [undefined, ...Object.keys(rules.cards.reductionCards)];
  const out: Probe[] = [];
  for (const trip of trips)
    for (const card of cards)
      for (const age of search.ages) {
        const p = { age, ...(card ? { cards: [card] } : {}) };
        out.push({ trips: [trip.name], passengers: [p] }, { trips: [trip.name], passengers: [p, { age: search.adult }] });
      }
  // Families: the grants of one adult, of two, and an infant on the lap who takes none.
  for (const trip of trips) for (const ages of search.families) out.push({ trips: [trip.name], passengers: ages.map((age) => ({ age })) });
  return out;
}

/**
 * Random parties of one to four, on random trips and classes, drawn with fast-check from a fixed seed (so a run's
 * suggestions are the same every time). fast-check is a development dependency: where it is not installed (an
 * installed package) there are no random probes.
 */
export async function randomProbes(rules: RuleSet, trips: readonly ProbeTrip[], runs: number, seed: number): Promise<Probe[]> {
  let fc: typeof import('fast-check').default;
  try {
    fc = (await import('fast-check')).default;
  } catch {
    return [];
  }
  const card = fc.option(fc.constantFrom(...Object.keys(rules.cards.reductionCards)), { nil: undefined });
  const passenger = fc.record({ age: fc.integer({ min: 0, max: 99 }), card }).map(({ age, card }) => ({ age, ...(card ? { cards: [card] } : {}) }));
  const probe = fc
    .record({
      trip: fc.constantFrom(...trips.map((t) => t.name)),
      passengers: fc.array(passenger, { minLength: 1, maxLength: 4 }),
      travelClass: fc.option(fc.constantFrom('FIRST' as const, 'SECOND' as const), { nil: undefined }),
    })
    .map(({ trip, passengers, travelClass }): Probe => ({ trips: [trip], passengers, ...(travelClass ? { travelClass } : {}) }));
  return fc.sample(probe, { seed, numRuns: runs });
}

/**
 * Refunds of one adult's second-class ticket on the first fixture trip (a ticket and its seat), flexible or not,
 * through the web and an agent, with no overrule code and with each the boundary cases name; and of the ticket
 * without its seat.
 */
export function refundProbes(original: RuleSet, mutant: RuleSet, decision: DecisionName, trips: readonly ProbeTrip[], search: Search): Probe[] {
  const codes = new Set<string | undefined>([undefined, ...search.refunds.overruleCodes]);
  for (const facts of differingCases(original, mutant, decision))
    if (typeof facts['overruleCode'] === 'string' && facts['overruleCode'] !== 'NONE') codes.add(facts['overruleCode']);
  const out: Probe[] = [];
  for (const salesApplication of search.refunds.salesApplications)
    for (const flexibility of ['NON_FLEXIBLE', 'FULL_FLEXIBLE'] as const)
      for (const overruleCode of codes)
        out.push({
          trips: [trips[0]!.name],
          passengers: [{ age: search.adult }],
          travelClass: 'SECOND',
          refund: { salesApplication, flexibility, ...(overruleCode ? { overruleCode } : {}) },
        });
  // A part of a ticket: its admission without the seat that goes with it.
  out.push({
    trips: [trips[0]!.name],
    passengers: [{ age: search.adult }],
    travelClass: 'SECOND',
    refund: { salesApplication: search.refunds.salesApplications[0]!, flexibility: 'FULL_FLEXIBLE', ticketAlone: true },
  });
  return out;
}

const PURCHASER = { detail: { firstName: 'Anna', lastName: 'Svensson', email: 'anna.svensson@example.se', phoneNumber: '+46701234567' } };

/**
 * The probe as scenario steps, the last the one whose answer counts: an offers request, or for a refund the
 * offers, the booking, its fulfillments and the refund offer. `n` keeps the variables of probes sent in one
 * scenario apart.
 */
export function probeSteps(probe: Probe, n = 0): Array<Record<string, unknown>> {
  const r = probe.refund;
  if (!r) return [{ post: '/v3/offers', body: probeBody(probe) }];
  const as = { salesApplication: r.salesApplication };
  const refs = probe.passengers.map((_, i) => `p${i + 1}`);
  return [
    {
      ...as,
      post: '/v3/offers',
      body: { ...probeBody(probe), offerSearchCriteria: { travelClasses: [probe.travelClass ?? 'SECOND'], flexibilities: [r.flexibility] } },
      save: { [`offer${n}`]: 'offers[0].offerId' },
    },
    {
      ...as,
      post: '/v3/booking',
      body: {
        externalRef: `refund-${n}`,
        offers: [{ offerId: `\${offer${n}}`, passengerRefs: refs }],
        passengerSpecifications: { $passengerSpecifications: probe.passengers.map((p) => p.age) },
        purchaser: PURCHASER,
      },
      save: { [`booking${n}`]: 'booking.id' },
    },
    { ...as, post: `/v3/bookings/\${booking${n}}/fulfillments`, save: { [`ticket${n}`]: 'fulfillments[0].id', [`seat${n}`]: 'fulfillments[1].id' } },
    {
      ...as,
      post: `/v3/bookings/\${booking${n}}/refund-offers`,
      body: {
        fulfillmentIds: r.ticketAlone ? [`\${ticket${n}}`] : [`\${ticket${n}}`, `\${seat${n}}`],
        ...(r.overruleCode ? { overruleCode: r.overruleCode } : {}),
      },
    },
  ];
}

/** The probe as a scenario step's body: fixture trips by name, passengers p1…pN. */
function probeBody(probe: Probe): Record<string, unknown> {
  const withCards = probe.passengers.some((p) => p.cards?.length);
  return {
    tripSpecifications: probe.trips.map((name) => ({ $trip: name })),
    // Ages alone are written as the scenarios write them (docs/scenarios.md): the same passengers p1…pN.
    anonymousPassengerSpecifications: withCards
      ? probe.passengers.map((p, i) => ({
          externalRef: `p${i + 1}`,
          type: 'PERSON',
          age: p.age,
          ...(p.cards?.length ? { cards: p.cards.map((code) => ({ type: 'REDUCTION_CARD', code })) } : {}),
        }))
      : { $passengers: probe.passengers.map((p) => p.age) },
    ...(probe.travelClass ? { offerSearchCriteria: { travelClasses: [probe.travelClass] } } : {}),
  };
}

/** Who travels on what, in words: `a 17-year-old with SWE_STUDENT and a 40-year-old on sto-gbg-0800, FIRST class`. */
export function probeWords(probe: Probe): string {
  const r = probe.refund;
  if (r)
    return `a refund of ${r.ticketAlone ? 'the ticket alone (not its seat) of ' : ''}${probeWordsOf({ ...probe, refund: undefined })}, ${r.flexibility}, sold through ${r.salesApplication}${r.overruleCode ? `, overrule code ${r.overruleCode}` : ''}`;
  return probeWordsOf(probe);
}

function probeWordsOf(probe: Probe): string {
  const counted = new Map<string, number>();
  for (const p of probe.passengers) {
    const one = `${p.age}-year-old${p.cards?.length ? ` with ${p.cards.join(', ')}` : ''}`;
    counted.set(one, (counted.get(one) ?? 0) + 1);
  }
  const who = [...counted].map(([one, n]) => (n === 1 ? `a ${one}` : `${n} × ${one}`));
  const people = who.length > 1 ? `${who.slice(0, -1).join(', ')} and ${who.at(-1)}` : who[0]!;
  const trips = [...new Set(probe.trips)].map((t) => (probe.trips.length > 1 ? `${probe.trips.length} × ${t}` : t));
  return `${people} on ${trips.join(', ')}${probe.travelClass ? `, ${probe.travelClass} class` : ''}`;
}
