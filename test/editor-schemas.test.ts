import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { editorSchemas, renderSchema } from '../adapters/cli/schemas.ts';

/** The JSON Schemas editors use are generated from the zod schemas; a stale one fails here (run `npm run schemas`). */
describe('editor schemas', () => {
  it.each(Object.keys(editorSchemas))('schemas/%s is up to date', (name) => {
    expect(readFileSync(`schemas/${name}`, 'utf8'), `run npm run schemas`).toBe(renderSchema(name, editorSchemas[name]!));
  });
});
