import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { factCatalogue, type DecisionName } from '../engine/index.ts';

/**
 * rules/README.md is the analysts' map of rules/: every file is on it, and every decision table has an entry of
 * its own naming the decision, its hit policy, its spec section and every fact its rows may test.
 */
const guide = readFileSync('rules/README.md', 'utf8');
const files = readdirSync('rules')
  .filter((f) => f.endsWith('.yaml'))
  .sort();
const tables = files
  .map((file) => ({ file, doc: parse(readFileSync(`rules/${file}`, 'utf8')) as Record<string, unknown> }))
  .filter(({ doc }) => typeof doc?.['decision'] === 'string');

/** The text under `### \`file\`` up to the next heading. */
function entryOf(file: string): string | undefined {
  const heading = `### \`${file}\`\n`;
  const start = guide.indexOf(heading);
  if (start < 0) return undefined;
  const body = guide.slice(start + heading.length);
  const next = body.search(/^#{2,3} /m);
  return next < 0 ? body : body.slice(0, next);
}

describe('rules/README.md', () => {
  it('names every file of rules/', () => {
    expect(files.filter((file) => !guide.includes(`\`${file}\``))).toEqual([]);
  });

  it.each(tables.map(({ file, doc }) => [file, doc] as const))('has an entry for the decision table %s', (file, doc) => {
    const entry = entryOf(file);
    expect(entry, `rules/README.md has no "### \`${file}\`" entry`).toBeDefined();
    const decision = doc['decision'] as DecisionName;
    expect(entry).toContain(`\`${decision}\``);
    expect(entry).toContain(`hit policy \`${(doc['hitPolicy'] as string | undefined) ?? 'unique'}\``);
    expect(entry).toContain(`spec ${String(doc['spec'])}`);
    const facts = Object.keys(factCatalogue[decision].shape);
    expect(
      facts.filter((fact) => !entry!.includes(`\`${fact}\``)),
      `facts of ${decision} the entry does not name`,
    ).toEqual([]);
  });
});
