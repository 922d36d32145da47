import { z } from 'zod';

/**
 * The fact catalogue: for every decision, the facts its rows may test and their types.
 * A row naming a fact not listed here, or comparing it with a value of another type, is refused at load.
 */
export const InternalPassengerType = z.enum(['CHILD_0_6', 'CHILD_7_15', 'YOUTH_16_19', 'YOUTH_20_25', 'ADULT', 'STUDENT', 'SENIOR']);
export type InternalPassengerType = z.infer<typeof InternalPassengerType>;

/** The reduction card that takes part in passenger typing (spec §2.9); NONE when the passenger has neither. */
export const TypingCard = z.enum(['NONE', 'SWE_STUDENT', 'SWE_PENSIONER']);

const age = z.number().int().min(0).max(130);
const count = z.number().int().min(0).max(1000);

export const factCatalogue = {
  passengerType: z.object({ age, typingCard: TypingCard }),
  fareFactor: z.object({ internalType: InternalPassengerType, age, trafficDisturbanceTicket: z.boolean() }),
  offerRequestLimits: z.object({ passengerCount: count, tripCount: count, mostLegsInOneTrip: count }),
} as const;

export type DecisionName = keyof typeof factCatalogue;
export type FactsOf<D extends DecisionName> = z.infer<(typeof factCatalogue)[D]>;
