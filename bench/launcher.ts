import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Whether a tree's `npm start` runs its TypeScript through tsx's loader (commits before Node's own type stripping) or
 * by Node alone. A commit compared with is measured as it ran, tsx included: its servers (processes.ts) and the
 * modules the in-process cases load from it (`importFrom`).
 */
export function throughTsx(tree: string): boolean {
  const { scripts } = JSON.parse(readFileSync(join(tree, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  return scripts?.['start']?.startsWith('tsx ') ?? false;
}

/** A module of `tree` (a path inside it), loaded into this process as that tree ran it: through tsx's loader, or not. */
export async function importFrom<T>(tree: string, path: string): Promise<T> {
  const url = pathToFileURL(join(tree, path)).href;
  if (!throughTsx(tree)) return (await import(url)) as T;
  const { tsImport } = await import('tsx/esm/api');
  return (await tsImport(url, import.meta.url)) as T;
}
