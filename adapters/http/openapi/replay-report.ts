import { z } from 'zod';

/** What `signalbox replay --json` writes (docs/replay.md): one schema, the report's type derived from it. */

const Price = z.object({
  amount: z.number().describe('In minor units (öre): 54900 with scale 2 is 549.00.'),
  scale: z.number().int(),
  currency: z.string(),
});

const SideAnswer = z.object({
  status: z.number().int(),
  code: z.string().nullable().describe("The Problem's code; null for an answer that is no Problem."),
});

export const REPLAY_CHANGE_KINDS = ['status', 'code', 'price'] as const;

/** The requests a replay leaves out (replay.ts says why). */
export const NOT_REPLAYED_KINDS = ['token-requests', 'clock-changes', 'trace-look-ups', 'customer-api', 'studio'] as const;
export type NotReplayed = (typeof NOT_REPLAYED_KINDS)[number];

const ReplayChange = z.object({
  request: z.number().int().describe('Its place in the journal, from 1.'),
  at: z.string().describe('The instant it was recorded at, and replayed at.'),
  client: z.string().optional(),
  method: z.string(),
  url: z.string().describe('As recorded (each side sent it with its own ids).'),
  a: SideAnswer,
  b: SideAnswer,
  prices: z
    .array(z.object({ at: z.string().describe('Where in the answer: offers[0].offerSummary.minimalPrice.'), a: Price.nullable(), b: Price.nullable() }))
    .describe('The prices that differ, A against B; empty unless the kind is price.'),
});

const ChangesOfAKind = z.object({
  count: z.number().int().describe('Requests with this kind of change.'),
  examples: z.array(ReplayChange).describe('The first of them in journal order, as many as asked for (`--examples`).'),
});

export const ReplayReport = z.object({
  journal: z.object({
    requests: z.number().int(),
    replayed: z.number().int(),
    skipped: z
      .partialRecord(z.enum(NOT_REPLAYED_KINDS), z.number().int())
      .describe('Requests not replayed, counted by kind: token requests, sandbox clock changes, trace look-ups, Customer API and studio requests.'),
  }),
  rules: z.object({ a: z.string(), b: z.string() }),
  asRecorded: z
    .object({ a: z.number().int(), b: z.number().int() })
    .describe('Replayed requests each side answered with the recorded status: how faithfully the journal replays.'),
  changed: z.number().int().describe('Replayed requests whose status, Problem code or prices differ between A and B.'),
  changes: z
    .object({ status: ChangesOfAKind, code: ChangesOfAKind, price: ChangesOfAKind })
    .describe('Each changed request under one kind: status if the status differs; else code if the Problem code does; else price.'),
});
export type ReplayReport = z.infer<typeof ReplayReport>;
export type ReplayChange = z.infer<typeof ReplayChange>;
export type ReplayPrice = z.infer<typeof Price>;
