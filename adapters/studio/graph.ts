import { decisionGraph, type RuleSet } from '../../engine/index.ts';
import type { DecisionGraph } from '../http/openapi/studio-graph-schemas.ts';

/** The decision graph with each decision's title and file from the serving rules: what the page draws. */
export function graphOf(rules: RuleSet): DecisionGraph {
  const { decisions, sinks, edges } = decisionGraph();
  return {
    nodes: [
      ...decisions.map((d) => ({ id: d, kind: 'decision' as const, label: d, title: rules.decisions[d].title, file: rules.decisions[d].file })),
      ...sinks.map((s) => ({ id: s.id, kind: 'sink' as const, label: s.label })),
    ],
    edges: edges.map((e) => ({ from: e.from, to: e.to, facts: [...e.facts] })),
  };
}
