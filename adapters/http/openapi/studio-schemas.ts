import { z } from 'zod';

/**
 * The shapes of the studio's JSON endpoints (adapters/studio/routes/), one zod schema each: validation, the types the
 * server and the page's script (adapters/studio/client/) share, and /openapi.json.
 */

const Cell = z.object({
  text: z.string().describe('The value as YAML flow text.'),
  value: z.unknown().describe('The same value as JSON.'),
  at: z.string().describe('file:line:col of the value.'),
});

const TableRow = z.object({
  id: z.string(),
  at: z.string(),
  otherwise: z.boolean(),
  when: z.record(z.string(), Cell),
  then: z.record(z.string(), Cell),
});

export const FactField = z.object({
  name: z.string(),
  kind: z.enum(['number', 'enum', 'boolean', 'string', 'instant']),
  min: z.number().optional(),
  max: z.number().optional(),
  values: z.array(z.string()).optional(),
  default: z.unknown().optional(),
});

/** What a row's `then` may say under one key, as the page's editor for it (the decision's outcome catalogue). */
export const OutcomeField = z.object({
  name: z.string(),
  kind: z.enum(['enum', 'number', 'integer', 'boolean', 'text', 'string', 'list', 'json']),
  values: z.array(z.string()).optional().describe('The closed vocabulary of an `enum`; the languages of a `text`.'),
  min: z.number().optional(),
  max: z.number().optional(),
  pattern: z.string().optional().describe('A `string` must match this regular expression.'),
  optional: z.boolean().optional(),
});

export const DecisionTable = z.object({
  decision: z.string(),
  title: z.string(),
  file: z.string(),
  at: z.string(),
  spec: z.string().optional(),
  hitPolicy: z.enum(['unique', 'first', 'collect']),
  columns: z.object({ when: z.array(z.string()), then: z.array(z.string()) }),
  rows: z.array(TableRow),
  examples: z
    .array(z.object({ given: z.record(z.string(), z.unknown()), expect: z.unknown(), at: z.string() }))
    .describe("The table's own examples, which `check` runs."),
  version: z.string().describe("Names the file's text as read; an edit that gives it is refused if the file changed since."),
  facts: z.array(FactField).describe('The fact catalogue of the decision: what a row may test, and what "try" asks for.'),
  outcomes: z.array(OutcomeField).describe('The outcome catalogue of the decision: what a row may say, key by key.'),
});

const EditedRow = z.strictObject({
  was: z.string().max(200).optional().describe('The id the row had in the file; absent for a new row.'),
  id: z.string().max(200),
  otherwise: z.boolean().optional(),
  when: z.record(z.string().max(200), z.string().max(2000)).default({}),
  then: z.record(z.string().max(200), z.string().max(2000)).default({}),
});

const EditedExample = z.strictObject({
  given: z.record(z.string().max(200), z.unknown()).describe('The facts, as JSON values.'),
  expect: z
    .union([z.record(z.string().max(200), z.unknown()), z.literal('no-row')])
    .describe('What the deciding row says (the keys that matter), or `no-row`.'),
});

/** A scenario step's expectation the same change rewrites: what the step is to expect from now on. */
export const ExpectationUpdate = z.strictObject({
  scenario: z.string().max(500).describe('The scenario file, as the impact report names it.'),
  step: z.string().max(600).describe("The step's place (`at` in the impact report)."),
  keys: z
    .array(z.union([z.string().max(200), z.number().int().min(0)]))
    .min(2)
    .max(50)
    .describe("The expectation's place in its step (`keys` of the mismatch), e.g. `[expect, body, passenger, type]`."),
  value: z.unknown().describe('What the step expects there from now on.'),
});

export const TableEdit = z.strictObject({
  rows: z.array(EditedRow).max(500),
  examples: z.array(EditedExample).max(500).optional().describe("The table's examples as edited; absent, they stay as the file has them."),
  version: z.string().max(100).optional().describe('The `version` of the table the edit started from.'),
  expectations: z.array(ExpectationUpdate).max(200).optional().describe('Scenario expectations this change updates (a save writes them too).'),
  reason: z
    .string()
    .trim()
    .min(1)
    .max(2000)
    .optional()
    .describe('Why the change is saved although scenario steps fail on it; kept in the rules folder\u2019s CHANGES.md.'),
});

/** A problem `check` finds, placed at the cell (or the row, or the table) it is about. */
export const PlacedProblem = z.object({
  message: z.string(),
  at: z.string(),
  row: z.number().int().optional().describe('Index of the row in the edited table.'),
  cell: z.string().optional().describe('`when.<fact>`, `then.<key>` or `id`.'),
  example: z.number().int().optional().describe('Index of the example it is about.'),
});

/** What the edited rules decide for one of the table's examples. */
const ExampleResult = z.object({
  passed: z.boolean(),
  row: z.string().nullable().describe('The row that decides the example on the edited rules.'),
  outcome: z.unknown().describe('What that row says.'),
});

export const ScenarioRunRequest = z.strictObject({
  tag: z.string().max(100).optional().describe('Only the scenarios with this tag; all of them without.'),
  file: z.string().max(500).optional().describe('Only this scenario file of the corpus (as the list names it).'),
});

const Trace = z.object({
  decision: z.string(),
  file: z.string(),
  hitPolicy: z.string(),
  facts: z.record(z.string(), z.unknown()),
  fired: z.array(z.object({ row: z.string(), at: z.string() })),
});
export const ScenarioRun = z.object({
  passed: z.number().int(),
  failed: z.number().int(),
  scenarios: z.array(
    z.object({
      file: z.string(),
      name: z.string(),
      tags: z.array(z.string()),
      passed: z.boolean(),
      problems: z.array(z.string()),
      steps: z.array(
        z.object({
          name: z.string(),
          at: z.string(),
          passed: z.boolean(),
          skipped: z.boolean().optional(),
          request: z.object({ method: z.string(), path: z.string() }).optional(),
          status: z.number().int().optional(),
          error: z.string().optional(),
          mismatches: z.array(z.object({ path: z.string(), expected: z.unknown(), actual: z.unknown(), message: z.string(), at: z.string().optional() })),
          traces: z.array(Trace).optional(),
        }),
      ),
    }),
  ),
  coverage: z.object({
    scenarios: z.array(z.string()).describe('The files run, the columns of the matrix.'),
    rows: z.array(
      z.object({
        decision: z.string(),
        row: z.string(),
        at: z.string(),
        by: z.array(z.string()),
        unreachable: z.string().optional().describe('Why no scenario can exercise the row, where the corpus lists it so.'),
      }),
    ),
    unexercised: z.array(z.string()).describe('`decision#row` of every row no scenario run exercised, those listed as unreachable left out.'),
  }),
});

export const ScenarioList = z.array(z.object({ file: z.string(), name: z.string(), tags: z.array(z.string()) }));

export const JournalEntry = z.object({
  id: z.string().describe('The request id (X-Request-Id).'),
  at: z.string().describe("When it was answered, on its client's clock: the server's, unless the client moved its own sandbox clock."),
  method: z.string(),
  url: z.string(),
  status: z.number().int(),
  ms: z.number(),
  client: z.string().optional().describe('The client the request authenticated (its bearer token, or the client a token was issued to).'),
  request: z.object({ headers: z.record(z.string(), z.string()), body: z.unknown().optional() }),
  response: z.object({
    contentType: z.string().optional(),
    release: z.string().optional().describe('The rule release that decided the answer (its Rules-Release header, docs/releases.md).'),
    body: z.unknown().optional(),
  }),
  traces: z.array(z.unknown()),
});

export const Journal = z.object({ size: z.number().int(), entries: z.array(JournalEntry).describe('Newest first.') });

export const SeatQuery = z.strictObject({
  contextType: z.enum(['OFFER', 'BOOKING']),
  contextId: z.string().min(1).max(200),
});

export const SeatMaps = z.object({
  contextType: z.enum(['OFFER', 'BOOKING']),
  contextId: z.string(),
  legs: z.array(
    z.object({
      legId: z.string(),
      reservationId: z.string(),
      held: z.array(z.object({ coach: z.string(), place: z.string() })).describe('The places this booking holds on the leg.'),
      coaches: z.array(z.object({ number: z.string(), svg: z.string().describe('An SVG document.') })),
    }),
  ),
});

export const OffersTry = z.strictObject({
  trip: z.string().min(1).max(100).describe("The name of a trip in the scenarios' fixtures (GET /studio/api/trips)."),
  passengers: z
    .array(
      z.strictObject({
        age: z.number().int().min(0).max(130),
        cards: z
          .array(z.string().regex(/^[A-Z0-9_]{1,40}$/))
          .max(5)
          .optional()
          .describe('Reduction card codes (rules/cards.yaml).'),
      }),
    )
    .min(1)
    .max(9),
  salesApplication: z.string().max(40).default('WEB_SE'),
});

export const TripList = z.array(z.object({ name: z.string(), summary: z.string() }));

export const EditMode = z.object({
  edit: z.boolean().describe('The rules may be saved from the studio (a sandbox or `serve --edit`), by a token with scope analyst.'),
  sandbox: z.boolean(),
  scenarios: z.array(z.string()),
});

export const ExplainRequest = z.strictObject({ facts: z.record(z.string(), z.unknown()) });

export const SimulateRequest = z.strictObject({
  cases: z.array(z.record(z.string(), z.unknown())).max(1000).optional().describe('Fact rows, one per case.'),
  csv: z.string().max(100_000).optional().describe('Fact rows as CSV: a header row of fact names.'),
  yaml: z.string().max(100_000).optional().describe('Fact rows as a YAML or JSON list.'),
  boundaries: z.boolean().optional().describe('Add the boundary cases: every bound ±1, every enum value.'),
});

export const DecisionList = z.array(
  z.object({ decision: z.string(), title: z.string(), file: z.string(), spec: z.string().optional(), hitPolicy: z.string(), rows: z.number().int() }),
);

const ConditionExplained = z.object({
  fact: z.string(),
  operator: z.string(),
  expected: z.unknown(),
  written: z.unknown().describe('The test as the rule file writes it: `NONE`, `{ between: [16, 64] }` (both halves of a between share it).'),
  actual: z.unknown(),
  against: z.unknown().optional(),
  passed: z.boolean(),
  at: z.string(),
});

export const Explanation = z.object({
  explanation: z
    .object({
      decision: z.string(),
      title: z.string(),
      file: z.string(),
      hitPolicy: z.string(),
      facts: z.record(z.string(), z.unknown()),
      outcome: z.unknown(),
      rows: z.array(
        z.object({
          row: z.string(),
          at: z.string(),
          fired: z.boolean(),
          conditions: z.array(ConditionExplained),
          firstFailed: ConditionExplained.optional(),
        }),
      ),
    })
    .optional(),
  problems: z.array(z.string()).optional().describe('Why the facts do not fit the decision (then there is no explanation).'),
});

export const SimulatedCases = z.object({
  cases: z.array(
    z.object({
      facts: z.record(z.string(), z.unknown()),
      row: z.string().nullable(),
      at: z.string().nullable(),
      outcome: z.unknown(),
      problem: z.string().optional(),
    }),
  ),
});

export const EditCheck = z.object({
  changed: z.boolean(),
  problems: z.array(PlacedProblem),
  examples: z.array(ExampleResult).describe('Each example of the table, in order, on the edited rules: whether it holds, and what they decide instead.'),
  text: z.string().describe('The file as the edit would write it.'),
  counterexamples: z
    .number()
    .int()
    .optional()
    .describe('How many of the problems are cases no row or two rows match, for which POST …/counterexamples writes scenarios.'),
});

/** An expectation of a scenario step that the answer did not meet: where it is written, what it says, what came. */
const StepMismatch = z.object({
  path: z.string().describe('Where in the answer, e.g. `body.passenger.type`.'),
  expected: z.unknown(),
  actual: z.unknown(),
  message: z.string(),
  at: z.string().optional().describe('file:line:col of the expectation in the scenario.'),
  keys: z
    .array(z.union([z.string(), z.number()]))
    .optional()
    .describe("The expectation's place in its step, e.g. `[expect, body, passenger, type]`."),
});

const Verdict = z.enum(['passed', 'failed', 'not run']);

export const ImpactReport = z
  .object({
    decisions: z.array(
      z.object({
        decision: z.string(),
        from: z.object({ row: z.string().nullable(), outcome: z.unknown() }),
        to: z.object({ row: z.string().nullable(), outcome: z.unknown() }),
        cases: z.array(z.record(z.string(), z.unknown())).describe('The fact rows that show the change.'),
      }),
    ),
    texts: z
      .array(
        z.object({
          decision: z.string(),
          row: z.string().nullable(),
          key: z.string(),
          from: z.unknown(),
          to: z.unknown(),
          cases: z.number().int().describe('How many boundary cases show the text.'),
        }),
      )
      .describe('Outcomes whose texts alone change: the same decision, worded otherwise.'),
    prices: z
      .array(
        z.object({
          trip: z.string(),
          offer: z.string().describe('The offered product, e.g. `JREF_2_N`.'),
          summary: z.string().describe('Its class, comfort and flexibility in words.'),
          passengers: z.string().describe('Who travels, e.g. `aged 16–17, no card`.'),
          currency: z.string(),
          from: z.number().nullable(),
          to: z.number().nullable(),
        }),
      )
      .describe("Offer prices that change, old and new in minor units: every probe of the corpus's price probes, priced on both rule sets."),
    scenarios: z.array(
      z.object({
        scenario: z.string(),
        request: z.number().int(),
        step: z.string(),
        at: z.string().optional(),
        verdict: z.object({ from: Verdict, to: Verdict }).optional().describe("The step's verdict, where it changes or where it fails on the new rules."),
        mismatches: z.array(StepMismatch).optional().describe('What the step expected and what the new rules answer instead.'),
        status: z.object({ from: z.number().int(), to: z.number().int() }).optional(),
        code: z.object({ from: z.string().nullable(), to: z.string().nullable() }).optional(),
        prices: z
          .array(z.object({ at: z.string(), currency: z.string(), from: z.number().nullable(), to: z.number().nullable(), difference: z.number() }))
          .describe('Money that changed, by its place in the answer; amounts in minor units.'),
        missing: z
          .object({ on: z.enum(['old', 'new']), failedStep: z.string().optional() })
          .optional()
          .describe('One side did not send this request: its scenario stopped earlier.'),
      }),
    ),
    summary: z.object({
      changedRows: z.number().int(),
      changedCases: z.number().int(),
      changedTexts: z.number().int(),
      changedOfferPrices: z.number().int(),
      changedSteps: z.number().int(),
      changedPrices: z.number().int(),
      failingSteps: z.number().int().describe('Steps that fail on the edited rules (some may fail on the rules now serving too).'),
      scenarios: z.number().int(),
    }),
  })
  .describe(
    'The report of `signalbox diff`: changed rows with the cases that show them, text changes, offer prices that change, and the scenario steps whose verdict, status, code or price change.',
  );
export type ImpactReport = z.infer<typeof ImpactReport>;

/** One wrong version of a table and what the scenarios made of it (`signalbox mutate`). */
const MutantResult = z.object({
  id: z.string(),
  decision: z.string().describe('The decision, or the machine (`booking`, `fulfillment`…) whose transition it changes.'),
  file: z.string(),
  at: z.string().describe('file:line:col of what the mutant changed.'),
  row: z.string().describe('The row it changes, or the state a changed transition leaves.'),
  kind: z.enum([
    'bound',
    'inclusive',
    'operator',
    'value',
    'outcome',
    'row-removed',
    'rows-swapped',
    'condition-dropped',
    'transition-removed',
    'target-changed',
  ]),
  change: z.string().describe('What changed, as the file writes it.'),
  verdict: z
    .enum(['killed', 'survived', 'invalid', 'equivalent'])
    .describe('`invalid`: check refuses the table for what it is; `equivalent`: it decides every boundary case alike. Neither counts.'),
  killedBy: z.string().optional().describe('The scenario file that failed on it, or `examples`.'),
});

const Score = z.object({
  mutants: z.number().int(),
  valid: z.number().int().describe('Killed and surviving ones: those that count.'),
  killed: z.number().int(),
  killedByScenarios: z.number().int().describe('Killed by a scenario, not only by the table\u2019s examples.'),
  score: z.number().describe('killed ÷ valid; 1 when none is valid.'),
});

export const MutationReport = z.object({
  decisions: z
    .array(Score.extend({ decision: z.string(), file: z.string(), scenarios: z.number().int().describe('The scenarios run against its mutants.') }))
    .describe('Each decision, then each machine.'),
  overall: Score,
  mutants: z.array(MutantResult),
  ms: z.number(),
});
export type MutationReport = z.infer<typeof MutationReport>;
export type MutantResult = z.infer<typeof MutantResult>;
export type SuggestedScenario = z.infer<typeof SuggestedScenario>;
export type SuggestedScenarioSaved = z.infer<typeof SuggestedScenarioSaved>;
export type Counterexamples = z.infer<typeof Counterexamples>;

export const SuggestedScenario = z.object({
  name: z.string().describe('A file name for it under scenarios/suggested/, without `.yaml`.'),
  text: z.string().describe('The scenario: it passes on the rules now serving and fails on the mutant.'),
});

export const Counterexamples = z.object({
  counterexamples: z.array(
    z.object({
      kind: z.enum(['gap', 'overlap']),
      at: z.string().describe('Where check places the finding: `file:line:col`.'),
      message: z.string().describe('What check says.'),
      reading: z.string().optional().describe('The reading of the edited table the scenario tells apart from the serving rules: which row decides, or none.'),
      scenario: SuggestedScenario.optional().describe(
        'It passes on the serving rules and fails on that reading; absent when no request the search tries asks the decision this case.',
      ),
    }),
  ),
});

export const SuggestedScenarioSave = z.strictObject({
  name: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,150}$/, 'letters, digits, - and _')
    .describe('The file name under scenarios/suggested/, without `.yaml`; a file already there is not written over.'),
  text: z.string().max(200_000),
});

export const SuggestedScenarioSaved = z.object({ file: z.string() });

export const EditImpact = z.object({ problems: z.array(PlacedProblem), examples: z.array(ExampleResult), impact: ImpactReport.optional() });

export const EditSaved = z.object({
  saved: z.boolean(),
  file: z.string(),
  table: DecisionTable,
  scenarios: z.array(z.string()).describe('The scenario files whose expectations the change updated.'),
  failing: z.number().int().describe('Scenario steps that fail on the saved rules (saved with a reason).'),
});

export const OffersTried = z.object({
  request: z.record(z.string(), z.unknown()),
  status: z.number().int(),
  response: z.record(z.string(), z.unknown()),
  traces: z.array(z.unknown()),
});

export const ReferenceData = z.object({
  products: z.record(z.string(), z.unknown()),
  cards: z.record(z.string(), z.unknown()),
  stations: z.array(z.record(z.string(), z.unknown())),
  salesApplications: z.array(z.record(z.string(), z.unknown())),
});

export type DecisionTable = z.infer<typeof DecisionTable>;
export type TableEdit = z.infer<typeof TableEdit>;
export type ExpectationUpdate = z.infer<typeof ExpectationUpdate>;
export type PlacedProblem = z.infer<typeof PlacedProblem>;
export type FactField = z.infer<typeof FactField>;
export type OutcomeField = z.infer<typeof OutcomeField>;
export type ScenarioRun = z.infer<typeof ScenarioRun>;
export type JournalEntry = z.infer<typeof JournalEntry>;
export type SeatMaps = z.infer<typeof SeatMaps>;
export type DecisionList = z.infer<typeof DecisionList>;
export type Explanation = z.infer<typeof Explanation>;
export type SimulatedCases = z.infer<typeof SimulatedCases>;
export type EditCheck = z.infer<typeof EditCheck>;
export type EditImpact = z.infer<typeof EditImpact>;
export type EditSaved = z.infer<typeof EditSaved>;
export type OffersTried = z.infer<typeof OffersTried>;
export type ReferenceData = z.infer<typeof ReferenceData>;
export type ScenarioList = z.infer<typeof ScenarioList>;
export type Journal = z.infer<typeof Journal>;
export type TripList = z.infer<typeof TripList>;
export type EditMode = z.infer<typeof EditMode>;
