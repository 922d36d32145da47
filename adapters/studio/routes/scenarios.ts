import { parseRequest } from '../../../engine/rules/index.ts';
import { json, operation, type Operation } from '../../http/operations/operation.ts';
import * as S from '../../http/openapi/studio-schemas.ts';
import { listScenarios, runCorpus } from '../corpus.ts';
import { studioEntry, type Studio } from './studio.ts';

/** The scenario corpus: listed for anyone, run for an analyst. */
export const scenarioOperations = (studio: Studio): Operation[] => [
  operation({
    method: 'GET',
    path: '/studio/api/scenarios',
    ...studioEntry,
    summary: 'The scenario corpus',
    access: 'public',
    responses: { 200: json('Every scenario file with its name and tags.', S.ScenarioList) },
    handle: async () => ({ body: listScenarios(studio.scenarios()) }),
  }),
  operation({
    method: 'POST',
    path: '/studio/api/scenarios/run',
    ...studioEntry,
    summary: 'Run the scenarios',
    access: 'analyst',
    request: { schema: S.ScenarioRunRequest },
    responses: { 200: json('Pass and fail per step with the differences and traces, and the coverage matrix of decision rows.', S.ScenarioRun) },
    handle: async ({ body, service }) => {
      const { tag, file } = parseRequest(S.ScenarioRunRequest, body ?? {});
      return { body: await runCorpus(service.engine, studio.scenarios(), studio.fixtures, { ...(tag ? { tag } : {}), ...(file ? { file } : {}) }) };
    },
  }),
];
