import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { compileRuleSet, defaultRulesDir, loadRules, RuleFileError, type RuleSet } from '../../engine/index.ts';

/** A rule set from a folder, or from the rules/ folder of a git revision (`HEAD~1`, `main`, a commit). */
export function ruleSetAt(where: string): RuleSet {
  if (existsSync(where) && statSync(where).isDirectory()) return loadRules(where);
  const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  let top: string;
  try {
    top = git('rev-parse', '--show-toplevel').trim();
    git('rev-parse', '--verify', '--quiet', `${where}^{commit}`);
  } catch {
    throw new RuleFileError([`${where}: neither a folder nor a git revision`]);
  }
  const folder = relative(top, defaultRulesDir());
  const files = git('ls-tree', '--name-only', `${where}:${folder}`)
    .split('\n')
    .filter((f) => /\.ya?ml$/.test(f));
  return compileRuleSet(files.map((f) => ({ file: `${where}:${folder}/${f}`, text: git('show', `${where}:${folder}/${f}`) })));
}
