import fc from 'fast-check';
import { ApiCommand, type CommandSpec } from '../../helpers/model-command.ts';
import type { Model } from '../../helpers/model.ts';
import type { Method, System } from '../../helpers/model-system.ts';

/** Ids nobody issued → 404 RESOURCE_NOT_FOUND (CONTRACT §5), for a booking, its confirmation, a fulfillment. */
export class UnknownBooking extends ApiCommand {
  readonly operation: 'read booking' | 'confirm' | 'read fulfillment';
  readonly id: string;
  constructor(operation: 'read booking' | 'confirm' | 'read fulfillment', id: string) {
    super();
    this.operation = operation;
    this.id = id;
  }

  check() {
    return true;
  }

  protected async act(_m: Model, s: System) {
    const [method, path]: [Method, string] =
      this.operation === 'read booking'
        ? ['get', `/v3/bookings/${this.id}`]
        : this.operation === 'confirm'
          ? ['post', `/v3/bookings/${this.id}/fulfillment`]
          : ['get', `/v3/fulfillments/${this.id}`];
    await s.send({ name: `${this.operation} of an unknown id`, method, path, expect: { status: 404, body: { code: 'RESOURCE_NOT_FOUND' } } });
  }

  toString() {
    return `UnknownBooking(${this.operation}, ${this.id})`;
  }
}

export const spec: CommandSpec = {
  name: 'UnknownBooking',
  arbitrary: fc
    .tuple(
      fc.constantFrom('read booking' as const, 'confirm' as const, 'read fulfillment' as const),
      fc.constantFrom('SB00000000', 'booking-999', 'no-such-id', 'booking-1x', '%20'),
    )
    .map(([operation, id]) => new UnknownBooking(operation, id)),
};
