import type { AncillaryPart, StoredOffer } from '../model/records.ts';
import { phrase, violation } from '../rules/violation.ts';

/**
 * Spec §2.8 rules 2–3: the ancillaries a booking gets — the ones it selects (at most one item per group),
 * and for every mandatory or included group it left out, the group's default, marked as auto-added.
 */
export function chooseAncillaries(offer: StoredOffer, selections: ReadonlyArray<{ ancillaryId: string }>): Array<{ part: AncillaryPart; autoAdded: boolean }> {
  const chosen = new Map<string, AncillaryPart>();
  const groupOf = (a: AncillaryPart) => `${a.passengerRef}|${a.legId}|${a.group}`;
  selections.forEach(({ ancillaryId }, i) => {
    const pointer = `#/offers/0/optionalAncillarySelections/${i}/ancillaryId`;
    const part = offer.ancillaries.find((a) => a.id === ancillaryId);
    if (!part) throw violation('86001', { reason: phrase('ancillary-not-in-offer', { ancillaryId, offerId: offer.offerId }) }, pointer);
    const other = chosen.get(groupOf(part));
    if (other && other.id !== part.id) throw violation('86001', { reason: phrase('ancillary-one-per-group', { first: other.id, second: part.id }) }, pointer);
    chosen.set(groupOf(part), part);
  });
  const out = [...chosen.values()].map((part) => ({ part, autoAdded: false }));
  for (const part of offer.ancillaries) {
    if (part.isDefault && !chosen.has(groupOf(part))) out.push({ part, autoAdded: true });
  }
  return out;
}
