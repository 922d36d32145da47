import { z } from 'zod';
import type { Trip as ModelTrip } from '../records.ts';
import type { RuleSet } from '../../rules/ruleset.ts';
import type { Language } from '../../rules/schemas.ts';
import { minutesBetween } from '../../rules/time.ts';
import { Instant } from './shapes.ts';

/**
 * OSDM 3.4 Trip as the offers answer carries it (OfferCollectionResponse.trips): the trips its offers cover, so a
 * client can resolve `tripCoverage.coveredTripId` and the legs' ids. Built from the trip the request specified.
 */
const StopPlaceRef = z.strictObject({ objectType: z.literal('StopPlaceRef'), stopPlaceRef: z.string() });
const ServiceTime = z.strictObject({ timetabledTime: Instant });

const TimedLeg = z.strictObject({
  start: z.strictObject({ stopPlaceRef: StopPlaceRef, stopPlaceName: z.string(), serviceDeparture: ServiceTime }),
  end: z.strictObject({ stopPlaceRef: StopPlaceRef, stopPlaceName: z.string(), serviceArrival: ServiceTime }),
  service: z.strictObject({
    publishedServiceName: z.string().optional(),
    vehicleNumbers: z.array(z.string()),
    productCategory: z.strictObject({ name: z.string(), shortName: z.string(), productCategoryRef: z.string() }),
    carriers: z.array(z.strictObject({ ref: z.string(), name: z.string().optional() })),
  }),
});

export const Trip = z.strictObject({
  id: z.string(),
  duration: z.string().describe('ISO 8601, first departure to last arrival.'),
  direction: z.literal('OUT_BOUND'),
  startTime: Instant,
  endTime: Instant,
  transfers: z.number().int(),
  legs: z.array(z.strictObject({ id: z.string().describe("The request's leg externalRef (CONTRACT §4a)."), timedLeg: TimedLeg })),
});

const stopPlace = (ref: string) => ({ objectType: 'StopPlaceRef' as const, stopPlaceRef: ref });

/**
 * Written as whole object literals, optional fields as `undefined` (JSON leaves them out): every offers answer
 * renders its trips, and V8 builds a literal far faster than one with `...spread` in it (docs/performance.md). A
 * station missing from the operator's list is named by its ref.
 */
export function renderTrip(rules: RuleSet, trip: ModelTrip, language: Language): z.infer<typeof Trip> {
  const first = trip.legs[0]!;
  const last = trip.legs[trip.legs.length - 1]!;
  const minutes = minutesBetween(first.departure, last.arrival);
  const categories = rules.products.productCategories as Record<string, { name: Record<Language, string> } | undefined>;
  const legs = [];
  for (const leg of trip.legs) {
    legs.push({
      id: leg.id,
      timedLeg: {
        start: {
          stopPlaceRef: stopPlace(leg.origin),
          stopPlaceName: rules.stations.byRef(leg.origin)?.name ?? leg.origin,
          serviceDeparture: { timetabledTime: leg.departure },
        },
        end: {
          stopPlaceRef: stopPlace(leg.destination),
          stopPlaceName: rules.stations.byRef(leg.destination)?.name ?? leg.destination,
          serviceArrival: { timetabledTime: leg.arrival },
        },
        service: {
          publishedServiceName: leg.serviceName,
          vehicleNumbers: [leg.vehicleNumber],
          productCategory: {
            name: categories[leg.category]?.name[language] ?? leg.category,
            shortName: leg.category,
            productCategoryRef: `urn:x_swe:sbc:${leg.category}`,
          },
          carriers: [{ ref: leg.carrier.ref, name: leg.carrier.name }],
        },
      },
    });
  }
  return {
    id: trip.id,
    duration: `PT${Math.floor(minutes / 60)}H${minutes % 60}M`,
    direction: 'OUT_BOUND',
    startTime: first.departure,
    endTime: last.arrival,
    transfers: trip.legs.length - 1,
    legs,
  };
}
