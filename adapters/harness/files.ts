import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The scenario files under the given paths, sorted. Folders named `fixtures` hold building blocks and
 * `failing` holds the runner's own must-fail cases: both are skipped unless named directly.
 */
export function scenarioFiles(paths: string[]): string[] {
  const out: string[] = [];
  const walk = (path: string, top: boolean) => {
    const st = statSync(path);
    if (st.isFile()) {
      if (/\.ya?ml$/.test(path)) out.push(path);
      return;
    }
    const base = path.split('/').pop();
    if (!top && (base === 'fixtures' || base === 'failing')) return;
    for (const entry of readdirSync(path).sort()) walk(join(path, entry), false);
  };
  for (const p of paths) walk(p.replace(/\/$/, ''), true);
  return [...new Set(out)].sort();
}
