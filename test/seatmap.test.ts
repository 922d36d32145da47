import { describe, expect, it } from 'vitest';
import type { Requestor } from '../engine/index.ts';
import { clocksOf, virtualClock } from '../adapters/service/clock.ts';
import { seatMapSvg, type PlaceMapBody } from '../adapters/analysis/seatmap-svg.ts';
import { createService } from '../adapters/service/service.ts';
import { memoryStore } from '../adapters/store/memory.ts';
import { engine, passengers, trip } from './helpers/server.ts';

const requestor: Requestor = { client: 'demo-reseller', salesApplication: 'WEB_SE', salesUnitCode: 'TEST', language: 'en-GB' };

describe('signalbox seatmap', () => {
  it("draws a coach of a booking's place map: its places selected, the rest free or restricted", async () => {
    let n = 0;
    const service = createService(engine(), memoryStore(), clocksOf(virtualClock(new Date('2026-11-20T10:00:00+01:00')), false), {
      next: (k) => `${k}-${++n}`,
    });
    const offers = (
      await service.offers(requestor, {
        tripSpecifications: [trip()],
        anonymousPassengerSpecifications: passengers(35, 36),
        offerSearchCriteria: { travelClasses: ['SECOND'], flexibilities: ['NON_FLEXIBLE'] },
      })
    ).value as { offers: Array<{ offerId: string }> };
    const booked = (
      await service.book(requestor, {
        externalRef: 'svg',
        offers: [{ offerId: offers.offers[0]!.offerId, passengerRefs: ['p1', 'p2'] }],
        passengerSpecifications: [
          { externalRef: 'p1', type: 'PERSON', age: 35 },
          { externalRef: 'p2', type: 'PERSON', age: 36 },
        ],
      })
    ).value as { booking: { id: string; bookedOffers: Array<{ reservations: Array<{ id: string }> }> } };
    const map = (
      await service.availability(requestor, 'place-map', {
        contextType: 'BOOKING',
        contextId: booked.booking.id,
        resourceType: 'RESERVATION',
        resourceId: booked.booking.bookedOffers[0]!.reservations[0]!.id,
      })
    ).value as unknown as PlaceMapBody;
    const svg = seatMapSvg(engine().rules, map, '5');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('Coach 5 (DAY_SECOND)');
    // The two booked places are selected; a wheelchair place is restricted for them; 40 px squares.
    expect(svg.match(/<title>1[12] SELECTED/g)).toHaveLength(2);
    expect(svg).toMatch(/<title>91 RESTRICTED WHEELCHAIR_AND_SEAT/);
    expect(svg).toMatch(/<title>13 FREE[^<]*<\/title><rect [^>]*width="40" height="40"[^>]*fill="#cdeccd"/);
    expect(() => seatMapSvg(engine().rules, map, '99')).toThrow(/no coach 99/);
  });
});
