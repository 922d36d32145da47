import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileRuleSet, type RuleSet, type RuleSource } from './ruleset.ts';

/**
 * Reads every `*.yaml` in a rules directory and compiles it. This is the one place the engine touches
 * files, and it runs once, before serving (DESIGN principle 1).
 */
export function readRuleSources(dir: string = defaultRulesDir()): RuleSource[] {
  const root = resolve(dir);
  return readdirSync(root)
    .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
    .sort()
    .map((f) => ({ file: relative(process.cwd(), join(root, f)) || f, text: readFileSync(join(root, f), 'utf8') }));
}

export function loadRules(dir?: string): RuleSet {
  return compileRuleSet(readRuleSources(dir));
}

/** The rules/ folder shipped with the package (works from the sources and from dist/). */
export function defaultRulesDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'rules'))) return join(dir, 'rules');
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the rules/ folder of signalbox');
    dir = up;
  }
}
