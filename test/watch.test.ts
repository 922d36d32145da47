import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { watchRules } from '../adapters/cli/watch.ts';
import { passengers, testServer, trip } from './helpers/server.ts';

/** `serve --watch`: an analyst's edit takes effect without a restart; a broken edit is refused and the old rules keep serving. */
const dir = mkdtempSync(join(tmpdir(), 'signalbox-watch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const until = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the change never took effect');
};

describe('rules reload', () => {
  it('serves an edited age bound, then refuses a broken edit and keeps the last good rules', async () => {
    cpSync('rules', dir, { recursive: true });
    const server = await testServer();
    const log: string[] = [];
    const stop = watchRules(
      dir,
      {},
      (engine) => server.app.service.setEngine(engine),
      (line) => log.push(line),
    );
    const typeOf = async (age: number) =>
      (
        await server.reseller('POST', '/v3/offers', {
          tripSpecifications: [trip()],
          anonymousPassengerSpecifications: passengers(age),
          offerSearchCriteria: { travelClasses: ['FIRST'], flexibilities: ['NON_FLEXIBLE'] },
        })
      ).body.offers[0].admissionOfferParts[0].appliedPassengerTypes[0].type as string;
    try {
      expect(await typeOf(65)).toBe('SENIOR');
      // An analyst moves the senior age to 67: 65 and 66 become adults.
      const file = join(dir, 'passenger-types.yaml');
      const text = readFileSync(file, 'utf8')
        .replace('when: { age: { between: [26, 64] }, typingCard: NONE }', 'when: { age: { between: [26, 66] }, typingCard: NONE }')
        .replace('when: { age: { greaterThanInclusive: 65 } }', 'when: { age: { greaterThanInclusive: 67 } }')
        .replace('when: { age: { between: [16, 64] }, typingCard: SWE_STUDENT }', 'when: { age: { between: [16, 66] }, typingCard: SWE_STUDENT }')
        .replace('when: { age: { between: [16, 64] }, typingCard: SWE_PENSIONER }', 'when: { age: { between: [16, 66] }, typingCard: SWE_PENSIONER }');
      writeFileSync(file, text);
      await until(async () => (await typeOf(65)) === 'PERSON');
      expect(await typeOf(67)).toBe('SENIOR');

      // A broken edit (rows overlap) is refused; 65 stays an adult.
      writeFileSync(file, text.replace('between: [26, 66] }, typingCard: NONE', 'between: [26, 70] }, typingCard: NONE'));
      await until(async () => log.some((l) => l.startsWith('rules NOT reloaded')));
      expect(log.at(-1)).toMatch(/passenger-types\.yaml:\d+:\d+: rows "adult" and "senior" overlap/);
      expect(await typeOf(65)).toBe('PERSON');
    } finally {
      stop();
      await server.app.close();
    }
  }, 30_000);
});
