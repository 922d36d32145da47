import { json, operation, type Operation } from '../../http/operations/operation.ts';
import * as S from '../../http/openapi/studio-schemas.ts';
import { mutate } from '../../analysis/mutate.ts';
import { DEMO_SECRETS } from '../../harness/demo-secrets.ts';
import { decisionOf } from './decisions.ts';
import { studioEntry, type Studio } from './studio.ts';

/** How well the scenarios guard one table: its mutants run against the corpus (`signalbox mutate DECISION`). */
export const mutateOperations = (studio: Studio): Operation[] => [
  operation({
    method: 'POST',
    path: '/studio/api/decisions/{decision}/mutants',
    ...studioEntry,
    summary: 'Run the table\u2019s mutants against the scenarios',
    access: 'analyst',
    description:
      'Makes every small wrong version of the table and runs the scenarios that ask the decision against each (seconds to a minute of CPU): the score, and each mutant with what became of it.',
    responses: { 200: json('The mutation report of the one decision.', S.MutationReport) },
    handle: async ({ params, service }) => {
      const decision = decisionOf(service.engine, params.decision);
      return { body: await mutate({ rulesDir: studio.rulesDir, scenarios: studio.scenarios(), secrets: DEMO_SECRETS, decisions: [decision] }) };
    },
  }),
];
