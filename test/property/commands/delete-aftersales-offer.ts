import fc from 'fast-check';
import { ApiCommand, type CommandSpec } from '../../helpers/model-command.ts';
import { aftersalesOfferMachine, fire, pick, type Model } from '../../helpers/model.ts';
import type { System } from '../../helpers/model-system.ts';
import { problem } from './_aftersales.ts';
import { isFound, offerRequest } from './confirm-aftersales-offer.ts';

/**
 * DELETE of a refund, release or on-hold offer (spec §3 rule 1: create and delete to read a price): 204,
 * then it is gone (404); a confirmed one cannot be deleted and answers 404 as if it were not there
 * (CONTRACT §6). Offers the model holds EXPIRED are left alone (their machine has no DELETE).
 */
export class DeleteAftersalesOffer extends ApiCommand {
  readonly offer: number;
  constructor(offer: number) {
    super();
    this.offer = offer;
  }

  private targets(m: Readonly<Model>) {
    return m.aftersales.filter((o) => o.state !== 'EXPIRED');
  }

  check(m: Readonly<Model>) {
    return this.targets(m).length > 0;
  }

  protected async act(m: Model, s: System) {
    const o = pick(this.targets(m), this.offer)!;
    const { path } = offerRequest(m, o);
    const request = { name: `delete ${o.kind} offer ${o.id}`, method: 'delete' as const, path };
    if (!isFound(m, o) || o.state === 'CONFIRMED') {
      await s.send({ ...request, expect: problem('RESOURCE_NOT_FOUND') });
      return;
    }
    await s.send({ ...request, expect: { status: 204 } });
    fire(m, aftersalesOfferMachine, o, 'DELETE');
  }

  toString() {
    return `DeleteAftersalesOffer(#${this.offer})`;
  }
}

export const spec: CommandSpec = {
  name: 'DeleteAftersalesOffer',
  arbitrary: fc.nat({ max: 5 }).map((o) => new DeleteAftersalesOffer(o)),
  drives: { 'aftersalesOffer:DELETE': () => [new DeleteAftersalesOffer(0)] },
};
