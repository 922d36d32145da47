import type { AftersalesOutcome } from '../../engine/index.ts';

/**
 * The HTTP status of each aftersales outcome (CONTRACT §6): the engine says what happened, the adapter how it
 * answers. Creating an offer answers 200 with the offer, as OSDM 3.4 documents it; a deletion 204; a cleanup
 * 202 (spec §4.1 rule 12: accepted, nothing to show).
 */
const STATUS: Readonly<Record<AftersalesOutcome, number>> = {
  created: 200,
  read: 200,
  confirmed: 200,
  changed: 200,
  deleted: 204,
  'cleaned-up': 202,
};

export const statusOf = (outcome: AftersalesOutcome): number => STATUS[outcome];
