import type { WarningCatalogue, Language } from './rules/schemas.ts';
import { fill, RuleViolation } from './violation.ts';

/**
 * A Problem lists at most `limit` pointers (rules/limits.yaml problemPointerLimit); a last pointer at `#` says how
 * many more there are. A small request with many mistakes must not become an answer many times its size.
 */
export function limitPointers(error: RuleViolation, limit: number, texts: WarningCatalogue, language: Language): RuleViolation {
  if (error.pointers.length <= limit) return error;
  const more = error.pointers.length - limit;
  const text = texts['X_MORE_POINTERS']?.detail[language] ?? '{count} more';
  const pointers = [...error.pointers.slice(0, limit), { requestPointer: '#', detail: fill(text, { count: more }, language) }];
  return new RuleViolation(error.code, error.params, pointers, error.traces);
}
