import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Code and docs say what is and why, citing the spec; they never point at the tracker or the story of their own
 * writing. Issue numbers mean nothing to a reader of the repository (and nothing at all once it moves).
 */
const roots = ['engine', 'machines', 'adapters', 'bench', 'test', 'rules', 'docs', 'examples', 'scenarios', 'schemas', '.ci', 'bin', 'README.md'];
const text = /\.(ts|cjs|js|mjs|md|yaml|yml|json|sh)$|^run$/;
const issueReference = /\bissues? #?\d+|(?<![\w&])#\d{2}\b(?!\d)/i;

function* filesUnder(path: string): Generator<string> {
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
    for (const entry of readdirSync(path)) if (entry !== 'node_modules') yield* filesUnder(join(path, entry));
  } else if (text.test(path.split('/').pop()!)) {
    yield path;
  }
}

describe('no issue numbers in code or docs', () => {
  it('no file names an issue (issue 9, issues 7, 10, #18)', () => {
    const found: string[] = [];
    for (const root of roots) {
      for (const file of filesUnder(root)) {
        if (file === join('test', 'no-history.test.ts')) continue;
        readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            const hit = issueReference.exec(line);
            if (hit) found.push(`${file}:${i + 1}: ${hit[0]}`);
          });
      }
    }
    expect(found).toEqual([]);
  });
});
