import { decide, type Context } from '../model/context.ts';
import type { OfferPassenger } from '../model/records.ts';
import type { OutcomeOf } from '../rules/outcomes.ts';
import type { RuleSet } from '../rules/ruleset.ts';
import { Language, type LocalizedText } from '../rules/schemas.ts';
import { typingCardOf } from '../rules/facts.ts';
import { phrase, violation } from '../rules/violation.ts';
import type { AnonymousPassengerSpecification } from '../model/osdm/offer-request.ts';

/**
 * Spec §2.9: age and the reduction cards SWE_STUDENT / SWE_PENSIONER give the passenger type.
 * Reduction card codes outside rules/cards.yaml are refused with 86033 (CONTRACT §4a).
 */
export function typePassenger(ctx: Context, spec: AnonymousPassengerSpecification, index: number, firstDeparture: string): OfferPassenger {
  const pointer = `#/anonymousPassengerSpecifications/${index}`;
  spec.cards.forEach((card, c) => {
    if (card.type === 'REDUCTION_CARD' && !ctx.rules.cards.reductionCards[card.code]) {
      throw violation('86033', { code: card.code }, `${pointer}/cards/${c}/code`, ctx.traces);
    }
  });
  // CONTRACT §4: the age on the day of travel, the local day of the first departure in the operator's calendar.
  const age = spec.age ?? (spec.dateOfBirth ? ctx.rules.calendar.ageOn(spec.dateOfBirth, firstDeparture) : undefined);
  if (age === undefined || age < 0) {
    throw violation('86001', { reason: phrase('passenger-needs-age') }, `${pointer}/age`);
  }
  const typingCard = typingCardIn(ctx.rules, spec.cards);
  const { outcome, trace } = decide(ctx, 'passengerType', { age, typingCard });
  if (!outcome) throw violation('86001', { reason: phrase('no-passenger-type', { age }) }, `${pointer}/age`, ctx.traces);
  return {
    externalRef: spec.externalRef,
    age,
    cards: spec.cards,
    internalType: outcome.internalType,
    responseType: outcome.responseType,
    typedBy: trace.fired[0]!.row,
  };
}

/**
 * What the passenger type is called: the text of the row that typed the passenger. Where the rules no longer have
 * that row (changed since the offer was made, `serve --watch`), or a quote stored before offers kept it names none,
 * the row the passenger's age and cards land on now; failing that, the response type.
 */
export function passengerTypeText(rules: RuleSet, p: OfferPassenger): LocalizedText {
  const decision = rules.decisions.passengerType;
  const text = (outcome: unknown) => (outcome as OutcomeOf<'passengerType'> | undefined)?.description;
  const typedBy = decision.rows.find((r) => r.id === p.typedBy);
  if (typedBy) return text(typedBy.then)!;
  return (
    text(decision.evaluate({ age: p.age, typingCard: typingCardIn(rules, p.cards) }).outcome) ??
    (Object.fromEntries(Language.options.map((l) => [l, p.responseType])) as LocalizedText)
  );
}

/** The reduction card that decides the passenger type (rules/cards.yaml `effect: passengerType`), if any. */
function typingCardIn(rules: RuleSet, cards: OfferPassenger['cards']) {
  return typingCardOf(cards.filter((c) => c.type === 'REDUCTION_CARD' && rules.cards.reductionCards[c.code]?.effect === 'passengerType').map((c) => c.code));
}

export function isTrafficDisturbanceTicket(ctx: Context, p: OfferPassenger): boolean {
  return p.cards.some((c) => c.type === 'REDUCTION_CARD' && ctx.rules.cards.reductionCards[c.code]?.effect === 'trafficDisturbanceTicket');
}
