import { parseArgs } from 'node:util';
import { loadRules } from '../../engine/index.ts';
import type { DecisionGraph } from '../http/openapi/studio-graph-schemas.ts';
import { graphOf } from '../studio/graph.ts';

/**
 * `signalbox graph [--mermaid|--json] [--rules DIR]`: which decision feeds which, and what each finally decides. The
 * Mermaid print is the picture in docs/rules-language.md (test/decision-graph-doc.test.ts keeps the two the same).
 */

/** Mermaid ids take no colon: `sink:admissionPrice` is drawn as `sink_admissionPrice`. */
const mermaidId = (id: string) => id.replace(':', '_');

export function mermaidOf(graph: DecisionGraph): string {
  const sinks = graph.nodes.filter((n) => n.kind === 'sink');
  return [
    'flowchart LR',
    ...graph.nodes.map((n) => (n.kind === 'decision' ? `  ${mermaidId(n.id)}["${n.label}"]` : `  ${mermaidId(n.id)}(["${n.label}"])`)),
    ...graph.edges.map((e) => `  ${mermaidId(e.from)} -->${e.facts.length > 0 ? `|${e.facts.join(', ')}|` : ''} ${mermaidId(e.to)}`),
    '  classDef sink fill:#f4f4f4,stroke:#888,stroke-dasharray:4 2',
    `  class ${sinks.map((s) => mermaidId(s.id)).join(',')} sink`,
  ].join('\n');
}

/** The graph as lines a terminal reads: one edge each, with the facts it feeds. */
function textOf(graph: DecisionGraph): string {
  const label = (id: string) => graph.nodes.find((n) => n.id === id)?.label ?? id;
  return graph.edges.map((e) => `${label(e.from)} → ${label(e.to)}${e.facts.length > 0 ? `  (${e.facts.join(', ')})` : ''}`).join('\n');
}

export async function graph(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { mermaid: { type: 'boolean', default: false }, json: { type: 'boolean', default: false }, rules: { type: 'string' } },
  });
  const g = graphOf(loadRules(values.rules));
  process.stdout.write(`${values.json ? JSON.stringify(g, null, 2) : values.mermaid ? mermaidOf(g) : textOf(g)}\n`);
  return 0;
}
