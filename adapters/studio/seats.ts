import type { z } from 'zod';
import { phrase, RuleViolation, type Language } from '../../engine/index.ts';
import { seatMapSvg, type PlaceMapBody } from '../analysis/seatmap-svg.ts';
import type { Service } from '../service/service.ts';
import type { SeatMaps, SeatQuery } from '../http/openapi/studio-schemas.ts';

/**
 * The seat maps of an offer or a booking in the store, drawn as `signalbox seatmap` draws them: per leg, the place
 * map the Reseller API answers for its first reservation, and each coach as SVG with the places others hold
 * (ALLOCATED) and this booking's own (SELECTED).
 */

export async function seatMaps(service: Service, query: z.infer<typeof SeatQuery>, language: Language): Promise<SeatMaps> {
  const { contextType, contextId } = query;
  const stored = contextType === 'OFFER' ? (await service.store.getOffers([contextId])).get(contextId) : (await service.store.getBooking(contextId))?.booking;
  if (!stored)
    throw new RuleViolation('RESOURCE_NOT_FOUND', { resource: phrase(contextType === 'OFFER' ? 'resource-offer' : 'resource-booking'), id: contextId }, [
      { requestPointer: '#/contextId' },
    ]);
  const firstPerLeg = new Map<string, string>();
  for (const r of stored.reservations) if (!firstPerLeg.has(r.legId)) firstPerLeg.set(r.legId, r.id);
  const requestor = { client: stored.owner, salesApplication: stored.salesApplication, salesUnitCode: 'STUDIO', language };
  const legs: SeatMaps['legs'] = [];
  for (const [legId, reservationId] of firstPerLeg) {
    const { value } = await service.availability(requestor, 'place-map', { contextType, contextId, resourceType: 'RESERVATION', resourceId: reservationId });
    const body = value as unknown as PlaceMapBody;
    const held = (body.vehicleAvailability.preSelections ?? []).map((p) => ({ coach: p.coach, place: p.place }));
    // The coaches where this booking holds places first: those are what the analyst came to see.
    const holds = (c: { number: string }) => (held.some((p) => p.coach === c.number) ? 0 : 1);
    const coaches = [...body.vehicleAvailability.vehicle.coaches]
      .sort((a, b) => holds(a) - holds(b))
      .map((c) => ({ number: c.number, svg: seatMapSvg(service.engine.rules, body, c.number) }));
    legs.push({ legId, reservationId, held, coaches });
  }
  return { contextType, contextId, legs };
}
