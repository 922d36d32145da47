import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The aftersales recipes of docs/api-and-integration.md §9 are `examples/07-refund-exchange-release.sh`, block by
 * block (test/examples.test.ts runs the script against a served instance), so the page cannot drift from a server
 * that works.
 */
describe('the refund, exchange and release recipes', () => {
  it("the page shows the script's own commands, every one of its steps", () => {
    const page = readFileSync('docs/api-and-integration.md', 'utf8');
    const section = page.slice(page.indexOf('## 9. Refund, exchange, release'), page.indexOf('## 10. '));
    const script = readFileSync('examples/07-refund-exchange-release.sh', 'utf8');
    const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks).toHaveLength(4);
    for (const block of blocks) expect(script).toContain(block);
    for (const path of ['/refund-offers', '/exchange-offers', '/exchange-operations', '/release-offers', '/fulfillments'])
      expect(blocks.join('\n')).toContain(path);
  });
});
