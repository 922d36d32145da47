import type { Context } from '../model/context.ts';
import type { Money, StoredOffer } from '../model/records.ts';
import type { DecisionResult } from '../rules/decision.ts';
import type { PassUse } from '../holdings/pass-uses.ts';
import { admissionPrices, passengerShares } from './admission-prices.ts';
import { ancillaryPrice, ancillaryShare } from './ancillaries.ts';
import { minimalParts } from './minimal-price.ts';
import { passPrice } from './passes.ts';
import type { ExplainedPart, OfferPriceExplanation, PriceCalculation, PriceStep } from '../model/price-explanation.ts';
import { sumSteps } from './price-steps.ts';
import { sum } from './pricing.ts';
import { decideReservationPrice, reservationPartPrice } from './reservation-price.ts';

const calculation = (price: Money, steps: PriceStep[]): PriceCalculation => ({
  amount: price.amount,
  currency: price.currency,
  ...(price.vats?.[0] ? { vat: price.vats[0].amount } : {}),
  steps,
});

/**
 * The prices of stored offers worked out again by the functions that priced them, this time writing every step down
 * (price-steps.ts). The same rules, instant, passengers and pass uses give the same amounts; the decisions are made
 * again, so their rows are the ones that priced the offer.
 */
export function explainOfferPrices(ctx: Context, offers: readonly StoredOffer[], passUses: readonly PassUse[] = []): OfferPriceExplanation[] {
  return offers.map((offer) => {
    const prices = new Map<string, Money>();
    const parts = offer.pass ? passParts(ctx, offer) : journeyParts(ctx, offer, passUses);
    for (const { id, price } of parts) prices.set(id, price);
    const inMinimal = minimalParts(offer.admissions, offer.ancillaries).map((p) => p.id);
    const international = offer.trip.international;
    const total = sum(
      ctx.rules,
      inMinimal.map((id) => prices.get(id)!),
      offer.currency,
      international,
    );
    return {
      offerId: offer.offerId,
      currency: offer.currency,
      parts: parts.map(({ part }) => ({ ...part, inMinimalPrice: inMinimal.includes(part.id) })),
      minimalPrice: calculation(
        total,
        sumSteps(
          'part',
          inMinimal.map((id) => ({ ref: id, amount: prices.get(id)!.amount })),
          offer.currency,
        ),
      ),
    };
  });
}

type Priced = { part: Omit<ExplainedPart, 'inMinimalPrice'>; id: string; price: Money };

function journeyParts(ctx: Context, offer: StoredOffer, passUses: readonly PassUse[]): Priced[] {
  const { rules } = ctx;
  const { trip, currency } = offer;
  const steps = new Map<string, PriceStep[]>();
  const prices = admissionPrices(ctx, trip, offer.product.code, offer.product.flexibility, offer.passengers, currency, passUses, passengerShares(), steps);
  const admissions = offer.admissions.map((a): Priced => {
    const passengers = a.passengerRefs.map((ref) => ({ passengerRef: ref, price: prices.get(ref)!.price, steps: steps.get(ref)! }));
    const base = { id: a.id, kind: 'admission' as const, passengerRefs: a.passengerRefs };
    if (a.offerMode !== 'COLLECTIVE') {
      const only = passengers[0]!;
      return { id: a.id, price: only.price, part: { ...base, ...calculation(only.price, only.steps) } };
    }
    // Spec §2.3 rule 3: one price for all the passengers, the sum of their shares.
    const price = sum(
      rules,
      passengers.map((p) => p.price),
      currency,
      trip.international,
    );
    const shares = sumSteps(
      'passenger',
      passengers.map((p) => ({ ref: p.passengerRef, amount: p.price.amount })),
      currency,
    );
    return {
      id: a.id,
      price,
      part: { ...base, ...calculation(price, shares), passengers: passengers.map((p) => ({ passengerRef: p.passengerRef, ...calculation(p.price, p.steps) })) },
    };
  });
  const decidedOn = new Map<string, DecisionResult<{ price: number }>>();
  const reservations = offer.reservations.map((r): Priced => {
    const key = `${r.legId} ${r.product.code}`;
    const decided =
      decidedOn.get(key) ??
      decideReservationPrice(
        ctx,
        trip.legs.find((l) => l.id === r.legId)!,
        r.product.code,
      );
    decidedOn.set(key, decided);
    const recorded: PriceStep[] = [];
    const price = reservationPartPrice(rules, decided, currency, trip.international, recorded);
    return { id: r.id, price, part: { id: r.id, kind: 'reservation', passengerRefs: [r.passengerRef], legId: r.legId, ...calculation(price, recorded) } };
  });
  const share = offer.ancillaries.length > 0 ? ancillaryShare(ctx, offer.passengers) : undefined;
  const ancillaries = offer.ancillaries.map((a): Priced => {
    const recorded: PriceStep[] = [];
    const price = ancillaryPrice(rules, a.item, share!, currency, trip.international, recorded);
    return {
      id: a.id,
      price,
      part: { id: a.id, kind: 'ancillary', passengerRefs: [a.passengerRef], legId: a.legId, item: a.item, ...calculation(price, recorded) },
    };
  });
  return [...admissions, ...reservations, ...ancillaries];
}

function passParts(ctx: Context, offer: StoredOffer): Priced[] {
  return offer.admissions.map((a) => {
    const recorded: PriceStep[] = [];
    const price = passPrice(ctx.rules, a.product.code, offer.currency, recorded);
    return { id: a.id, price, part: { id: a.id, kind: 'admission', passengerRefs: a.passengerRefs, ...calculation(price, recorded) } };
  });
}
