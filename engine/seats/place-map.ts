import type { Context } from '../context.ts';
import type { OnTrain } from './inventory.ts';
import type { RuleSet } from '../rules/ruleset.ts';
import { placeStatuses, type MapSubject } from './availability.ts';
import type { z } from 'zod';
import type * as R from './response.ts';

/**
 * GET /availabilities/place-map (spec §2.11): PlaceAvailability of the subject's leg. Coach.status is always
 * FREE and its owner the operator's carrier; a day coach has one compartment numbered 1, a night coach its
 * compartments; PlacePosition.status is FREE exactly when the place is selectable for this passenger and leg,
 * and isSelectable says the same.
 */
export function renderPlaceMap(ctx: Context, subject: MapSubject, onTrains: readonly OnTrain[]): z.infer<typeof R.PlaceAvailabilityResponse> {
  const places = placeStatuses(ctx, subject, onTrains);
  const coaches = (ctx.rules.fleet.categories[subject.leg.category]?.coaches ?? []).map((coach) => {
    const mine = places.filter((p) => p.coach.number === coach.number);
    const numbers = [...new Set(mine.map((p) => p.place.compartment ?? '1'))];
    return {
      number: coach.number,
      status: 'FREE' as const,
      layoutId: coach.layout,
      owner: ctx.rules.stations.operatorCarrier.ref,
      direction: 'IN_DIRECTION' as const,
      compartments: numbers.map((n) => ({
        number: n,
        status: 'FREE' as const,
        isSelectable: true,
        places: mine.filter((p) => (p.place.compartment ?? '1') === n).map((p) => ({
          number: p.place.number,
          status: p.status,
          isSelectable: p.status === 'FREE',
          placeProperties: p.place.placeProperties,
        })),
      })),
    };
  });
  return {
    vehicleAvailability: {
      tripLegCoverage: { tripId: subject.tripId, legId: subject.leg.id },
      vehicleNumber: subject.leg.vehicleNumber,
      coaches,
      ...(subject.preSelections ? { preSelections: subject.preSelections } : {}),
    },
  };
}

/** GET /availabilities: the FREE places counted per place-property combination (CONTRACT §6). */
export function renderCounts(ctx: Context, subject: MapSubject, onTrains: readonly OnTrain[]): z.infer<typeof R.AvailabilityCountResponse> {
  const counts = new Map<string, { placeProperties: string[]; count: number }>();
  for (const p of placeStatuses(ctx, subject, onTrains)) {
    if (p.status !== 'FREE') continue;
    const props = [...p.place.placeProperties].sort();
    const key = props.join(',');
    counts.set(key, { placeProperties: props, count: (counts.get(key)?.count ?? 0) + 1 });
  }
  return { availabilities: [...counts.values()] };
}

/** GET /availabilities/preferences: the FREE places with their properties (CONTRACT §6). */
export function renderPreferences(ctx: Context, subject: MapSubject, onTrains: readonly OnTrain[]): z.infer<typeof R.PlacePreferencesResponse> {
  return {
    availablePlaces: placeStatuses(ctx, subject, onTrains).filter((p) => p.status === 'FREE')
      .map((p) => ({ coachNumber: p.coach.number, placeNumber: p.place.number, placeProperties: p.place.placeProperties })),
  };
}

/** GET /coach-layouts/{layoutId} (spec §2.11): places with number, centre coordinates and direction; 40 px seats. */
export function renderCoachLayout(rules: RuleSet, layoutId: string): z.infer<typeof R.CoachLayoutResponse> | undefined {
  const layout = rules.coachLayouts.layouts[layoutId];
  if (!layout) return undefined;
  return {
    coachLayout: {
      id: layoutId,
      gridSize: layout.gridSize,
      seatWidth: rules.coachLayouts.seatWidth,
      places: layout.places.map((p) => ({
        number: p.number, coords: p.coords, direction: p.direction, placeProperties: p.placeProperties,
        ...(p.compartment ? { compartmentNumber: p.compartment } : {}),
      })),
    },
  };
}
