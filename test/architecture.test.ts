import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const config = fileURLToPath(new URL('../.dependency-cruiser.cjs', import.meta.url));
const depcruise = fileURLToPath(new URL('../node_modules/.bin/depcruise', import.meta.url));

/** dependency-cruiser over `paths` from `cwd` with the project's rules (.dependency-cruiser.cjs). */
function cruise(cwd: string, paths: string[]) {
  const run = spawnSync(depcruise, [...paths, '--config', config, '--output-type', 'err'], { cwd, encoding: 'utf8' });
  return { status: run.status, output: run.stdout + run.stderr };
}

/** The layer order of docs/architecture.md, checked on every import, type-only ones included. */
describe('imports', () => {
  it('engine/, machines/, adapters/ and examples/ have no import cycle, import only downward and enter the engine by its front door', () => {
    const { status, output } = cruise(root, ['engine', 'machines', 'adapters', 'examples']);
    expect(output).toContain('no dependency violations found');
    expect(status).toBe(0);
  }, 120_000); // a process cruising ~190 files: seconds alone, longer on a loaded machine

  // The fixture breaks each rule once (test/fixtures/import-rules/), and keeps one adapter that breaks none.
  it('a type-only cycle, an upward import, a side door, a wing importing another it may not, and a loose adapter each fail the check', () => {
    const { status, output } = cruise(fileURLToPath(new URL('fixtures/import-rules/', import.meta.url)), ['engine', 'adapters']);
    expect(status).not.toBe(0);
    expect(output).toMatch(/no-circular: engine\/(model\/records|rules\/facts)\.ts/);
    expect(output).toContain('engine-rules-imports-downward: engine/rules/facts.ts → engine/model/records.ts');
    expect(output).toContain('engine-through-its-front-door: adapters/http/route.ts → engine/rules/time.ts');
    expect(output).toContain('wing-http: adapters/http/route.ts → adapters/studio/page.ts');
    expect(output).toContain('nothing-imports-the-cli: adapters/studio/page.ts → adapters/cli/main.ts');
    expect(output).toContain('every-adapter-in-a-wing: adapters/loose.ts → adapters/cli/main.ts');
    expect(output).not.toContain('adapters/store/rows.ts');
  }, 120_000);
});
