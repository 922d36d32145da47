import type { Context } from '../model/context.ts';
import type { PersonDetail } from '../model/records.ts';
import type { CardReference } from '../model/osdm/offer-request.ts';
import type { CustomerEntry } from '../rules/schemas.ts';
import { violation } from '../rules/violation.ts';
import { findPass } from '../offers/travel-passes.ts';

/**
 * Spec §2.7 rules 6–7: names bound to cards. A loyalty card (OPR_PRIO, number = member number, CONTRACT §4a)
 * and a personal travel pass (of customers.yaml or sold through the API) each belong to a customer of customers.yaml; the passenger's name must be
 * that customer's or be left out (then it is filled in from the card).
 */
const same = (a?: string, b?: string) => (a ?? '').trim().toLocaleLowerCase('sv') === (b ?? '').trim().toLocaleLowerCase('sv');

export function loyaltyHolder(ctx: Context, cards: readonly CardReference[]): CustomerEntry | undefined {
  const card = cards.find((c) => c.type === 'LOYALTY_CARD' && c.number);
  return card ? ctx.rules.customers.customers.find((c) => c.memberNumber === card.number) : undefined;
}

/** The holder of a personal travel pass among the cards (spec §2.7 rule 7), if any. */
export function personalPassHolder(ctx: Context, cards: readonly CardReference[]): { holder: CustomerEntry; cardNumber: string } | undefined {
  for (const card of cards) {
    if (card.type !== 'TRAVEL_PASS' || !card.number || !ctx.rules.customers.passTypes[card.code]?.personal) continue;
    const holder = findPass(ctx, card.number)?.holder;
    if (holder) return { holder, cardNumber: card.number };
  }
  return undefined;
}

/**
 * The passenger's details with the names the cards require: a given name that differs from the card's is
 * refused (86016 for a personal pass, 86014 for a loyalty card); a missing one is taken from the card.
 */
export function namesFromCards(ctx: Context, detail: PersonDetail | undefined, cards: readonly CardReference[], pointer: string): PersonDetail | undefined {
  const pass = personalPassHolder(ctx, cards);
  const loyalty = loyaltyHolder(ctx, cards);
  const owner = pass?.holder ?? loyalty;
  if (!owner) return detail;
  const code = pass ? '86016' : '86014';
  for (const field of ['firstName', 'lastName'] as const) {
    const given = detail?.[field];
    if (given && !same(given, owner[field])) throw violation(code, {}, `${pointer}/${field}`);
  }
  return { ...detail, firstName: owner.firstName, lastName: owner.lastName };
}

export const sameName = (a: PersonDetail | undefined, b: PersonDetail | undefined) => same(a?.firstName, b?.firstName) && same(a?.lastName, b?.lastName);
