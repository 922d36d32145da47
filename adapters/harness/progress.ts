import type { ScenarioResult } from './results.ts';

/**
 * The line on stderr while scenarios run (only on a terminal: a CI log or a pipe gets no carriage
 * returns): how many are done of how many, how many failed so far, and the last one to finish.
 */
export interface Progress {
  done(result: ScenarioResult): void;
  /** Clears the line, so the report starts on a clean one. */
  end(): void;
}

export function progressLine(total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) return { done() {}, end() {} };
  let done = 0;
  let failed = 0;
  return {
    done(r) {
      done++;
      if (!r.passed) failed++;
      const line = `${done}/${total} scenarios${failed > 0 ? `, ${failed} failed` : ''}  ${r.passed ? '✓' : '✗'} ${r.file}`;
      const width = stream.columns ?? 80;
      stream.write(`\r\x1b[K${line.length >= width ? `${line.slice(0, width - 2)}…` : line}`);
    },
    end() {
      stream.write('\r\x1b[K');
    },
  };
}
