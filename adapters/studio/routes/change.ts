import { basename } from 'node:path';
import { writeFileSync } from 'node:fs';
import { createEngine, loadRules, RuleViolation, type Engine } from '../../../engine/index.ts';
import { caseFindings } from '../../../engine/rules/index.ts';
import { impactOf } from '../../analysis/impact.ts';
import { DEMO_SECRETS } from '../../harness/demo-secrets.ts';
import { json, operation, type Operation } from '../../http/operations/operation.ts';
import * as S from '../../http/openapi/studio-schemas.ts';
import { updatedScenarios } from '../expectations.ts';
import { failingSteps } from '../gate.ts';
import { recordChange } from '../history.ts';
import { tableOf } from '../tables.ts';
import { decisionOf, edited, rulesRefused } from './decisions.ts';
import { studioEntry, type Studio } from './studio.ts';

/** Changing a table: checking an edit, previewing what it changes, saving it (an analyst's token for each). */
export const changeOperations = (studio: Studio): Operation[] => [
  operation({
    method: 'PUT',
    path: '/studio/api/decisions/{decision}',
    ...studioEntry,
    summary: 'Save an edit of the table',
    access: 'analyst',
    request: { schema: S.TableEdit, required: true },
    description:
      'Runs the scenario corpus on the edited rules (with the expectations the edit updates) and refuses the save while a step fails, unless the edit gives a reason. Then writes the file (comments and formatting kept) and the updated scenarios, records the change in the rules folder\u2019s CHANGES.md and reloads the rules, as `serve --watch` does. Only on a sandbox or with `serve --edit`.',
    problems: {
      403: 'X_STUDIO_READ_ONLY: this server does not change its rules.',
      409: 'X_RULES_CHANGED: the file changed since the table was read (`version`); nothing was written.',
      422: 'X_RULES_REFUSED: the edited rules have problems; X_SCENARIOS_FAIL: scenario steps fail on them and no reason was given. Nothing was written.',
    },
    responses: { 200: json('Saved (or nothing changed), and the table as it now is.', S.EditSaved) },
    handle: async ({ request, params, body, service, client }) => {
      if (!studio.editable) throw new RuleViolation('X_STUDIO_READ_ONLY', {});
      const decision = decisionOf(service.engine, params.decision);
      const x = edited(studio, service.engine, decision, body);
      // `check` words its problems in English only: the Problem counts them, POST …/check places each at its cell.
      if (!x.rules) throw rulesRefused(x.problems);
      // The regression gate: the corpus runs on the edited rules, with the expectations the same change updates.
      const texts = updatedScenarios(studio.scenarios(), x.edit.expectations ?? []);
      const failing = await failingSteps(x.rules, studio.scenarios(), texts);
      if (failing.length > 0 && x.edit.reason === undefined)
        throw new RuleViolation('X_SCENARIOS_FAIL', { count: failing.length, step: failing[0]!.step }, [{ requestPointer: '#/reason' }]);
      const saved = x.changed || texts.size > 0;
      if (saved) {
        if (x.changed) writeFileSync(x.path, x.text);
        for (const [file, text] of texts) writeFileSync(file, text);
        recordChange(studio.rulesDir, {
          at: new Date(),
          client: await client(),
          file: basename(x.file),
          scenarios: [...texts.keys()],
          failing: failing.length,
          ...(x.edit.reason !== undefined ? { reason: x.edit.reason } : {}),
        });
      }
      if (x.changed) {
        // As `serve --watch` does: the whole folder is loaded and checked again, then replaces the engine.
        const engine: Engine = createEngine({ rules: loadRules(studio.rulesDir), ...studio.engineOptions });
        service.setEngine(engine);
        request.log.info({ file: x.file, scenarios: [...texts.keys()], failing: failing.length }, 'rules saved from the studio and reloaded');
      }
      return {
        body: { saved, file: x.file, table: tableOf(service.engine.rules, decision, x.text), scenarios: [...texts.keys()], failing: failing.length },
      };
    },
  }),
  operation({
    method: 'POST',
    path: '/studio/api/decisions/{decision}/check',
    ...studioEntry,
    summary: 'Check an edit of the table',
    access: 'analyst',
    request: { schema: S.TableEdit, required: true },
    description:
      'Writes the edited rows into the file\u2019s YAML (in memory) and runs `check` on the whole rule set; problems are placed at their row and cell.',
    responses: { 200: json('The problems, and the text the file would have.', S.EditCheck) },
    handle: async ({ params, body, service }) => {
      // The whole rule set is compiled again for each edit: hence an analyst's token.
      const x = edited(studio, service.engine, decisionOf(service.engine, params.decision), body);
      const found = x.rules ? 0 : caseFindings(x.file, x.text).length;
      return { body: { changed: x.changed, problems: x.problems, examples: x.examples, text: x.text, ...(found ? { counterexamples: found } : {}) } };
    },
  }),
  operation({
    method: 'POST',
    path: '/studio/api/decisions/{decision}/impact',
    ...studioEntry,
    summary: 'Preview what an edit changes',
    access: 'analyst',
    request: { schema: S.TableEdit, required: true },
    description:
      'Compares the rules now serving with the edited ones, as `signalbox diff` does: every decision over its boundary cases, the offer prices of the price probes, and the scenario corpus.',
    responses: { 200: json('The impact report, or the problems that stop it.', S.EditImpact) },
    handle: async ({ params, body, service }) => {
      const x = edited(studio, service.engine, decisionOf(service.engine, params.decision), body);
      if (!x.rules) return { body: { problems: x.problems, examples: x.examples } };
      const texts = updatedScenarios(studio.scenarios(), x.edit.expectations ?? []);
      const impact = await impactOf(service.engine.rules, x.rules, studio.scenarios(), {
        secrets: DEMO_SECRETS,
        fixtures: studio.fixtures,
        now: service.clock.now(),
        texts,
      });
      return { body: { problems: [], examples: x.examples, impact } };
    },
  }),
];
