import { phrase, RuleViolation } from './violation.ts';

/**
 * A Problem lists at most `limit` pointers (rules/limits.yaml problemPointerLimit); a last pointer at `#` says how
 * many more there are (the `more-pointers` phrase). A small request with many mistakes must not become an answer
 * many times its size.
 */
export function limitPointers(error: RuleViolation, limit: number): RuleViolation {
  if (error.pointers.length <= limit) return error;
  const pointers = [...error.pointers.slice(0, limit), { requestPointer: '#', detail: phrase('more-pointers', { count: error.pointers.length - limit }) }];
  return new RuleViolation(error.code, error.params, pointers, error.traces);
}
