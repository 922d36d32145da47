import { afterAll, describe, expect, it } from 'vitest';
import { buildServer } from '../adapters/http/server.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { engine } from './helpers/server.ts';

/** The served API documents speak to integrators: no citations of this implementation's documents or files. */
const app = await buildServer({ engine: engine(), store: memoryStore(), sandbox: true, jwtSecret: 'o' });
afterAll(() => app.close());

function texts(value: unknown, key = '', out: string[] = []): string[] {
  if (typeof value === 'string') {
    if (key === 'description' || key === 'summary') out.push(value);
    return out;
  }
  if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) texts(v, Array.isArray(value) ? key : k, out);
  return out;
}

describe('GET /openapi.json for integrators', () => {
  it('cites no spec or CONTRACT section and names no file of this repository', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<Record<string, unknown>>();
    const all = texts(doc);
    expect(all.length).toBeGreaterThan(50);
    expect(all.filter((t) => /spec §|CONTRACT|\b[\w-]+\.(yaml|ts)\b/.test(t))).toEqual([]);
    // Nor anywhere else in the document, extensions included.
    expect(JSON.stringify(doc).match(/(?:spec|CONTRACT) ?§[^"]{0,40}/g) ?? []).toEqual([]);
    expect(JSON.stringify(doc)).toContain('The token endpoint answers RFC 6749 error bodies instead.');
  });
});
