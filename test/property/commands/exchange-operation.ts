import fc from 'fast-check';
import { ApiCommand, type CommandSpec } from '../../helpers/model-command.ts';
import { exchangeMachine, findBooking, fire, firePart, isLiveOperation, pick, settleOperations, type Model } from '../../helpers/model.ts';
import type { System } from '../../helpers/model-system.ts';
import { bookingPath, problem } from './_aftersales.ts';

/**
 * PATCH (changes nothing, 200) or DELETE (204: the originals FULFILLED again) of an exchange operation
 * (spec §3, §4.1 rule 7). One past its lifetime is settled EXPIRED first, and then neither is allowed
 * (409 X_BOOKING_STATE); a confirmed one is patched 409 and deleted 404; a deleted one is not found.
 */
export class ChangeExchangeOperation extends ApiCommand {
  readonly operation: number;
  readonly action: 'patch' | 'delete';
  constructor(operation: number, action: 'patch' | 'delete') {
    super();
    this.operation = operation;
    this.action = action;
  }

  check(m: Readonly<Model>) {
    return m.operations.length > 0;
  }

  protected async act(m: Model, s: System) {
    const o = pick(m.operations, this.operation)!;
    const b = findBooking(m, o.booking);
    settleOperations(m, b);
    const request = {
      name: `${this.action} exchange operation ${o.id}`,
      method: this.action,
      path: bookingPath(b, `/exchange-operations/\${${o.id}}`),
      salesApplication: b.salesApplication,
      ...(this.action === 'patch' ? { body: {} } : {}),
    };
    if (o.state === 'DELETED' || (o.state === 'FULFILLED' && this.action === 'delete')) {
      await s.send({ ...request, expect: problem('RESOURCE_NOT_FOUND') });
      return;
    }
    if (!isLiveOperation(m, o)) {
      await s.send({ ...request, expect: problem('X_BOOKING_STATE') });
      return;
    }
    await s.send({ ...request, expect: this.action === 'patch' ? { status: 200, body: { exchangeOperation: { status: 'PREBOOKED' } } } : { status: 204 } });
    fire(m, exchangeMachine, o, this.action === 'patch' ? 'PATCH' : 'DELETE');
    // The original parts travel again.
    if (this.action === 'delete') for (const f of o.fulfillments) firePart(m, findBooking(m, o.booking), f, 'CANCEL_EXCHANGE');
  }

  toString() {
    return `ChangeExchangeOperation(#${this.operation}, ${this.action})`;
  }
}

export const spec: CommandSpec = {
  name: 'ChangeExchangeOperation',
  arbitrary: fc.tuple(fc.nat({ max: 5 }), fc.constantFrom('patch' as const, 'delete' as const)).map(([o, a]) => new ChangeExchangeOperation(o, a)),
  drives: {
    'exchangeOperation:PATCH': () => [new ChangeExchangeOperation(0, 'patch')],
    'exchangeOperation:DELETE': () => [new ChangeExchangeOperation(0, 'delete')],
    'bookingPart:CANCEL_EXCHANGE': () => [new ChangeExchangeOperation(0, 'delete')],
  },
};
