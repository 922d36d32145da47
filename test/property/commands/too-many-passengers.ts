import fc from 'fast-check';
import { ApiCommand, type CommandSpec } from '../../helpers/model-command.ts';
import type { Model } from '../../helpers/model.ts';
import type { System } from '../../helpers/model-system.ts';
import { fixtureTrip } from '../../helpers/model-trips.ts';

/** An offer request for 10–12 passengers → 400 86003 (spec §8, rules/offer-request-limits.yaml). */
export class TooManyPassengers extends ApiCommand {
  readonly ages: readonly number[];
  constructor(ages: readonly number[]) {
    super();
    this.ages = ages;
  }

  check() {
    return true;
  }

  protected async act(_m: Model, s: System) {
    await s.send({
      name: `offers for ${this.ages.length} passengers`,
      method: 'post',
      path: '/v3/offers',
      body: {
        tripSpecifications: [fixtureTrip('sto-gbg-0800')],
        anonymousPassengerSpecifications: this.ages.map((age, i) => ({ externalRef: `p${i + 1}`, type: 'PERSON', age })),
      },
      expect: { status: 400, body: { code: '86003', pointers: [{ requestPointer: '#/anonymousPassengerSpecifications' }] } },
    });
  }

  toString() {
    return `TooManyPassengers([${this.ages.join(',')}])`;
  }
}

export const spec: CommandSpec = {
  name: 'TooManyPassengers',
  arbitrary: fc.array(fc.integer({ min: 0, max: 99 }), { minLength: 10, maxLength: 12 }).map((ages) => new TooManyPassengers(ages)),
};
