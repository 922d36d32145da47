import type { z } from 'zod';
import { DecisionFile } from './schemas.ts';
import type { SourceFile } from './source.ts';

/**
 * A decision file whose schema problems all lie in some rows or examples, without those: the other rows can
 * still be checked in the same run, so one typo does not hide the next. Positions stay the file's own (the
 * source maps each kept row or example back to its place). Undefined when the table itself is broken.
 */
export function salvageDecision(data: Record<string, unknown>, error: z.ZodError, source: SourceFile): { table: DecisionFile; source: SourceFile } | undefined {
  const broken = { rows: new Set<number>(), examples: new Set<number>() };
  for (const issue of error.issues) {
    const [list, index] = issue.path;
    if ((list !== 'rows' && list !== 'examples') || typeof index !== 'number') return undefined;
    broken[list].add(index);
  }
  const kept = (list: 'rows' | 'examples') => {
    const all = Array.isArray(data[list]) ? (data[list] as unknown[]) : [];
    return all.map((_, i) => i).filter((i) => !broken[list].has(i));
  };
  const places = { rows: kept('rows'), examples: kept('examples') };
  const parsed = DecisionFile.safeParse({
    ...data,
    rows: places.rows.map((i) => (data['rows'] as unknown[])[i]),
    examples: places.examples.map((i) => (data['examples'] as unknown[])[i]),
  });
  if (!parsed.success) return undefined;
  const original = (path: readonly PropertyKey[]): PropertyKey[] => {
    const [list, index, ...rest] = path;
    return (list === 'rows' || list === 'examples') && typeof index === 'number' ? [list, places[list][index] ?? index, ...rest] : [...path];
  };
  return {
    table: parsed.data,
    source: { file: source.file, data: source.data, locate: (path) => source.locate(original(path)), at: (path) => source.at(original(path)) },
  };
}
