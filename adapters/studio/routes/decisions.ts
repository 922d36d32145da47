import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { factCatalogue, phrase, readRuleSources, RuleViolation, type DecisionName, type Engine, type RuleSet } from '../../../engine/index.ts';
import { parseRequest } from '../../../engine/rules/index.ts';
import { TableEdit, type PlacedProblem } from '../../http/openapi/studio-schemas.ts';
import { exampleResults } from '../examples.ts';
import { checkEdited, editedText, versionOf } from '../tables.ts';
import type { Studio } from './studio.ts';

/** The decision a path names; 404 for a name the rules have no table for. */
export function decisionOf(engine: Engine, name: string): DecisionName {
  if (!Object.hasOwn(factCatalogue, name) || !Object.hasOwn(engine.rules.decisions, name)) {
    throw new RuleViolation('RESOURCE_NOT_FOUND', { resource: phrase('resource-decision'), id: name });
  }
  return name as DecisionName;
}

/** The decision's file as it is on disk now: what the page shows, and what an edit starts from. */
export function fileOf(studio: Studio, rules: RuleSet, decision: DecisionName) {
  const file = rules.decisions[decision].file;
  const path = join(studio.rulesDir, basename(file));
  return { file, path, text: readFileSync(path, 'utf8') };
}

/** The whole rule set with the edited table in its file, and `check`'s problems placed at their cells. */
export function edited(studio: Studio, engine: Engine, decision: DecisionName, body: unknown) {
  const edit = parseRequest(TableEdit, body);
  const { file, path, text } = fileOf(studio, engine.rules, decision);
  if (edit.version !== undefined && edit.version !== versionOf(text)) throw new RuleViolation('X_RULES_CHANGED', { file: basename(file) });
  const next = editedText(file, text, edit);
  const sources = readRuleSources(studio.rulesDir);
  const checked: { rules?: RuleSet; problems: PlacedProblem[] } =
    next.problems.length > 0 ? { problems: next.problems } : checkEdited(sources, file, next.text);
  const examples = next.problems.length > 0 ? [] : exampleResults(sources, file, next.text, decision, checked.rules);
  return { edit, file, path, text: next.text, changed: next.text !== text, examples, ...checked };
}

/** The refusal of an edit `check` finds problems in: counted in the Problem, each placed at its row and cell. */
export function rulesRefused(problems: readonly PlacedProblem[]): RuleViolation {
  const cells = new Set(problems.filter((p) => p.row !== undefined).map((p) => `#/rows/${p.row}${p.cell ? `/${p.cell.replace('.', '/')}` : ''}`));
  return new RuleViolation(
    'X_RULES_REFUSED',
    { count: problems.length },
    [...cells].map((requestPointer) => ({ requestPointer })),
  );
}
