import { counterexamples } from '../../analysis/counterexamples.ts';
import { json, operation, type Operation } from '../../http/operations/operation.ts';
import * as S from '../../http/openapi/studio-schemas.ts';
import { decisionOf, edited } from './decisions.ts';
import { studioEntry, type Studio } from './studio.ts';

/** `check`'s gaps and overlaps in an edit of a table, each as a scenario pinning the serving rules' answer there. */
export const counterexampleOperations = (studio: Studio): Operation[] => [
  operation({
    method: 'POST',
    path: '/studio/api/decisions/{decision}/counterexamples',
    ...studioEntry,
    summary: 'Counterexample scenarios for the gaps and overlaps of an edit',
    access: 'analyst',
    request: { schema: S.TableEdit, required: true },
    description:
      'For each case the edited table has no row or two rows for (as `check` finds them), searches for a request that asks the decision that very case, and writes the scenario that pins what the serving rules answer; checked to pass on them and to fail on a reading of the edit (either overlapping row deciding, or none). As `signalbox check --suggest` does.',
    responses: { 200: json('One entry per gap and overlap, with its scenario when a request reaches the case.', S.Counterexamples) },
    handle: async ({ params, body, service }) => {
      const x = edited(studio, service.engine, decisionOf(service.engine, params.decision), body);
      const found = await counterexamples(service.engine.rules, x.file, x.text, { fixtures: studio.fixtures });
      return {
        body: {
          counterexamples: found.map((c) => ({
            kind: c.finding.kind,
            at: c.finding.at,
            message: c.finding.message,
            ...(c.reading ? { reading: c.reading } : {}),
            ...(c.suggestion ? { scenario: { name: c.suggestion.name, text: c.suggestion.text } } : {}),
          })),
        },
      };
    },
  }),
];
