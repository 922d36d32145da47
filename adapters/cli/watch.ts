import { watch } from 'node:fs';
import { createEngine, loadRules, RuleFileError, type Engine } from '../../engine/index.ts';

/**
 * `signalbox serve --watch`: reloads rules/ when a file changes. The new rule set is loaded and checked
 * completely before it replaces the old one, so a broken edit is refused with its problems and the old
 * rules keep serving; requests in flight finish on the engine they started with.
 */
export function watchRules(dir: string, engineOptions: { ticketKey?: string }, swap: (engine: Engine) => void, log: (line: string) => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  const reload = () => {
    try {
      const rules = loadRules(dir);
      swap(createEngine({ rules, ...engineOptions }));
      log(`rules reloaded from ${dir} (${rules.files.length} files)`);
    } catch (e) {
      if (!(e instanceof RuleFileError)) throw e;
      log(`rules NOT reloaded; the old rules keep serving:\n${e.problems.join('\n')}`);
    }
  };
  const watcher = watch(dir, { persistent: false }, (_event, file) => {
    if (file && !/\.ya?ml$/.test(file)) return;
    clearTimeout(timer);
    timer = setTimeout(reload, 150); // editors write a file in several steps
  });
  return () => watcher.close();
}
