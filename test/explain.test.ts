import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { renderExplanation } from '../adapters/cli/rules.ts';
import { engine } from './helpers/server.ts';

/** `signalbox explain`: an analyst sees which row decided, where it is, and why the others did not. */
describe('signalbox explain', () => {
  it('names the deciding row with file:line and the first failing condition of the others', () => {
    const text = renderExplanation(engine().explain('passengerType', { age: 17, cards: ['SWE_STUDENT'] }));
    expect(text).toContain('decided by: row "student" at rules/passenger-types.yaml:');
    expect(text).toMatch(/✓ student {2}\(rules\/passenger-types\.yaml:\d+:\d+\)/);
    expect(text).toContain('FAIL typingCard equal "NONE"  (actual "SWE_STUDENT")  ← first failing condition');
  });

  it('shows both sides of a comparison between instants', () => {
    const x = engine().explain('onHold', {
      channelAllowsOnHold: true, bookingState: 'PREBOOKED', passPurchase: false, activeOnHoldOffer: false, alreadyOnHold: false, contactComplete: true,
      now: '2026-11-30T08:00:00Z', departure: '2026-12-01T07:00:00Z', provisionalTimeLimit: '2026-11-30T09:00:00Z',
    });
    expect(x.rows.find((r) => r.fired)!.row).toBe('too-close-to-departure');
    expect(renderExplanation(x)).toContain('now after {"fact":"departure","minus":"PT24H"}  (actual "2026-11-30T08:00:00Z", departure = "2026-12-01T07:00:00Z")');
  });

  it('prints the same as data with --json, and refuses facts of the wrong type', () => {
    const out = execFileSync(process.execPath, ['bin/signalbox.js', 'explain', 'passengerType', '--facts', '{"age":17,"cards":["SWE_STUDENT"]}', '--json'], { encoding: 'utf8' });
    const json = JSON.parse(out);
    expect(json.outcome).toMatchObject({ internalType: 'STUDENT', responseType: 'PERSON' });
    expect(json.rows.find((r: { fired: boolean }) => r.fired).row).toBe('student');
    expect(() => engine().explain('passengerType', { age: 'seventeen' })).toThrow(/age/);
  });
});
