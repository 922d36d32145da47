import { basename } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import type { RuleSource } from '../../engine/index.ts';

/**
 * What a reviewer reads first: each rule file that differs between two rule sets, as a unified diff with three lines
 * of context (`git diff`'s form), files by their name in rules/; a file added or removed is diffed against nothing.
 */
export interface RuleFileDiff {
  file: string;
  change: 'changed' | 'added' | 'removed';
  patch: string;
}

export function ruleFilesDiff(from: readonly RuleSource[], to: readonly RuleSource[]): RuleFileDiff[] {
  const byName = (sources: readonly RuleSource[]) => new Map(sources.map((s) => [basename(s.file), s.text]));
  const [a, b] = [byName(from), byName(to)];
  const out: RuleFileDiff[] = [];
  for (const file of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    const [was, is] = [a.get(file), b.get(file)];
    if (was === is) continue;
    const change = was === undefined ? 'added' : is === undefined ? 'removed' : 'changed';
    const patch = createTwoFilesPatch(`a/rules/${file}`, `b/rules/${file}`, was ?? '', is ?? '', undefined, undefined, { context: 3 });
    // The header's first line (`Index:` and a rule of `=`) says nothing the file names do not.
    out.push({ file, change, patch: patch.replace(/^={10,}\n/m, '') });
  }
  return out;
}
