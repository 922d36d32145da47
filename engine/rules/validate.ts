import { z } from 'zod';
import type { LocalizedText } from './schemas.ts';
import { phrase, pointerOf, violation, type ProblemPointer } from './violation.ts';

/**
 * Validates a request body against its schema. Every problem becomes a pointer of one 86001 Problem
 * (CONTRACT §5), so a client sees all of its mistakes at once, each at its field.
 */
export function parseRequest<S extends z.ZodType>(schema: S, body: unknown, at = '#'): z.infer<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const prefix = at.replace(/^#\/?/, '').split('/').filter(Boolean);
  // Parsed again for the issues' inputs, which zod's Swedish messages name: asking for them on every parse would
  // slow down the parse of every valid body (docs/performance.md).
  const { issues } = schema.safeParse(body, { reportInput: true }).error!;
  const pointers: ProblemPointer[] = issues.flatMap((issue): ProblemPointer[] =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ requestPointer: pointerOf([...prefix, ...issue.path, key]), detail: phrase('unknown-field', { field: key }) }))
      : [{ requestPointer: pointerOf([...prefix, ...issue.path]), detail: inBothLanguages(issue) }],
  );
  const first = pointers[0]!;
  throw violation('86001', { reason: phrase('field-invalid', { field: first.requestPointer.slice(2) || 'body', problem: first.detail }) }, pointers);
}

const swedish = z.locales.sv().localeError;

/**
 * An issue in both languages: zod's message as made (English, or the schema's own words), and zod's Swedish
 * locale for the same issue (a schema's own English words are not translated: Swedish callers get zod's).
 */
export function inBothLanguages(issue: z.core.$ZodIssue): LocalizedText {
  const made = swedish(issue as never);
  return { 'en-GB': issue.message, 'sv-SE': (typeof made === 'string' ? made : made?.message) ?? issue.message };
}
