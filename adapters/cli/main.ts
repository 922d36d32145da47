import { serve } from './serve.ts';
import { check, explain } from './rules.ts';
import { schemas } from './schemas.ts';
import { test } from './test.ts';
import { seatmap } from './seatmap.ts';
import { exportCommand } from './export.ts';

/** `signalbox <command>` (CONTRACT §9). Each command lives in its own file. */
const USAGE = `usage: signalbox <command> [options]

  serve    [--port N] [--host H] [--store memory|sqlite:PATH|postgres://…] [--sandbox] [--rules DIR] [--watch]
  test     [PATHS…] [--target URL] [--reporter pretty|junit|json] [--out FILE] [--grep T] [--tags a,b] [--jobs N] [--coverage]  (signalbox test --help)
  check    [--rules DIR]
  explain  <decision> --facts FILE|JSON [--json] [--rules DIR]
  schemas  [--check]     editor JSON Schemas for rules/ and scenarios/ (npm run schemas)
  seatmap  [FILE] [--coach N] [--out FILE] [--rules DIR]   one coach of a place map (GET …/place-map body) as SVG
  export   --format postman|http|bruno [--out FILE|DIR] [PATHS…]  the scenarios' requests as a collection (signalbox export --help)
`;

const [command, ...rest] = process.argv.slice(2);
const commands: Record<string, (args: string[]) => Promise<number>> = { serve, test, check, explain, schemas, seatmap, export: exportCommand };

async function main(): Promise<number> {
  if (!command || command === '--help' || command === 'help') {
    process.stdout.write(USAGE);
    return command ? 0 : 2;
  }
  const run = commands[command];
  // `signalbox test --help` and `export --help` have their own pages; the other commands are covered by the usage above.
  if (run && command !== 'test' && command !== 'export' && (rest.includes('--help') || rest.includes('-h'))) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (!run) {
    process.stderr.write(`unknown command "${command}"\n${USAGE}`);
    return 2;
  }
  return run(rest);
}

main().then(
  (code) => { if (code !== 0 || command !== 'serve') process.exitCode = code; },
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
