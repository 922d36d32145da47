import type { DecisionName, FactsOf } from './facts.ts';
import { factCatalogue } from './facts.ts';
import { outcomeCatalogue } from './outcomes.ts';

/**
 * The decision graph: which decision's outcome the engine turns into another decision's fact, and what each decision
 * finally decides for the person asking (a price, a refund, the error answered). Declared here, beside the fact and
 * outcome catalogues, because the wiring lives in engine code an analyst cannot read; test/decision-graph.test.ts
 * changes each decision's outcomes on the scenario corpus and checks that exactly these edges show.
 */

/** What a decision finally shapes in an answer: the places an analyst looks for the effect of a table. */
export const graphSinks = {
  offeredProducts: 'Products offered',
  admissionPrice: 'Admission price',
  reservationPrice: 'Reservation price',
  ancillaryPrice: 'Ancillary price',
  refundAmount: 'Refund amount',
  exchangeFee: 'Exchange fee',
  onHoldTimeLimit: 'On-hold time limit',
  seatAllocation: 'Seat allocation',
  error: 'Error answered',
} as const;
type GraphSink = keyof typeof graphSinks;

/** Per decision and fact: the decisions whose outcomes the engine computes that fact from. Facts not named come from the request, the booking or reference data. */
const factSources: { readonly [D in DecisionName]?: { readonly [F in keyof FactsOf<D>]?: readonly DecisionName[] } } = {
  familyDiscountRole: { internalType: ['passengerType'] },
  fareFactor: { internalType: ['passengerType'], familyDiscount: ['familyDiscountRole'] },
  // Who would lose the family discount is the family discount decided again without the leaving passengers.
  refundGuard: { ungrantedDiscountedChildren: ['familyDiscountRole'] },
  exchangeGuard: { ungrantedDiscountedChildren: ['familyDiscountRole'] },
};

/** Per decision: what its outcome decides in the answer, besides the decisions it feeds. A decision that may refuse also decides the error (outcomes.ts `rejects`). */
const outcomeSinks: Readonly<Record<DecisionName, readonly GraphSink[]>> = {
  // An age no row types is refused (86001): the table's gap is the error.
  passengerType: ['error'],
  fareFactor: ['admissionPrice'],
  familyDiscountRole: [],
  offerRequestLimits: [],
  ancillaryPriceFactor: ['ancillaryPrice'],
  ancillaryGroups: ['ancillaryPrice'],
  travelPassCoverage: ['admissionPrice'],
  nightGender: [],
  productAvailability: ['offeredProducts'],
  refundGuard: [],
  releaseGuard: [],
  refundFee: ['refundAmount'],
  exchangeGuard: ['exchangeFee'],
  onHold: ['onHoldTimeLimit'],
  cleanup: ['refundAmount'],
  reservationPrice: ['reservationPrice'],
  privateGroup: ['seatAllocation'],
};

/** Sinks that follow from others: a refund pays back a share of what each part cost. */
const sinkFlows: ReadonlyArray<readonly [GraphSink, GraphSink]> = [
  ['admissionPrice', 'refundAmount'],
  ['reservationPrice', 'refundAmount'],
  ['ancillaryPrice', 'refundAmount'],
];

export interface GraphEdge {
  /** A decision, or a sink as `sink:<name>`. */
  readonly from: string;
  /** A decision, or a sink as `sink:<name>`. */
  readonly to: string;
  /** The facts of `to` that the outcome of `from` feeds (none for a sink). */
  readonly facts: readonly string[];
}

export interface DecisionGraph {
  readonly decisions: readonly DecisionName[];
  readonly sinks: ReadonlyArray<{ readonly id: string; readonly label: string }>;
  readonly edges: readonly GraphEdge[];
}

const sinkId = (sink: GraphSink): string => `sink:${sink}`;

/** The graph as nodes and edges, decisions in the catalogue's order, each edge once with every fact it feeds. */
export function decisionGraph(): DecisionGraph {
  const decisions = Object.keys(factCatalogue) as DecisionName[];
  const edges = new Map<string, { from: string; to: string; facts: string[] }>();
  const add = (from: string, to: string, fact?: string) => {
    const key = `${from}→${to}`;
    const edge = edges.get(key) ?? { from, to, facts: [] };
    if (fact) edge.facts.push(fact);
    edges.set(key, edge);
  };
  for (const to of decisions)
    for (const [fact, from] of Object.entries<readonly DecisionName[] | undefined>(factSources[to] ?? {})) for (const d of from ?? []) add(d, to, fact);
  for (const from of decisions) {
    for (const sink of outcomeSinks[from]) add(from, sinkId(sink));
    if (outcomeCatalogue[from].rejects) add(from, sinkId('error'));
  }
  for (const [from, to] of sinkFlows) add(sinkId(from), sinkId(to));
  const used = new Set([...edges.values()].map((e) => e.to));
  const sinks = (Object.keys(graphSinks) as GraphSink[]).filter((s) => used.has(sinkId(s))).map((s) => ({ id: sinkId(s), label: graphSinks[s] }));
  return { decisions, sinks, edges: [...edges.values()] };
}
