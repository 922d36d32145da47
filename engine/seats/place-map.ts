import type { Context } from '../model/context.ts';
import type { OnTrain } from '../holdings/place-holdings.ts';
import type { RuleSet } from '../rules/ruleset.ts';
import { placeStatuses, type MapSubject } from './availability.ts';
import type { z } from 'zod';
import type * as R from '../model/osdm/seat-response.ts';

/**
 * GET /availabilities/place-map (spec §2.11): PlaceAvailability of the subject's leg. A coach's owner is the
 * operator's carrier; a day coach is one Compartment, a night coach one Compartment per room, so which places
 * share a room is which Compartment lists them. Every Compartment.number is the one of rules/coach-layouts.yaml
 * (spec §2.11: always 1); a room's printed number is the coach layout's. PlacePosition.status is FREE exactly
 * when the place is selectable for this passenger and leg.
 */
export function renderPlaceMap(ctx: Context, subject: MapSubject, onTrains: readonly OnTrain[]): z.infer<typeof R.PlaceAvailabilityResponse> {
  const places = placeStatuses(ctx, subject, onTrains);
  const { placeMapCompartmentNumber } = ctx.rules.coachLayouts;
  const coaches = (ctx.rules.fleet.categories[subject.leg.category]?.coaches ?? []).map((coach) => {
    const mine = places.filter((p) => p.coach.number === coach.number);
    // A day coach's places belong to no room: they form the coach's one Compartment.
    const rooms = [...new Set(mine.map((p) => p.place.compartment))];
    return {
      number: coach.number,
      layoutId: coach.layout,
      owner: ctx.rules.stations.operatorCarrier.ref,
      direction: 'IN_DIRECTION' as const,
      compartments: rooms.map((room) => ({
        number: placeMapCompartmentNumber,
        status: 'FREE' as const,
        isSelectable: true,
        places: mine
          .filter((p) => p.place.compartment === room)
          .map((p) => ({
            number: p.place.number,
            status: p.status,
            placeProperties: p.place.placeProperties,
          })),
      })),
    };
  });
  return {
    vehicleAvailability: {
      reference: subject.reference,
      vehicle: { coaches },
      ...(subject.preSelections ? { preSelections: subject.preSelections } : {}),
    },
  };
}

/** The FREE places of the subject, counted per place-property combination. */
function freeCombinations(ctx: Context, subject: MapSubject, onTrains: readonly OnTrain[]) {
  const counts = new Map<string, { placeProperties: string[]; count: number }>();
  for (const p of placeStatuses(ctx, subject, onTrains)) {
    if (p.status !== 'FREE') continue;
    const props = [...p.place.placeProperties].sort();
    const key = props.join(',');
    counts.set(key, { placeProperties: props, count: (counts.get(key)?.count ?? 0) + 1 });
  }
  return [...counts.values()];
}

/** GET /availabilities: the FREE places counted per place-property combination (CONTRACT §6). */
export function renderCounts(ctx: Context, subject: MapSubject, onTrains: readonly OnTrain[]): z.infer<typeof R.AvailabilityCountResponse> {
  return { availabilities: freeCombinations(ctx, subject, onTrains) };
}

/**
 * GET /availabilities/preferences (CONTRACT §6): OSDM AvailablePlace per place-property combination that has FREE
 * places, with how many. The sub type is always the one of spec §2.4; the kind of compartment is a place property.
 */
export function renderPreferences(ctx: Context, subject: MapSubject, onTrains: readonly OnTrain[]): z.infer<typeof R.PlacePreferencesResponse> {
  const { products } = ctx.rules;
  const accommodationType = products.products[subject.productCode]?.accommodationType ?? 'SEAT';
  return {
    availablePlaces: freeCombinations(ctx, subject, onTrains).map((c) => ({
      accommodationType,
      accommodationSubType: products.accommodationSubType,
      placeProperties: c.placeProperties,
      numericAvailability: c.count,
      tripLegCoverage: { tripId: subject.tripId, legId: subject.leg.id },
    })),
  };
}

/**
 * GET /coach-layouts/{layoutId} (spec §2.11): each place with its icon (whose fixed size says the seat width,
 * spec §8), number, facing direction and centre on the places' layer; a night coach's compartment numbers under
 * its compartments, on the labels' layer.
 */
export function renderCoachLayout(rules: RuleSet, layoutId: string): z.infer<typeof R.CoachLayoutResponse> | undefined {
  const layout = rules.coachLayouts.layouts[layoutId];
  if (!layout) return undefined;
  const { layers, icons } = rules.coachLayouts;
  const icon = icons[layout.placeIcon]!;
  const compartments = [...new Set(layout.places.flatMap((p) => (p.compartment ? [p.compartment] : [])))];
  const compartmentNumbers = compartments.map((number) => {
    const inside = layout.places.filter((p) => p.compartment === number);
    const x = Math.round(inside.reduce((s, p) => s + p.coords.x, 0) / inside.length);
    // One icon height below the compartment's lowest place, clear of its places.
    const y = Math.min(layout.gridSize.y, Math.max(...inside.map((p) => p.coords.y)) + icon.height);
    return { number, coords: { x, y, zOrder: layers.labels } };
  });
  return {
    coachLayout: {
      id: layoutId,
      gridSize: layout.gridSize,
      places: layout.places.map((p) => ({
        icon: layout.placeIcon,
        number: p.number,
        direction: p.direction,
        coords: { ...p.coords, zOrder: layers.places },
      })),
      ...(compartmentNumbers.length > 0 ? { compartmentNumbers } : {}),
    },
  };
}
