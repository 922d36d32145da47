import type { Context } from '../model/context.ts';
import type { Leg, Trip } from '../model/records.ts';
import { phrase, violation } from '../rules/violation.ts';
import type { TripSpecification } from '../model/osdm/offer-request.ts';

/**
 * Turns a trip specification into the engine's trip: checks each leg (spec §2.2, CONTRACT §4a) and
 * picks the main leg, the longest one, which fixes the offer's overall properties (spec §2.6 rule 8).
 */
export function readTrip(ctx: Context, spec: TripSpecification, t: number): Trip {
  const times: Array<[departs: number, arrives: number]> = []; // each instant parsed once
  const legs: Leg[] = spec.legs.map((leg, l) => {
    const at = `#/tripSpecifications/${t}/legs/${l}/timedLeg`;
    const { start, end, service } = leg.timedLeg;
    if (service.vehicleNumbers.length !== 1) {
      throw violation('86008', { count: service.vehicleNumbers.length }, `${at}/service/vehicleNumbers`);
    }
    const category = service.productCategory.productCategoryRef.split(':').pop()!;
    if (!ctx.rules.products.productCategories[category]) {
      throw violation(
        '86001',
        { reason: phrase('unknown-product-category', { category, known: Object.keys(ctx.rules.products.productCategories).join(', ') }) },
        `${at}/service/productCategory/productCategoryRef`,
      );
    }
    const departure = start.serviceDeparture.timetabledTime;
    const arrival = end.serviceArrival.timetabledTime;
    times.push([Date.parse(departure), Date.parse(arrival)]);
    if (times[l]![1] <= times[l]![0]) {
      throw violation('86001', { reason: phrase('arrival-after-departure') }, `${at}/end/serviceArrival/timetabledTime`);
    }
    if (start.stopPlaceRef.stopPlaceRef === end.stopPlaceRef.stopPlaceRef) {
      throw violation('86001', { reason: phrase('leg-other-station') }, `${at}/end/stopPlaceRef/stopPlaceRef`);
    }
    // Absent fields as `undefined`, which JSON leaves out: a literal with a spread in it costs several times more.
    return {
      id: leg.externalRef,
      origin: start.stopPlaceRef.stopPlaceRef,
      destination: end.stopPlaceRef.stopPlaceRef,
      departure,
      arrival,
      operatingDay: ctx.rules.calendar.dayOf(departure),
      serviceName: service.publishedServiceName || undefined,
      vehicleNumber: service.vehicleNumbers[0]!,
      category,
      carrier: { ref: service.carriers[0]!.ref, name: service.carriers[0]!.name || undefined },
    };
  });
  for (let l = 1; l < legs.length; l++) {
    if (times[l]![0] < times[l - 1]![1]) {
      throw violation('86001', { reason: phrase('leg-order') }, `#/tripSpecifications/${t}/legs/${l}/timedLeg/start/serviceDeparture/timetabledTime`);
    }
  }
  let main = 0;
  for (let l = 1; l < legs.length; l++) if (times[l]![1] - times[l]![0] > times[main]![1] - times[main]![0]) main = l;
  const crossesBorder = legs.some((leg) =>
    [leg.origin, leg.destination].some((ref) => {
      const station = ctx.rules.stations.byRef(ref);
      return station !== undefined && station.country !== ctx.rules.tariff.vat.countryCode;
    }),
  );
  return {
    id: spec.externalRef ?? `trip-${t + 1}`,
    legs,
    mainLegId: legs[main]!.id,
    international: spec.isPartOfInternationalTrip === true || crossesBorder,
  };
}
