import { mkdirSync, writeFileSync } from 'node:fs';
import { phrase, readRuleSources, RuleViolation } from '../../../engine/index.ts';
import { parseRequest } from '../../../engine/rules/index.ts';
import { json, operation, type Operation } from '../../http/operations/operation.ts';
import * as S from '../../http/openapi/studio-schemas.ts';
import { mutate } from '../../analysis/mutate.ts';
import { compileMutant, mutantsOf } from '../../analysis/mutants.ts';
import { freeName } from '../../analysis/suggest-survivors.ts';
import { suggestedDir, suggestScenario } from '../../analysis/suggest.ts';
import { DEMO_SECRETS } from '../../harness/demo-secrets.ts';
import { decisionOf } from './decisions.ts';
import { studioEntry, type Studio } from './studio.ts';

/**
 * How well the scenarios guard one table: its mutants run against the corpus (`signalbox mutate DECISION`), and for a
 * survivor the scenario that would kill it (`--suggest`), which an analyst may add to the corpus.
 */
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
  operation({
    method: 'POST',
    path: '/studio/api/decisions/{decision}/mutants/{mutant}/suggestion',
    ...studioEntry,
    summary: 'A scenario that kills a mutant of the table',
    access: 'analyst',
    description:
      'Searches for a request the serving rules and the mutant answer differently, and writes the scenario that pins the serving rules\u2019 answer; checked to pass on them and fail on the mutant. 404 when the search finds none.',
    responses: { 200: json('The suggested scenario.', S.SuggestedScenario) },
    handle: async ({ params, service }) => {
      const decision = decisionOf(service.engine, params.decision);
      const sources = readRuleSources(studio.rulesDir);
      const mutant = mutantsOf(service.engine.rules, sources, decision).find((m) => m.id === params.mutant);
      const rules = mutant && compileMutant(sources, mutant).rules;
      const found = mutant && rules ? await suggestScenario(service.engine.rules, rules, mutant, { fixtures: studio.fixtures }) : undefined;
      if (!found) throw new RuleViolation('RESOURCE_NOT_FOUND', { resource: phrase('resource-suggestion'), id: params.mutant });
      return { body: { name: found.name, text: found.text } };
    },
  }),
  operation({
    method: 'PUT',
    path: '/studio/api/scenarios/suggested',
    ...studioEntry,
    summary: 'Add a suggested scenario to the corpus',
    access: 'analyst',
    request: { schema: S.SuggestedScenarioSave, required: true },
    description:
      'Writes it as `scenarios/suggested/<name>.yaml` beside the fixtures; never over a file: the next free name (`<name>-2.yaml`) is taken instead. Only on a sandbox or with `serve --edit`.',
    problems: { 403: 'X_STUDIO_READ_ONLY: this server does not change its rules or scenarios.' },
    responses: { 200: json('Where it was written.', S.SuggestedScenarioSaved) },
    handle: async ({ body }) => {
      if (!studio.editable) throw new RuleViolation('X_STUDIO_READ_ONLY', {});
      const { name, text } = parseRequest(S.SuggestedScenarioSave, body);
      const dir = suggestedDir(studio.fixtures);
      mkdirSync(dir, { recursive: true });
      const file = freeName(dir, name);
      writeFileSync(file, text);
      return { body: { file } };
    },
  }),
];
