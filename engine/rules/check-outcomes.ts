import type { z } from 'zod';
import { withExpressionsAs } from './expressions.ts';
import { RejectOutcome, type outcomeCatalogue } from './outcomes.ts';
import type { DecisionFile, ErrorCatalogue } from './schemas.ts';
import type { SourceFile } from './source.ts';

/**
 * Load-time checks of what rows say (`then`), each problem as `file:line:col: message`: every row against
 * its decision's outcome schema (outcomes.ts), and every reject row against errors.yaml (the code exists and
 * its parameters fill every {placeholder} of both texts).
 */
type OutcomeEntry = (typeof outcomeCatalogue)[keyof typeof outcomeCatalogue];

/** Date expressions are checked with the facts (check.ts); here they stand for the instant they give. */
const SOME_INSTANT = '2026-01-01T00:00:00Z';
const article = (kind: string) => (/^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`);
const shown = (v: unknown) => JSON.stringify(v);

function message(issue: z.core.$ZodIssue & { input?: unknown }, keys: readonly string[], decision: string): { path: PropertyKey[]; text: string } {
  const path = issue.path;
  const name = path.map(String).join('.');
  switch (issue.code) {
    case 'unrecognized_keys':
      return { path: [...path, issue.keys[0]!], text: `unknown outcome key "${issue.keys[0]}"; ${decision} outcomes have ${keys.join(', ')}` };
    case 'invalid_type':
      return issue.input === undefined
        ? { path, text: `the outcome needs ${name} (${article(issue.expected)})` }
        : { path, text: `${name} is ${article(issue.expected)}; ${shown(issue.input)} is not` };
    case 'invalid_value':
      return {
        path,
        text: `${name} is ${issue.values.length === 1 ? shown(issue.values[0]) : `one of ${issue.values.join(', ')}`}; ${shown(issue.input)} is not`,
      };
    case 'too_small':
      return { path, text: `${name} is at least ${String(issue.minimum)}; ${shown(issue.input)} is not` };
    case 'too_big':
      return { path, text: `${name} is at most ${String(issue.maximum)}; ${shown(issue.input)} is not` };
    default:
      return { path, text: `${name}: ${issue.message}` };
  }
}

export function checkOutcomes(table: DecisionFile, source: SourceFile, entry: OutcomeEntry | undefined): string[] {
  if (!entry) return [];
  const problems: string[] = [];
  table.rows.forEach((row, i) => {
    const rejects = 'reject' in row.then;
    if (rejects && !entry.rejects) {
      problems.push(
        `${source.at(['rows', i, 'then', 'reject'])}: ${table.decision} never refuses; its rows say ${Object.keys(entry.outcome.shape).join(', ')}`,
      );
      return;
    }
    const schema: z.ZodObject = rejects ? RejectOutcome : entry.outcome;
    const keys = Object.keys(schema.shape);
    const parsed = schema.safeParse(withExpressionsAs(row.then, SOME_INSTANT), { reportInput: true });
    for (const issue of parsed.success ? [] : parsed.error.issues) {
      const { path, text } = message(issue, keys, table.decision);
      problems.push(`${source.at(['rows', i, 'then', ...path])}: ${text}`);
    }
  });
  return problems;
}

/**
 * A rejection's texts are filled from the row's params, the decision's facts and the caller's sales
 * application (engine/model/context.ts `enforce`); a placeholder none of them names would reach the caller as "{name}".
 */
export function checkRejects(table: DecisionFile, source: SourceFile, factNames: readonly string[], errors: ErrorCatalogue): string[] {
  const problems: string[] = [];
  table.rows.forEach((row, i) => {
    const code = row.then['reject'];
    if (typeof code !== 'string') return;
    const entry = errors[code];
    if (!entry) {
      problems.push(`${source.at(['rows', i])}: decision ${table.decision} rejects with ${code}, which errors.yaml does not define`);
      return;
    }
    const params = (row.then['params'] ?? {}) as Record<string, unknown>;
    const given = new Set([...Object.keys(params), ...factNames, 'salesApplication']);
    const texts = [entry.title, entry.detail].flatMap((t) => Object.values(t));
    const missing = [...new Set(texts.flatMap((t) => [...t.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)))].filter((p) => !given.has(p));
    if (missing.length > 0) {
      const at = source.at(['rows', i, 'then', 'params' in row.then ? 'params' : 'reject']);
      problems.push(`${at}: ${code} needs ${missing.map((m) => `{${m}}`).join(', ')} in its text; give ${missing.length === 1 ? 'it' : 'them'} in params`);
    }
  });
  return problems;
}
