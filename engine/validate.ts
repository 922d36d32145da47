import type { z } from 'zod';
import { pointerOf, violation, type ProblemPointer } from './violation.ts';

/**
 * Validates a request body against its schema. Every problem becomes a pointer of one 86001 Problem
 * (CONTRACT §5), so a client sees all of its mistakes at once, each at its field.
 */
export function parseRequest<S extends z.ZodType>(schema: S, body: unknown, at = '#'): z.infer<S> {
  const prefix = at.replace(/^#\/?/, '').split('/').filter(Boolean);
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const pointers: ProblemPointer[] = result.error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ requestPointer: pointerOf([...prefix, ...issue.path, key]), detail: `unknown field "${key}"` }))
      : [{ requestPointer: pointerOf([...prefix, ...issue.path]), detail: issue.message }],
  );
  const first = pointers[0]!;
  throw violation('86001', { reason: `${first.requestPointer.slice(2) || 'body'}: ${first.detail}` }, pointers);
}
