import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_SECRETS } from '../adapters/harness/demo-secrets.ts';
import { buildServer } from '../adapters/http/server.ts';
import { runScenario } from '../adapters/harness/runner.ts';
import { inProcess, live } from '../adapters/harness/targets.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { engine } from './helpers/server.ts';

/**
 * The README's five-minute tour is `examples/01-tour.sh` (test/examples.test.ts runs it against a served instance):
 * every block the README shows must be the script's, so neither can drift.
 */

describe('the five-minute tour', () => {
  it("the README shows the script's own commands, with no placeholders", () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('## A five-minute tour'), readme.indexOf('**5. Run the scenarios**'));
    const script = readFileSync('examples/01-tour.sh', 'utf8');
    const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks).toHaveLength(4);
    // The first block starts `npm start` where the script starts its own server on a free port.
    const shown = blocks.map((b) =>
      b
        .split('\n')
        .filter((l) => !/^(npm start|BASE=)/.test(l))
        .join('\n'),
    );
    for (const block of shown) expect(script).toContain(block);
    for (const block of blocks) expect(block).not.toMatch(/<[a-z]\w*>|…/i);
  });

  it("the README's example scenario passes in-process and against a live sandbox server", async () => {
    const readme = readFileSync('README.md', 'utf8');
    const example = /```yaml\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## How to add a scenario')))![1]!;
    const dir = join(mkdtempSync(join(tmpdir(), 'signalbox-readme-')), 'mine');
    mkdirSync(dir);
    const file = join(dir, 'expiry.yaml');
    writeFileSync(file, example.replaceAll('../fixtures/', `${resolve('scenarios/fixtures')}/`));
    const app = await buildServer({ engine: engine(), store: memoryStore(), sandbox: true, jwtSecret: 'readme' });
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      for (const target of [inProcess(engine()), live(url, { reset: true, secrets: DEMO_SECRETS })]) {
        const result = await runScenario(file, target, { secrets: DEMO_SECRETS });
        expect(result.steps.map((s) => s.error ?? s.mismatches.map((m) => m.message).join(', ')).filter(Boolean), target.name).toEqual([]);
        expect(result.passed).toBe(true);
      }
    } finally {
      await app.close();
    }
  });
});
