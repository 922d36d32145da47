import { decide, type Context } from '../model/context.ts';
import { findCustomer } from '../customers/lookup.ts';
import type { OfferPassenger, Trip } from '../model/records.ts';
import type { CustomerEntry, TravelPassEntry } from '../rules/schemas.ts';
import type { TravelClass } from '../rules/facts.ts';

/**
 * A travel pass by its card number: one of customers.yaml, or one sold through the API (spec §4.2 rule 6), with
 * its holder when personal. `cardType`, when given, must match too.
 */
export function findPass(ctx: Context, cardNumber: string, cardType?: string): { pass: TravelPassEntry; holder?: CustomerEntry } | undefined {
  const matches = (p: TravelPassEntry) => p.cardNumber === cardNumber && (cardType === undefined || p.cardType === cardType);
  for (const c of ctx.rules.customers.customers) {
    const pass = c.travelPasses.find(matches);
    if (pass) return { pass, holder: c };
  }
  const sold = ctx.soldPasses.find(matches);
  if (!sold) return undefined;
  const holder = sold.holder ? findCustomer(ctx.rules.customers, { email: sold.holder }) : undefined;
  return { pass: sold, ...(holder ? { holder } : {}) };
}

/**
 * Spec §2.7 rule 8: the travel pass among a passenger's cards that pays for this trip, if any. The pass is
 * found by its card number (findPass); rules/travel-pass-coverage.yaml decides whether it covers. A multi-ride
 * pass has the rides it started with (customers.yaml, or its type's when bought) less those `taken`.
 */
export function coveringPass(
  ctx: Context,
  passenger: OfferPassenger,
  trip: Trip,
  tripClass: TravelClass,
  busy: (pass: string) => boolean = () => false,
  taken: (pass: string) => number = () => 0,
): string | undefined {
  if (!passenger.cards.some((c) => c.type === 'TRAVEL_PASS' && c.number)) return undefined; // most passengers: no pass
  const { rules } = ctx;
  const main = trip.legs.find((l) => l.id === trip.mainLegId)!;
  // A pass is valid on days of the operator's calendar: the journey's day is its first departure's there.
  const day = ctx.rules.calendar.dayOf(trip.legs[0]!.departure);
  const stations = (ref: string) => {
    const s = rules.stations.byRef(ref);
    return s ? [s.x_swe, s.uic].filter(Boolean) : [ref];
  };
  const from = stations(trip.legs[0]!.origin);
  const to = stations(trip.legs[trip.legs.length - 1]!.destination);
  for (const card of passenger.cards) {
    // Spec §2.7 rule 8: a pass already paying for another journey at this time is ignored.
    if (card.type !== 'TRAVEL_PASS' || !card.number || busy(card.number)) continue;
    const found = findPass(ctx, card.number, card.code)?.pass;
    const type = found && rules.customers.passTypes[found.cardType];
    if (!found || !type) continue;
    const bound =
      !type.bound || (from.includes(found.origin) && to.includes(found.destination)) || (from.includes(found.destination) && to.includes(found.origin));
    const categoryRank = (c: string) => rules.products.productCategories[c]?.speedRank ?? 0;
    const tripRank = categoryRank(main.category);
    const categoryRelation =
      !type.productCategories || type.productCategories.includes(main.category)
        ? 'SAME'
        : tripRank > 0 && type.productCategories.some((c) => categoryRank(c) > tripRank)
          ? 'PASS_HIGHER'
          : 'OTHER';
    const { outcome } = decide(ctx, 'travelPassCoverage', {
      passKind: type.kind,
      withinValidity: found.validFrom <= day && day <= found.validTo,
      ridesLeft: Math.max(0, (found.ridesLeft ?? 0) - taken(found.cardNumber)),
      stationsMatch: bound,
      classRelation: type.travelClass === tripClass ? 'SAME' : type.travelClass === 'FIRST' ? 'PASS_HIGHER' : 'PASS_LOWER',
      categoryRelation,
    });
    if (outcome?.covers) return found.cardNumber;
  }
  return undefined;
}
