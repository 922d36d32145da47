import type { Operation } from '../http/operations/operation.ts';
import { browseOperations } from './routes/browse.ts';
import { changeOperations } from './routes/change.ts';
import { csvOperations } from './routes/csv.ts';
import { draftOperations } from './routes/drafts.ts';
import { graphOperations } from './routes/graph.ts';
import { counterexampleOperations } from './routes/counterexamples.ts';
import { mutateOperations } from './routes/mutate.ts';
import { pageOperations } from './routes/page.ts';
import { sandboxOperations } from './routes/sandbox.ts';
import { scenarioOperations } from './routes/scenarios.ts';
import { studioOf, type StudioOptions } from './routes/studio.ts';
import { tryOperations } from './routes/try.ts';

export type { StudioOptions } from './routes/studio.ts';

/**
 * The analysts' workbench at /studio (docs/studio.md): its page, the page's two files and the JSON endpoints the
 * page uses, each an entry of the route table with its handler, under the Studio tag of /openapi.json. The server
 * takes them into its table (`buildServer`'s `extensions`), as `signalbox serve` does.
 */
export const studioExtension = (options: StudioOptions): { operations: readonly Operation[] } => {
  const studio = studioOf(options);
  return {
    operations: [
      ...pageOperations,
      ...browseOperations(studio),
      ...changeOperations(studio),
      ...mutateOperations(studio),
      ...counterexampleOperations(studio),
      ...draftOperations(studio),
      ...csvOperations(studio),
      ...graphOperations,
      ...tryOperations(studio),
      ...scenarioOperations(studio),
      ...sandboxOperations(studio),
    ],
  };
};
