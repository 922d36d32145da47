import { z } from 'zod';
import { ErrorPage } from '../error-page.ts';
import { json, operation, type Operation } from './operation.ts';
import * as S from '../openapi/studio-schemas.ts';

/**
 * The studio's endpoints, the Studio part of the route table (adapters/http/operations/index.ts), without
 * handlers: the studio registers its routes itself (routes.ts) where `signalbox serve` adds it, and a server
 * built without it leaves them out of its document.
 */
const html = { description: 'The studio page (HTML); its script draws the view the URL fragment names.', schema: z.string(), contentType: 'text/html' };
const decision = 'The decision, e.g. `passengerType` (GET /studio/api/decisions lists them).';

const Explanation = z.object({
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
          conditions: z.array(
            z.object({
              fact: z.string(),
              operator: z.string(),
              expected: z.unknown(),
              actual: z.unknown(),
              against: z.unknown().optional(),
              passed: z.boolean(),
              at: z.string(),
            }),
          ),
          firstFailed: z.unknown().optional(),
        }),
      ),
    })
    .optional(),
  problems: z.array(z.string()).optional().describe('Why the facts do not fit the decision (then there is no explanation).'),
});
const Simulated = z.object({
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
const Checked = z.object({ changed: z.boolean(), problems: z.array(S.PlacedProblem), text: z.string().describe('The file as the edit would write it.') });
const Impact = z.object({
  problems: z.array(S.PlacedProblem),
  impact: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('The report of `signalbox diff`: changed rows with the cases that show them, and the scenario steps whose status, code or price change.'),
});
const Saved = z.object({ saved: z.boolean(), file: z.string(), table: S.DecisionTable });
const OffersTried = z.object({
  request: z.record(z.string(), z.unknown()),
  status: z.number().int(),
  response: z.record(z.string(), z.unknown()),
  traces: z.array(z.unknown()),
});
const Reference = z.object({
  products: z.record(z.string(), z.unknown()),
  cards: z.record(z.string(), z.unknown()),
  stations: z.array(z.record(z.string(), z.unknown())),
  salesApplications: z.array(z.record(z.string(), z.unknown())),
});
const DecisionList = z.array(
  z.object({ decision: z.string(), title: z.string(), file: z.string(), spec: z.string().optional(), hitPolicy: z.string(), rows: z.number().int() }),
);

const base = { section: 'docs/studio.md (the studio)', tag: 'Studio' as const };

export const studioOperations: readonly Operation[] = [
  operation({ method: 'GET', path: '/studio', ...base, summary: 'The analysts\u2019 workbench', access: 'public', responses: { 200: html } }),
  operation({
    method: 'GET',
    path: '/studio/*',
    notUnder: '/studio/api/',
    ...base,
    summary: 'The workbench at any deeper path',
    description: 'Any path but those under /studio/api/, which are the endpoints below.',
    access: 'public',
    responses: { 200: html },
  }),
  operation({
    method: 'GET',
    path: '/studio/assets/{name}',
    ...base,
    summary: 'The page\u2019s script and style sheet',
    access: 'public',
    problems: { 404: 'No such file.' },
    responses: { 200: { description: 'studio.js or studio.css.', schema: z.string(), contentType: 'text/javascript' } },
  }),
  operation({
    method: 'GET',
    path: '/studio/api/mode',
    ...base,
    summary: 'Whether the rules may be saved here',
    access: 'public',
    responses: { 200: json('The server\u2019s mode.', S.EditMode) },
  }),
  operation({
    method: 'GET',
    path: '/studio/api/decisions',
    ...base,
    summary: 'Every decision table',
    access: 'public',
    responses: { 200: json('Name, title, hit policy, spec section and file of each.', DecisionList) },
  }),
  operation({
    method: 'GET',
    path: '/studio/api/decisions/{decision}',
    ...base,
    summary: 'One decision table, cell by cell',
    access: 'public',
    description: decision,
    responses: { 200: json('Its rows, conditions and outcomes as the file writes them, with `file:line:col`, and its fact catalogue.', S.DecisionTable) },
  }),
  operation({
    method: 'PUT',
    path: '/studio/api/decisions/{decision}',
    ...base,
    summary: 'Save an edit of the table',
    access: 'analyst',
    request: { schema: S.TableEdit, required: true },
    description: 'Writes the file (comments and formatting kept) and reloads the rules, as `serve --watch` does. Only on a sandbox or with `serve --edit`.',
    problems: {
      403: 'X_STUDIO_READ_ONLY: this server does not change its rules.',
      409: 'X_RULES_CHANGED: the file changed since the table was read (`version`); nothing was written.',
      422: 'X_RULES_REFUSED: the edited rules have problems; nothing was written.',
    },
    responses: { 200: json('Saved (or nothing changed), and the table as it now is.', Saved) },
  }),
  operation({
    method: 'POST',
    path: '/studio/api/decisions/{decision}/explain',
    ...base,
    summary: 'Explain one case',
    access: 'public',
    request: { schema: S.ExplainRequest, required: true },
    description:
      'Evaluates the decision on the facts given and explains every row: the deciding row, each condition with the actual value, the first that fails.',
    responses: { 200: json('The explanation, or why the facts do not fit.', Explanation) },
  }),
  operation({
    method: 'POST',
    path: '/studio/api/decisions/{decision}/simulate',
    ...base,
    summary: 'Simulate many cases',
    access: 'public',
    request: { schema: S.SimulateRequest, required: true },
    responses: { 200: json('The deciding row and outcome per case, as `signalbox simulate` prints them.', Simulated) },
  }),
  operation({
    method: 'POST',
    path: '/studio/api/decisions/{decision}/check',
    ...base,
    summary: 'Check an edit of the table',
    access: 'analyst',
    request: { schema: S.TableEdit, required: true },
    description:
      'Writes the edited rows into the file\u2019s YAML (in memory) and runs `check` on the whole rule set; problems are placed at their row and cell.',
    responses: { 200: json('The problems, and the text the file would have.', Checked) },
  }),
  operation({
    method: 'POST',
    path: '/studio/api/decisions/{decision}/impact',
    ...base,
    summary: 'Preview what an edit changes',
    access: 'analyst',
    request: { schema: S.TableEdit, required: true },
    description:
      'Compares the rules now serving with the edited ones, as `signalbox diff` does: every decision over its boundary cases, and the scenario corpus.',
    responses: { 200: json('The impact report, or the problems that stop it.', Impact) },
  }),
  operation({
    method: 'GET',
    path: '/studio/api/errors',
    ...base,
    summary: 'The error catalogue',
    access: 'public',
    responses: { 200: json('Every code with its status, both texts and the rows that raise it.', z.array(ErrorPage)) },
  }),
  operation({
    method: 'GET',
    path: '/studio/api/reference',
    ...base,
    summary: 'Reference data',
    access: 'public',
    responses: { 200: json('Products, cards, stations and sales applications.', Reference) },
  }),
  operation({
    method: 'GET',
    path: '/studio/api/trips',
    ...base,
    summary: 'The fixture trips an offers request can use',
    access: 'public',
    responses: { 200: json('Name and summary of each.', S.TripList) },
  }),
  operation({
    method: 'POST',
    path: '/studio/api/offers',
    ...base,
    summary: 'Try a whole offers request',
    access: 'public',
    request: { schema: S.OffersTry, required: true },
    responses: { 200: json('The request built, the answer (offers or a Problem) and every rule trace behind it.', OffersTried) },
  }),
  operation({
    method: 'GET',
    path: '/studio/api/scenarios',
    ...base,
    summary: 'The scenario corpus',
    access: 'public',
    responses: { 200: json('Every scenario file with its name and tags.', S.ScenarioList) },
  }),
  operation({
    method: 'POST',
    path: '/studio/api/scenarios/run',
    ...base,
    summary: 'Run the scenarios',
    access: 'analyst',
    request: { schema: S.ScenarioRunRequest },
    responses: { 200: json('Pass and fail per step with the differences and traces, and the coverage matrix of decision rows.', S.ScenarioRun) },
  }),
  operation({
    method: 'GET',
    path: '/studio/api/seats',
    ...base,
    summary: 'Seat maps of an offer or a booking',
    access: 'sandbox',
    query: {
      contextType: { description: '`OFFER` or `BOOKING`', required: true, schema: S.SeatQuery.shape.contextType },
      contextId: { description: 'The offer or booking id.', required: true, schema: S.SeatQuery.shape.contextId },
    },
    responses: { 200: json('Per leg, each coach as SVG with the places held.', S.SeatMaps) },
  }),
  operation({
    method: 'GET',
    path: '/studio/api/journal',
    ...base,
    summary: 'The latest requests',
    access: 'bearer',
    description:
      'On a sandbox only. A client reads the requests it authenticated; a token with scope `analyst` reads every request, ' +
      'with personal data masked unless the server runs with `--journal-personal-data` (docs/studio.md).',
    responses: { 200: json('Request, response and rule trace of the latest requests, newest first.', S.Journal) },
  }),
];
