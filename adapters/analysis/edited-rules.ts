import { parseDocument } from 'yaml';
import { compileRuleSet, RuleFileError, type RuleSet, type RuleSource } from '../../engine/index.ts';

/**
 * The rule set with one file's text replaced, compiled as `check` compiles it: the rules, or check's problems
 * (`file:line:col: message`). The studio's edits and the mutants are both one file changed.
 */
export function compiledWith(sources: readonly RuleSource[], file: string, text: string): { rules?: RuleSet; problems: readonly string[] } {
  try {
    return { rules: compileRuleSet(sources.map((s) => (s.file === file ? { file, text } : s))), problems: [] };
  } catch (e) {
    if (e instanceof RuleFileError) return { problems: e.problems };
    throw e;
  }
}

/** A table file's text without its `examples:`: a failing example stops `check`, and this shows what the rows decide. */
export function withoutExamples(text: string): string {
  const doc = parseDocument(text);
  doc.delete('examples');
  return doc.toString({ lineWidth: 0 });
}
