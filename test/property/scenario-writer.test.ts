/**
 * The counterexample writer (test/helpers/model-scenario.ts): a recorded command sequence becomes a
 * scenario that `signalbox test` runs unchanged. Proven on a hand-made sequence that passes (the file
 * runs green) and on a deliberately wrong prediction that fails (fast-check shrinks it, the file is
 * written, and it fails at the step the property failed at).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { Scenario } from '../../adapters/harness/schema.ts';
import { ApiCommand } from '../helpers/model-command.ts';
import type { Model } from '../helpers/model.ts';
import { checkSequences, FAILURES, runModel } from '../helpers/model-run.ts';
import { scenarioYaml, writeScenario } from '../helpers/model-scenario.ts';
import type { System } from '../helpers/model-system.ts';
import { AdvanceClock } from './commands/advance-clock.ts';
import { Book } from './commands/book.ts';
import { BookExpiredOffer } from './commands/book-expired-offer.ts';
import { Confirm } from './commands/confirm.ts';
import { ForeignClient } from './commands/foreign-client.ts';
import { MalformedJson } from './commands/malformed-json.ts';
import { RequestOffers } from './commands/offers.ts';
import { PassTimeLimit } from './commands/pass-time-limit.ts';
import { ReadFulfillment } from './commands/read-fulfillment.ts';
import { TooManyPassengers } from './commands/too-many-passengers.ts';
import { UnknownBooking } from './commands/unknown-booking.ts';
import { UnknownField } from './commands/unknown-field.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'signalbox-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `node bin/signalbox.js test <file>`: its exit code and what it printed. */
async function signalboxTest(file: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['bin/signalbox.js', 'test', file], { cwd: ROOT, encoding: 'utf8' });
    return { code: 0, out: stdout + stderr };
  } catch (e) {
    const failed = e as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, out: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

/** Sells a journey, confirms it twice, lets a second booking expire, and tries a few bad requests on the way. */
const sale = () => [
  new RequestOffers('sto-gbg-0800', [35, 8], 'SECOND', 'FULL_FLEXIBLE', 0),
  new Book(0, 'complete', 0, true, '/v3/booking'),
  new Book(0, 'no-purchaser', 0, false, '/v3/bookings'),
  new Confirm(1, 'fulfillment'), // the older, complete booking → 202
  new Confirm(0, 'fulfillments'), // the newer one has no purchaser → 400 X_BOOKING_INCOMPLETE
  new ReadFulfillment(0),
  new Confirm(1, 'fulfillments'), // again: 200, the same fulfillments
  new ForeignClient('confirm', 0),
  new MalformedJson('/v3/booking', '{"offers": [], }'),
  new UnknownField('booking', 'passenger', 'seat'),
  new PassTimeLimit('booking', 0, 0), // the provisional one's time limit, to the minute
  new Confirm(0, 'fulfillment'), // → 409 X_BOOKING_EXPIRED
  new BookExpiredOffer(0),
  new AdvanceClock(5),
  new TooManyPassengers([30, 31, 32, 33, 34, 35, 36, 37, 38, 39]),
  new UnknownBooking('read booking', 'no-such-id'),
];

/** A command whose prediction is wrong on purpose: an unknown booking "found". */
class WrongPrediction extends ApiCommand {
  check() {
    return true;
  }
  protected async act(_m: Model, s: System) {
    await s.send({ name: 'read a booking nobody made, expecting it', method: 'get', path: '/v3/bookings/SB-NOBODY', expect: { status: 200 } });
  }
  toString() {
    return 'WrongPrediction()';
  }
}

describe('a recorded command sequence as a scenario', () => {
  it('is a valid scenario file: sweep reads left out, ids by ${var} and save:, time by advance:', async () => {
    const { system, model } = await runModel(sale());
    expect(model.bookings.map((b) => b.state)).toEqual(['FULFILLED', 'EXPIRED']);
    const text = scenarioYaml(system.steps, { name: 'a sale' });
    const scenario = Scenario.parse(parse(text));
    const steps = scenario.steps as Array<Record<string, unknown>>;
    expect(steps.length).toBe(system.steps.filter((r) => !r.observational).length);
    expect(steps.some((s) => String(s['name']).startsWith('check '))).toBe(false);
    expect(steps).toContainEqual(expect.objectContaining({ post: '/v3/bookings/${booking1}/fulfillment', expect: { status: 202 } }));
    expect(steps).toContainEqual(expect.objectContaining({ advance: 'PT5M' }));
    expect(text).toContain('save: { booking1: booking.id, booking1Price: booking.provisionalPrice.amount, booking1Passenger1: "booking.passengers[0].id"');
  }, 30_000); // the file's first test starts the model's server, which can take longer than vitest's 5 s on a busy machine

  it('runs green with node bin/signalbox.js test', async () => {
    const { system } = await runModel(sale());
    const file = writeScenario(join(dir, 'sale.yaml'), system.steps, { name: 'A sale written by the model-based test' });
    const { code, out } = await signalboxTest(file);
    expect(out).toContain('1 passed');
    expect(code).toBe(0);
  }, 30_000);

  it('is written for a shrunk failing sequence, marks the failing step, and fails there when run', async () => {
    const label = 'writer-self-test';
    const file = resolve(FAILURES, `${label}-7.yaml`);
    rmSync(file, { force: true });
    const noisy = fc.commands(
      [fc.constant(new RequestOffers('upp-sto-gbg', [40], undefined, undefined, 1)), fc.constant(new AdvanceClock(3)), fc.constant(new WrongPrediction())],
      { maxCommands: 12, size: 'max' },
    );
    const failure = await checkSequences(noisy, { seed: 7, numRuns: 50 }, label).then(
      () => undefined,
      (e: Error) => e,
    );

    try {
      expect(failure?.message).toContain(`The shrunk sequence as a scenario: ${file}`);
      expect(failure?.message).toContain('seed: 7');
      const written = readFileSync(file, 'utf8');
      expect(written).toContain('# The property failed at this step:');
      // Shrunk: the wrong prediction alone remains.
      expect((parse(written) as { steps: unknown[] }).steps).toEqual([
        { name: 'read a booking nobody made, expecting it', get: '/v3/bookings/SB-NOBODY', expect: { status: 200 } },
      ]);
      const { code, out } = await signalboxTest(file);
      expect(code).toBe(1);
      expect(out).toMatch(/read a booking nobody made, expecting it[\s\S]*expected\s+200[\s\S]*actual\s+404/);
    } finally {
      if (existsSync(file)) rmSync(file);
    }
  }, 60_000);
});
