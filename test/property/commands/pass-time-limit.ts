import fc from 'fast-check';
import { ApiCommand, type CommandSpec } from '../../helpers/model-command.ts';
import { iso, pick, PROVISIONAL, type Model } from '../../helpers/model.ts';
import type { System } from '../../helpers/model-system.ts';

/**
 * Time passes up to a deadline, give or take a minute or two: a provisional booking's
 * confirmationTimeLimit (expired from that very instant, spec §3, §8) or an offer's preBookableUntil
 * (bookable up to and including it, CONTRACT §4a). Random minutes rarely hit these boundaries. Reads the
 * deadline from the model at run time, so it works for any provisional state (an on-hold booking's too).
 */
export class PassTimeLimit extends ApiCommand {
  readonly of: 'booking' | 'offer';
  readonly index: number;
  readonly offsetMinutes: number;
  constructor(of: 'booking' | 'offer', index: number, offsetMinutes: number) {
    super();
    this.of = of;
    this.index = index;
    this.offsetMinutes = offsetMinutes;
  }

  private deadline(m: Readonly<Model>): number | undefined {
    const offset = this.offsetMinutes * 60_000;
    const deadlines =
      this.of === 'booking' ? m.bookings.filter((b) => PROVISIONAL.includes(b.state)).map((b) => b.timeLimit) : m.offers.map((o) => o.bookableUntil);
    return pick(
      deadlines.filter((d) => d + offset > m.now),
      this.index,
    );
  }

  check(m: Readonly<Model>) {
    return this.deadline(m) !== undefined;
  }

  protected async act(m: Model, s: System) {
    const minutes = Math.round((this.deadline(m)! + this.offsetMinutes * 60_000 - m.now) / 60_000);
    m.now += minutes * 60_000;
    await s.advance(`PT${minutes}M`, iso(m.now));
  }

  toString() {
    return `PassTimeLimit(${this.of} #${this.index}, ${this.offsetMinutes >= 0 ? '+' : ''}${this.offsetMinutes} min)`;
  }
}

export const spec: CommandSpec = {
  name: 'PassTimeLimit',
  arbitrary: fc
    .tuple(fc.constantFrom('booking' as const, 'offer' as const), fc.nat({ max: 9 }), fc.integer({ min: -2, max: 2 }))
    .map(([of, index, offset]) => new PassTimeLimit(of, index, offset)),
};
