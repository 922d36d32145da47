import { json, operation, type Operation } from '../../http/operations/operation.ts';
import { DecisionGraph } from '../../http/openapi/studio-graph-schemas.ts';
import { graphOf } from '../graph.ts';
import { studioEntry } from './studio.ts';

/** The decision graph: which decision feeds which, and what each finally decides (the page's "Decision graph"). */
export const graphOperations: Operation[] = [
  operation({
    method: 'GET',
    path: '/studio/api/graph',
    ...studioEntry,
    summary: 'Which decision feeds which',
    access: 'public',
    description:
      'Each decision whose outcome the engine turns into a fact of another (passengerType → fareFactor), and the prices, refunds, fees and errors each finally decides (engine/rules/graph.ts).',
    responses: { 200: json('The decisions and sinks as nodes, and the edges with the facts they feed.', DecisionGraph) },
    handle: async ({ service }) => ({ body: graphOf(service.engine.rules) }),
  }),
];
