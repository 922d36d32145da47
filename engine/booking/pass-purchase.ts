import type { Context } from '../model/context.ts';
import type { Booking, PassOffer, PersonDetail, StoredOffer } from '../model/records.ts';
import { durationMs } from '../rules/time.ts';
import { addDays } from '../rules/calendar.ts';
import type { CustomerEntry } from '../rules/schemas.ts';
import { violation } from '../rules/violation.ts';
import type { BookingRequest } from '../model/osdm/booking-request.ts';

const DAY = durationMs('P1D');

/**
 * Spec §4.2 rules 1 and 4: buying a travel pass. One pass and one passenger per booking (86006, 86020).
 * A personal pass needs the passenger identified — a twelve-digit identity number as passenger
 * externalRef, or a loyalty card (86021); the data come from the registry (here: customers.yaml, and a
 * number it does not know cannot become a contact, 86027). Returns the holder whose name the booking takes.
 */
export function checkPassPurchase(
  ctx: Context,
  request: BookingRequest,
  offer: StoredOffer,
  offers: ReadonlyMap<string, StoredOffer>,
): CustomerEntry | undefined {
  const { rules } = ctx;
  if (request.offers.filter((o) => offers.get(o.offerId)?.pass).length > 1) throw violation('86006', {}, '#/offers');
  if (request.passengerSpecifications.length !== 1 || offer.passengers.length !== 1) throw violation('86020', {}, '#/passengerSpecifications');
  const passType = rules.customers.passTypes[offer.pass!.passType]!;
  if (!passType.personal) return undefined;

  const spec = request.passengerSpecifications[0]!;
  const at = '#/passengerSpecifications/0';
  const loyalty = spec.cards.find((c) => c.type === 'LOYALTY_CARD');
  if (loyalty && !(loyalty.number && new RegExp(rules.cards.loyaltyCard.numberPattern).test(loyalty.number))) {
    throw violation('86025', { number: loyalty.number ?? '' }, `${at}/cards/${spec.cards.indexOf(loyalty)}/number`);
  }
  const identity = new RegExp(rules.cards.identityNumberPattern).test(spec.externalRef) ? spec.externalRef : undefined;
  if (!identity && !loyalty) throw violation('86021', {}, `${at}/externalRef`);

  const byIdentity = identity ? rules.customers.customers.find((c) => c.identityNumber === identity) : undefined;
  const byLoyalty = loyalty ? rules.customers.customers.find((c) => c.memberNumber === loyalty.number) : undefined;
  if (identity && !byIdentity) throw violation('86027', {}, `${at}/externalRef`);
  if (loyalty && !byLoyalty) throw violation('86021', {}, `${at}/cards/${spec.cards.indexOf(loyalty)}/number`);
  if (byIdentity && byLoyalty && byIdentity !== byLoyalty) throw violation('86023', {}, `${at}/cards/${spec.cards.indexOf(loyalty!)}/number`);
  const holder = (byIdentity ?? byLoyalty)!;
  const same = (a?: string, b?: string) => !a || a.trim().toLocaleLowerCase('sv') === (b ?? '').toLocaleLowerCase('sv');
  for (const field of ['firstName', 'lastName'] as const) {
    if (!same(spec.detail?.[field], holder[field])) throw violation('86022', {}, `${at}/detail/${field}`);
  }
  return holder;
}

/** The passenger's details on a personal pass: the holder's name; e-mail and phone may differ (spec §4.2 rule 4). */
export function holderDetail(holder: CustomerEntry, given: PersonDetail | undefined): PersonDetail {
  return { ...given, firstName: holder.firstName, lastName: holder.lastName };
}

/**
 * What the booking keeps of the pass it sells, so that once confirmed it is a pass like those of customers.yaml
 * (spec §4.2 rule 6, engine/holdings/sold-passes.ts): its last day, its rides, its holder.
 */
export function soldPass(ctx: Context, pass: PassOffer, holder: CustomerEntry | undefined): NonNullable<Booking['pass']> {
  const { passProducts, customers } = ctx.rules;
  // Validity is counted in days of the operator's calendar from validFrom's local day, both ends included.
  const firstDay = ctx.rules.calendar.dayOf(pass.validFrom);
  const lastDay = addDays(firstDay, Math.ceil(durationMs(passProducts.products[pass.passType]!.validFor) / DAY) - 1);
  const rides = customers.passTypes[pass.passType]?.rides;
  return { ...pass, firstDay, lastDay, ...(rides !== undefined ? { rides } : {}), ...(holder ? { holder: holder.email } : {}) };
}
