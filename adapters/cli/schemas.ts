import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { DecisionFile, valueFiles } from '../../engine/rules/index.ts';
import { Fixtures, Scenario } from '../harness/schema.ts';

/**
 * `signalbox schemas [--check]` (`npm run schemas`): writes the JSON Schemas that YAML editors use for
 * completion and inline errors (`# yaml-language-server: $schema=…` in each file), generated from the
 * same zod schemas that validate the files at load. `--check` fails when a committed schema is stale.
 */
export const editorSchemas: Record<string, z.ZodType> = {
  'decision.schema.json': DecisionFile,
  'scenario.schema.json': Scenario,
  'fixtures.schema.json': Fixtures,
  ...Object.fromEntries(Object.entries(valueFiles).map(([file, schema]) => [file.replace('.yaml', '.schema.json'), schema as z.ZodType])),
};

export function renderSchema(name: string, schema: z.ZodType): string {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return `${JSON.stringify({ ...json, $id: `signalbox/${name}` }, null, 2)}\n`;
}

export async function schemas(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { check: { type: 'boolean', default: false }, out: { type: 'string', default: 'schemas' } } });
  mkdirSync(values.out, { recursive: true });
  const stale: string[] = [];
  for (const [name, schema] of Object.entries(editorSchemas)) {
    const path = join(values.out, name);
    const text = renderSchema(name, schema);
    let current = '';
    try {
      current = readFileSync(path, 'utf8');
    } catch {
      /* not written yet */
    }
    if (current === text) continue;
    if (values.check) stale.push(path);
    else writeFileSync(path, text);
  }
  if (stale.length > 0) {
    process.stdout.write(`stale editor schemas (run npm run schemas): ${stale.join(', ')}\n`);
    return 1;
  }
  process.stdout.write(`${Object.keys(editorSchemas).length} editor schemas ${values.check ? 'up to date' : `written to ${values.out}/`}\n`);
  return 0;
}
