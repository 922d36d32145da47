import fc from 'fast-check';
import { ApiCommand, type CommandSpec } from '../../helpers/model-command.ts';
import { iso, pick, PROVISIONAL, type Model } from '../../helpers/model.ts';
import type { System } from '../../helpers/model-system.ts';

/**
 * Time passes up to a provisional booking's confirmationTimeLimit, give or take a minute or two: the
 * boundary itself (expired from that very instant, spec §3, §8) and its neighbours, which random
 * minutes rarely hit. Reads the time limit from the model at run time, so it works for any provisional
 * state (an on-hold booking's longer limit too).
 */
export class PassTimeLimit extends ApiCommand {
  constructor(readonly booking: number, readonly offsetMinutes: number) { super(); }

  private target(m: Readonly<Model>) {
    return pick(m.bookings.filter((b) => PROVISIONAL.includes(b.state) && b.timeLimit + this.offsetMinutes * 60_000 > m.now), this.booking);
  }

  check(m: Readonly<Model>) { return this.target(m) !== undefined; }

  protected async act(m: Model, s: System) {
    const b = this.target(m)!;
    const minutes = Math.round((b.timeLimit + this.offsetMinutes * 60_000 - m.now) / 60_000);
    m.now += minutes * 60_000;
    await s.advance(`PT${minutes}M`, iso(m.now));
  }

  toString() { return `PassTimeLimit(booking #${this.booking}, ${this.offsetMinutes >= 0 ? '+' : ''}${this.offsetMinutes} min)`; }
}

export const spec: CommandSpec = {
  name: 'PassTimeLimit',
  arbitrary: fc.tuple(fc.nat({ max: 9 }), fc.integer({ min: -2, max: 2 })).map(([b, offset]) => new PassTimeLimit(b, offset)),
};
