import fc from 'fast-check';
import { ApiCommand, type CommandSpec } from '../../helpers/model-command.ts';
import { readBooking } from '../../helpers/model-invariants.ts';
import { pick, type Model } from '../../helpers/model.ts';
import type { System } from '../../helpers/model-system.ts';

/** GET /v3/bookings/{id} (spec §4.1): the booking as the model knows it, whatever its state, expired ones too. */
export class ReadBooking extends ApiCommand {
  readonly booking: number;
  constructor(booking: number) {
    super();
    this.booking = booking;
  }

  check(m: Readonly<Model>) {
    return m.bookings.length > 0;
  }

  protected async act(m: Model, s: System) {
    await readBooking(m, s, pick(m.bookings, this.booking)!);
  }

  toString() {
    return `ReadBooking(booking #${this.booking})`;
  }
}

export const spec: CommandSpec = {
  name: 'ReadBooking',
  weight: 1,
  arbitrary: fc.nat({ max: 9 }).map((b) => new ReadBooking(b)),
};
