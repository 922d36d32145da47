import type { PersonDetail } from '../model/records.ts';
import type { RuleSet } from '../rules/ruleset.ts';
import { phrase, violation, type ProblemPointer } from '../rules/violation.ts';
import type { PersonDetailInput } from '../model/osdm/booking-request.ts';

/** Compiled once per rule set: `phoneNumberPattern` in rules/cards.yaml. */
const phonePatterns = new WeakMap<RuleSet, RegExp>();

/**
 * Flattens OSDM PersonDetail (top-level or `contact` e-mail and phone) into the stored form, checking the phone
 * (spec §2.6: +<country code><number>, else 86039).
 */
export function readDetail(rules: RuleSet, detail: PersonDetailInput | undefined, pointer: string): PersonDetail | undefined {
  if (!detail) return undefined;
  const email = detail.contact?.email ?? detail.email;
  const phoneNumber = detail.contact?.phoneNumber ?? detail.phoneNumber;
  let phone = phonePatterns.get(rules);
  if (!phone) phonePatterns.set(rules, (phone = new RegExp(rules.cards.phoneNumberPattern)));
  if (phoneNumber !== undefined && !phone.test(phoneNumber)) {
    throw violation('86039', { value: phoneNumber }, `${pointer}/${detail.contact?.phoneNumber !== undefined ? 'contact/phoneNumber' : 'phoneNumber'}`);
  }
  return {
    ...(detail.firstName ? { firstName: detail.firstName } : {}),
    ...(detail.lastName ? { lastName: detail.lastName } : {}),
    ...(email ? { email } : {}),
    ...(phoneNumber ? { phoneNumber } : {}),
  };
}

/** What a passenger still lacks before confirmation (spec §2.6: firstName and lastName required). */
export function missingPassengerData(detail: PersonDetail | undefined): string[] {
  return ['firstName', 'lastName'].filter((f) => !detail?.[f as keyof PersonDetail]);
}

/**
 * Spec §2.6: a purchaser needs firstName, lastName and phoneNumber; e-mail or phone missing → 86026.
 * Returns pointers to what is missing, or throws for the coded case.
 */
export function checkPurchaser(detail: PersonDetail, pointer: string): void {
  const names = ['firstName', 'lastName'].filter((f) => !detail[f as keyof PersonDetail]);
  if (names.length > 0) {
    throw violation(
      '86001',
      { reason: phrase('purchaser-needs', { fields: names.join(', ') }) },
      names.map((n): ProblemPointer => ({ requestPointer: `${pointer}/${n}`, detail: phrase('required') })),
    );
  }
  if (!detail.email || !detail.phoneNumber) {
    throw violation(
      '86026',
      {},
      [!detail.email ? 'email' : 'phoneNumber'].map((n) => ({ requestPointer: `${pointer}/${n}`, detail: phrase('required') })),
    );
  }
}
