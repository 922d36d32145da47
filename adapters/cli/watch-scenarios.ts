import { watch, type FSWatcher } from 'node:fs';

/**
 * `signalbox test --watch`: runs the selection again whenever a YAML file under the watched paths changes
 * (a scenario or a fixture it uses). Runs never overlap: a change during a run queues one more run after it.
 * Never resolves; Ctrl-C ends it.
 */
export function watchScenarios(paths: readonly string[], run: () => Promise<number>, log: (line: string) => void): Promise<never> {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  const rerun = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        log(`\n— change seen; running again (${new Date().toLocaleTimeString()}) —`);
        // A run that cannot start (a path removed, a --vars file broken) is reported; the watch goes on.
        await run().catch((e: unknown) => log(e instanceof Error ? e.message : String(e)));
      } while (again);
    } finally {
      running = false;
      log('watching for changes (Ctrl-C stops)');
    }
  };
  const watchers: FSWatcher[] = paths.map((path) =>
    watch(path, { recursive: true }, (_event, file) => {
      if (file && !/\.ya?ml$/.test(String(file))) return;
      clearTimeout(timer);
      timer = setTimeout(() => void rerun(), 150); // editors write a file in several steps
    }),
  );
  log('watching for changes (Ctrl-C stops)');
  process.once('SIGINT', () => {
    for (const w of watchers) w.close();
    process.exit(0);
  });
  return new Promise<never>(() => {});
}
