import fc from 'fast-check';
import { ApiCommand, type CommandSpec } from '../../helpers/model-command.ts';
import { iso, type Model } from '../../helpers/model.ts';
import type { System } from '../../helpers/model-system.ts';

/**
 * Time passes (the sandbox clock, CONTRACT §8; `advance:` in a scenario): mostly minutes, so that offer
 * and booking time limits are hit on both sides and on the minute itself, sometimes hours, rarely days
 * (the trains leave on 2026-12-01, eleven days after the start).
 */
export class AdvanceClock extends ApiCommand {
  readonly minutes: number;
  constructor(minutes: number) {
    super();
    this.minutes = minutes;
  }

  check() {
    return true;
  }

  protected async act(m: Model, s: System) {
    m.now += this.minutes * 60_000;
    await s.advance(`PT${this.minutes}M`, iso(m.now));
  }

  toString() {
    return `AdvanceClock(${this.minutes} min)`;
  }
}

export const spec: CommandSpec = {
  name: 'AdvanceClock',
  weight: 2,
  arbitrary: fc
    .oneof(
      { weight: 8, arbitrary: fc.integer({ min: 1, max: 90 }) },
      { weight: 2, arbitrary: fc.integer({ min: 1, max: 23 }).map((h) => h * 60) },
      { weight: 1, arbitrary: fc.integer({ min: 1, max: 2 }).map((d) => d * 24 * 60) },
    )
    .map((minutes) => new AdvanceClock(minutes)),
};
