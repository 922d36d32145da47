import type { z } from 'zod';
import { describe, kindOf } from './check.ts';

/** Facts that do not fit a decision, said plainly for an analyst: which fact, what it may be, what it was. */
export class FactsError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(problems.join('\n'));
    this.problems = problems;
    this.name = 'FactsError';
  }
}

function allowed(schema: z.ZodType | undefined): string {
  if (!schema) return 'not a fact of this decision';
  const kind = kindOf(schema);
  return kind.kind === 'number' ? `a whole number from ${kind.min} to ${kind.max}` : describe(kind);
}

export function factProblems(decision: string, facts: z.ZodObject, error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const fact = String(issue.path[0] ?? '');
    const schema = facts.shape[fact] as z.ZodType | undefined;
    if (!fact) return `${decision} needs its facts as an object: ${Object.keys(facts.shape).join(', ')}`;
    const given = (issue as { input?: unknown }).input;
    return given === undefined ? `${decision} needs the fact ${fact}: ${allowed(schema)}` : `${fact} is ${allowed(schema)}; ${JSON.stringify(given)} is not`;
  });
}
