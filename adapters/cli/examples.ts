import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createEngine } from '../../engine/index.ts';
import { scenarioFiles } from '../harness/files.ts';
import { runFiles } from '../harness/pool.ts';
import { inProcess } from '../harness/targets.ts';
import { examplesFrom } from '../harness/traffic-examples.ts';
import { DEMO_SECRETS } from '../harness/demo-secrets.ts';

/** Where GET /openapi.json reads its examples from (adapters/http/openapi/document.ts). */
const EXAMPLES_FILE = new URL('../http/openapi/examples.json', import.meta.url).pathname;

/**
 * `signalbox examples`: runs every scenario in-process and writes the request and answer bodies they saw, per
 * operation and status, as the examples of GET /openapi.json (traffic-examples.ts). Run it after a change to
 * an answer's shape; test/openapi-examples.test.ts says when an example no longer fits its schema.
 */
export async function examples(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { out: { type: 'string', default: EXAMPLES_FILE } } });
  const files = scenarioFiles(['scenarios']);
  const results = await runFiles(files, inProcess(createEngine()), { jobs: 1, run: { secrets: DEMO_SECRETS } });
  const failed = results.filter((r) => !r.passed).map((r) => r.file);
  if (failed.length > 0) {
    process.stderr.write(`examples come from passing scenarios only; these fail: ${failed.join(', ')}\n`);
    return 1;
  }
  const found = examplesFrom(results);
  // One operation a line: a change to one answer is a one-line diff.
  writeFileSync(
    values.out,
    `{\n${Object.entries(found)
      .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
      .join(',\n')}\n}\n`,
  );
  process.stdout.write(`${values.out}: examples of ${Object.keys(found).length} operations from ${files.length} scenarios\n`);
  return 0;
}
