import fc from 'fast-check';
import { ApiCommand, type CommandSpec } from '../../helpers/model-command.ts';
import { pick, ref, type Model } from '../../helpers/model.ts';
import type { Method, System } from '../../helpers/model-system.ts';

type Operation = 'read booking' | 'confirm' | 'confirm (OSDM)' | 'patch purchaser' | 'read fulfillment';

/**
 * Another client (demo-other) reaching for this client's booking or ticket: not found, as if it did not
 * exist (CONTRACT §3, §5: 404 RESOURCE_NOT_FOUND); the sweep after it shows nothing changed.
 */
export class ForeignClient extends ApiCommand {
  readonly operation: Operation;
  readonly target: number;
  constructor(operation: Operation, target: number) {
    super();
    this.operation = operation;
    this.target = target;
  }

  check(m: Readonly<Model>) {
    return this.operation === 'read fulfillment' ? m.bookings.some((b) => b.fulfillments.length > 0) : m.bookings.length > 0;
  }

  protected async act(m: Model, s: System) {
    const b = pick(m.bookings, this.target)!;
    const [method, path]: [Method, string] =
      this.operation === 'read booking'
        ? ['get', `/v3/bookings/${ref(b.id)}`]
        : this.operation === 'confirm'
          ? ['post', `/v3/bookings/${ref(b.id)}/fulfillment`]
          : this.operation === 'confirm (OSDM)'
            ? ['post', `/v3/bookings/${ref(b.id)}/fulfillments`]
            : this.operation === 'patch purchaser'
              ? ['patch', `/v3/bookings/${ref(b.id)}/purchaser`]
              : [
                  'get',
                  `/v3/fulfillments/${ref(
                    pick(
                      m.bookings.flatMap((x) => x.fulfillments),
                      this.target,
                    )!,
                  )}`,
                ];
    const body =
      this.operation === 'patch purchaser'
        ? { body: { detail: { firstName: 'Mallory', lastName: 'Other', email: 'mallory@example.se', phoneNumber: '+46700000000' } } }
        : {};
    await s.send({
      name: `another client tries to ${this.operation}`,
      method,
      path,
      auth: 'demo-other',
      ...body,
      expect: { status: 404, body: { code: 'RESOURCE_NOT_FOUND' } },
    });
  }

  toString() {
    return `ForeignClient(${this.operation}, #${this.target})`;
  }
}

export const spec: CommandSpec = {
  name: 'ForeignClient',
  arbitrary: fc
    .tuple(fc.constantFrom<Operation>('read booking', 'confirm', 'confirm (OSDM)', 'patch purchaser', 'read fulfillment'), fc.nat({ max: 9 }))
    .map(([operation, target]) => new ForeignClient(operation, target)),
};
