import fc from 'fast-check';
import { ApiCommand, type CommandSpec } from '../../helpers/model-command.ts';
import { pick, ref, type Model } from '../../helpers/model.ts';
import type { System } from '../../helpers/model-system.ts';

/**
 * GET /v3/fulfillments/{id} (spec §4.1, CONTRACT §4b) of a fulfillment the model knows: it belongs to its
 * booking; a ticket (one with a control number) carries its Aztec payload as a BAR_CODE security feature.
 */
export class ReadFulfillment extends ApiCommand {
  readonly fulfillment: number;
  constructor(fulfillment: number) {
    super();
    this.fulfillment = fulfillment;
  }

  check(m: Readonly<Model>) {
    return m.bookings.some((b) => b.fulfillments.length > 0);
  }

  protected async act(m: Model, s: System) {
    const all = m.bookings.flatMap((b) => b.fulfillments.map((f) => ({ booking: b, f })));
    const { booking, f } = pick(all, this.fulfillment)!;
    const res = await s.send({
      name: `read ${f}`,
      method: 'get',
      path: `/v3/fulfillments/${ref(f)}`,
      expect: { status: 200, body: { fulfillment: { id: ref(f), bookingRef: ref(booking.id) } } },
    });
    const fulfillment = res.body.fulfillment as {
      controlNumber?: string;
      fulfillmentParts?: Array<{ securityFeatures?: Array<{ type?: { type?: string }; data?: string }> }>;
    };
    if (fulfillment.controlNumber !== undefined) {
      const barcode = fulfillment.fulfillmentParts?.[0]?.securityFeatures?.find((x) => x.type?.type === 'BAR_CODE');
      if (!barcode || typeof barcode.data !== 'string' || !/^[A-Za-z0-9+/]+=*$/.test(barcode.data))
        throw s.violation(`ticket ${f} (control number ${fulfillment.controlNumber}) has no Base64 BAR_CODE`, res);
    }
  }

  toString() {
    return `ReadFulfillment(#${this.fulfillment})`;
  }
}

export const spec: CommandSpec = {
  name: 'ReadFulfillment',
  weight: 2,
  arbitrary: fc.nat({ max: 20 }).map((f) => new ReadFulfillment(f)),
};
