import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mermaidOf } from '../adapters/cli/graph.ts';
import { graphOf } from '../adapters/studio/graph.ts';
import { loadRules } from '../engine/index.ts';

/** The picture of the decision graph in docs/rules-language.md is the one `signalbox graph --mermaid` prints. */
describe('docs/rules-language.md', () => {
  it('shows the decision graph as `signalbox graph --mermaid` prints it', () => {
    const doc = readFileSync('docs/rules-language.md', 'utf8');
    const block = /```mermaid\n([\s\S]*?)\n```/.exec(doc)?.[1];
    expect(block, 'regenerate with: npx signalbox graph --mermaid').toBe(mermaidOf(graphOf(loadRules('rules'))));
  });
});
