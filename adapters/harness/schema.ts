import { z } from 'zod';
import { IsoDuration, DATE_TIME_WITH_OFFSET } from '../../engine/rules/index.ts';
import { namedResponseSchemas } from './api-schema.ts';

/**
 * The shape of a scenario file (docs/scenarios.md). Editors get completion from the JSON Schema
 * generated from this (`npm run schemas` → schemas/scenario.schema.json).
 */
const Instant = z.string().regex(DATE_TIME_WITH_OFFSET, 'an ISO 8601 date-time with offset, e.g. 2026-12-01T08:00:00+01:00');

const Expectation = z.strictObject({
  status: z.number().int().min(100).max(599).optional(),
  headers: z.record(z.string(), z.unknown()).optional(),
  /** Subset match by default: every key given must match; others may be there too. */
  body: z.unknown().optional(),
  /** Match the body exactly: no other keys allowed. */
  exact: z.boolean().optional(),
  /**
   * The API schema the body must match, by its name in GET /openapi.json's components (BookingResponse, Problem, …),
   * instead of the one the operation declares for the status. Every response is checked against its operation's anyway.
   */
  schema: z.enum(Object.keys(namedResponseSchemas).sort() as [string, ...string[]]).optional(),
});

const methods = ['get', 'post', 'patch', 'put', 'delete'] as const;

export const ApiStep = z
  .strictObject({
    name: z.string().optional(),
    get: z.string().optional(),
    post: z.string().optional(),
    patch: z.string().optional(),
    put: z.string().optional(),
    delete: z.string().optional(),
    /** Extra headers; a header set to null is not sent (e.g. `Requestor: null`). */
    headers: z.record(z.string(), z.union([z.string(), z.null()])).optional(),
    body: z.unknown().optional(),
    /** Which OAuth client's token to send (default: the scenario's), or false for none. */
    auth: z.union([z.string(), z.literal(false)]).optional(),
    /** The Requestor header's sales application (default: the scenario's). */
    salesApplication: z.string().optional(),
    expect: Expectation.default({}),
    save: z.record(z.string(), z.string()).optional(),
  })
  .refine((s) => methods.filter((m) => s[m] !== undefined).length === 1, { message: 'a step names exactly one of get, post, patch, put, delete' });

export const ClockStep = z
  .strictObject({
    name: z.string().optional(),
    /** Move the clock forward by an ISO 8601 duration (PT61M, P1D). */
    advance: IsoDuration.optional(),
    /** Set the clock to an instant. */
    at: Instant.optional(),
  })
  .refine((s) => (s.advance === undefined) !== (s.at === undefined), { message: 'a clock step has either advance or at' });

export type ApiStep = z.infer<typeof ApiStep>;
export type ClockStep = z.infer<typeof ClockStep>;

/**
 * A rule release the scenario's server has in its store (docs/releases.md): the rules the run started with, some
 * files replaced by files beside the scenario. In-process runs only: a live server's releases are its own.
 */
const ScenarioRelease = z.strictObject({
  name: z.string().min(1),
  /** The instant it comes into force (any offset: compared as an instant). */
  effectiveFrom: Instant,
  reason: z.string().optional(),
  /** Rule file name → the file (relative to the scenario) that replaces it in this release, e.g. `tariff.yaml: ../fixtures/releases/tariff-2027.yaml`. */
  replace: z.record(z.string().regex(/^[^/\\]+\.ya?ml$/, 'a rule file name such as tariff.yaml'), z.string()).default({}),
});

export const Scenario = z.strictObject({
  name: z.string().min(1),
  description: z.string().optional(),
  spec: z.string().optional(),
  tags: z.array(z.string()).default([]),
  client: z.string().default('demo-reseller'),
  salesApplication: z.string().default('WEB_SE'),
  language: z.enum(['en-GB', 'sv-SE']).default('en-GB'),
  clock: Instant,
  uses: z.array(z.string()).default([]),
  /** Rule releases scheduled before the first step (in-process runs; skipped against a live --target). */
  releases: z.array(ScenarioRelease).default([]),
  steps: z.array(z.unknown()).min(1),
});
export type Scenario = z.infer<typeof Scenario>;

/** Named building blocks scenarios share (`uses:`): trips, passenger groups, purchasers. */
export const Fixtures = z.strictObject({
  trips: z.record(z.string(), z.unknown()).default({}),
  /** A group is a list of passengers, or of ages (each becomes p1…pN, as `$passengers: [35, 8]` does). */
  passengers: z.record(z.string(), z.array(z.union([z.number().int().min(0), z.record(z.string(), z.unknown())]))).default({}),
  purchasers: z.record(z.string(), z.unknown()).default({}),
});
export type Fixtures = z.infer<typeof Fixtures>;

export const methodOf = (step: ApiStep) => methods.find((m) => step[m] !== undefined)!;
