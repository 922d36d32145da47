import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { RuleFileError } from '../../engine/index.ts';
import { brunoCollection, exportScenarios, httpFile, postmanCollection } from '../harness/export.ts';
import { hurlFile } from '../harness/export-hurl.ts';
import { scenarioFiles } from '../harness/files.ts';
import { loadScenario } from '../harness/load.ts';
import { DEMO_SECRETS } from '../harness/demo-secrets.ts';

const EXPORT_USAGE = `usage: signalbox export --format postman|bruno|hurl|http [--out FILE|DIR] [PATHS…]

Writes the requests of the scenarios (default: scenarios/) as a collection, with a token request per client and the
Requestor header, runnable against any server: set the variable baseUrl (and secret.<client> for other clients).
Postman, Bruno and Hurl check the status, body and headers each step expects, and carry saved values forward.

  --format postman   a Postman Collection v2.1 (newman run FILE --env-var baseUrl=http://127.0.0.1:8090)
  --format bruno     a Bruno collection, a folder of .bru files (--out DIR required; bru run --env local there)
  --format hurl      a Hurl file (hurl --test --variable baseUrl=http://127.0.0.1:8090 … FILE; its first lines say)
  --format http      an .http file for VS Code's REST Client (requests only: it runs no checks)
  --out FILE|DIR     write it there (default: stdout)
`;

/** `signalbox export`: scenarios as a Postman or Bruno collection, a Hurl file or an .http file. Exit 1 on a scenario that cannot be loaded. */
export async function exportCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { format: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', default: false } },
  });
  if (values.help) {
    process.stdout.write(EXPORT_USAGE);
    return 0;
  }
  if (values.format !== 'postman' && values.format !== 'http' && values.format !== 'bruno' && values.format !== 'hurl') {
    process.stderr.write(`--format wants postman, bruno, hurl or http${values.format ? `, not ${values.format}` : ''}\n${EXPORT_USAGE}`);
    return 2;
  }
  if (values.format === 'bruno' && !values.out) {
    process.stderr.write('--format bruno writes a folder: name it with --out DIR\n');
    return 2;
  }
  const files = scenarioFiles(positionals.length > 0 ? positionals : ['scenarios']);
  const problems: string[] = [];
  const loaded = files.flatMap((file) => {
    try {
      return [loadScenario(file)];
    } catch (e) {
      if (!(e instanceof RuleFileError)) throw e;
      problems.push(...e.problems);
      return [];
    }
  });
  if (problems.length > 0) {
    process.stderr.write(`${problems.join('\n')}\nnothing exported: fix the scenarios above first\n`);
    return 1;
  }
  const exported = exportScenarios(loaded, DEMO_SECRETS);
  const title = `signalbox scenarios (${positionals.join(', ') || 'scenarios'})`;
  if (values.format === 'bruno') {
    for (const [path, text] of Object.entries(brunoCollection(exported, title))) write(join(values.out!, path), text);
  } else {
    const text = values.format === 'postman' ? postmanCollection(exported, title) : values.format === 'hurl' ? hurlFile(exported) : httpFile(exported);
    if (!values.out) {
      process.stdout.write(text);
      return 0;
    }
    write(values.out, text);
  }
  process.stderr.write(
    `${loaded.length} scenario${loaded.length === 1 ? '' : 's'}, ${exported.folders.reduce((n, f) => n + f.requests.length, 0)} requests → ${values.out}\n`,
  );
  return 0;
}

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}
