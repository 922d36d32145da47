import { z } from 'zod';

/**
 * The shape of GET /studio/api/graph: which decision feeds which, and what each finally decides in an answer
 * (engine/rules/graph.ts). The page draws it, `signalbox graph --mermaid` prints it for docs/rules-language.md.
 */

const GraphNode = z.object({
  id: z.string().describe('A decision name (`passengerType`), or a sink as `sink:<name>` (`sink:admissionPrice`).'),
  kind: z.enum(['decision', 'sink']),
  label: z.string().describe('The decision name, or what the sink is in words ("Admission price").'),
  title: z.string().optional().describe("The decision table's title."),
  file: z.string().optional().describe("The decision table's file."),
});

const GraphEdge = z.object({
  from: z.string(),
  to: z.string(),
  facts: z.array(z.string()).describe('The facts of `to` computed from the outcome of `from`; empty when `to` is a sink.'),
});

export const DecisionGraph = z.object({
  nodes: z.array(GraphNode).describe('Decisions in the fact catalogue\u2019s order, then the sinks.'),
  edges: z.array(GraphEdge),
});
export type DecisionGraph = z.infer<typeof DecisionGraph>;
