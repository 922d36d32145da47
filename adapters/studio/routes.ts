import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parse as parseYaml } from 'yaml';
import {
  boundaryCasesOf,
  createEngine,
  defaultRulesDir,
  factCatalogue,
  FactsError,
  loadRules,
  phrase,
  readRuleSources,
  RuleViolation,
  type DecisionName,
  type Engine,
  type Requestor,
  type RuleSet,
} from '../../engine/index.ts';
import { parseRequest } from '../../engine/rules/index.ts';
import { DEMO_SECRETS } from '../harness/demo-secrets.ts';
import { impactOf } from '../analysis/impact.ts';
import { casesFromCsv, simulateCases } from '../analysis/simulate.ts';
import { randomIds } from '../service/ids.ts';
import { errorPage } from '../http/error-page.ts';
import { listScenarios, runCorpus } from './corpus.ts';
import { studioPage, studioAsset } from './page.ts';
import { ExplainRequest, OffersTry, ScenarioRunRequest, SeatQuery, SimulateRequest, TableEdit } from '../http/openapi/studio-schemas.ts';
import { seatMaps } from './seats.ts';
import { checkEdited, editedText, tableOf, versionOf } from './tables.ts';
import { fixtureTrips, offersRequestOf } from './trips.ts';

/**
 * The analysts' workbench at /studio (docs/studio.md): a page, its two files, and the JSON endpoints it uses
 * (their entries in the route table, adapters/http/operations/studio.ts, document them under the Studio tag of /openapi.json). Reading and trying are
 * open; whatever checks an edit, runs the scenario corpus or changes the rules needs a token with the `analyst` scope
 * (rules/clients.yaml), and saving also needs a server that may change its rules (a sandbox, or `serve --edit`).
 */
export interface StudioOptions {
  /** The folder the serving rules were loaded from, where a save writes; defaults to the rules/ shipped. */
  rulesDir?: string;
  /** `serve --edit`: the rules may be changed from the studio on a server that is not a sandbox. */
  edit?: boolean;
  /** The scenario corpus the studio runs and previews edits on (default `scenarios`). */
  scenarios?: string[];
  /** The folder of fixture files whose `trips` an offers request may use (default `scenarios/fixtures`). */
  fixtures?: string;
  /** What the server's engines are built with, so a saved edit serves as `--watch` would load it. */
  engineOptions?: { ticketKey?: string };
}

type Decision = { Params: { decision: string } };

/** The studio as an extension of `buildServer` (adapters/http/server.ts), at /studio. */
export const studioExtension = (options: StudioOptions & { sandbox: boolean }) => ({ prefix: '/studio', plugin: studioRoutes(options) });

const studioRoutes = (options: StudioOptions & { sandbox: boolean }) => async (app: FastifyInstance) => {
  const rulesDir = options.rulesDir ?? defaultRulesDir();
  // A server started elsewhere than a checkout (the npm package) has no scenarios: then there are none to run.
  const corpus = options.scenarios ?? ['scenarios'];
  const scenarios = () => corpus.filter((p) => existsSync(p));
  const fixtures = options.fixtures ?? 'scenarios/fixtures';
  const editable = options.sandbox || options.edit === true;
  const journal = app.requestJournal;

  const decisionOf = (name: string): DecisionName => {
    if (!Object.hasOwn(factCatalogue, name) || !Object.hasOwn(app.engine.rules.decisions, name)) {
      throw new RuleViolation('RESOURCE_NOT_FOUND', { resource: phrase('resource-decision'), id: name });
    }
    return name as DecisionName;
  };
  /** The decision's file as it is on disk now: what the page shows, and what an edit starts from. */
  const fileOf = (rules: RuleSet, decision: DecisionName) => {
    const file = rules.decisions[decision].file;
    const path = join(rulesDir, basename(file));
    return { file, path, text: readFileSync(path, 'utf8') };
  };
  const analyst = (request: FastifyRequest) => app.authenticate(request, 'analyst');
  /** The whole rule set with the edited table in its file, and `check`'s problems placed at their cells. */
  const edited = (decision: DecisionName, body: unknown) => {
    const edit = parseRequest(TableEdit, body);
    const { file, path, text } = fileOf(app.engine.rules, decision);
    if (edit.version !== undefined && edit.version !== versionOf(text)) throw new RuleViolation('X_RULES_CHANGED', { file: basename(file) });
    const next = editedText(file, text, edit);
    const checked = next.problems.length > 0 ? { problems: next.problems } : checkEdited(readRuleSources(rulesDir), file, next.text);
    return { file, path, text: next.text, changed: next.text !== text, ...checked };
  };

  // Any deeper path is the page (its script reads the fragment), but a path under /studio/api/ is not (`notUnder` of
  // its route table entry): there GET is 404, or 405 where another method is taken (`POST /studio/api/scenarios/run`).
  const api = `${app.prefix}/api/`;
  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.url.startsWith(api)) return reply.callNotFound();
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('content-security-policy', studioPage.csp).send(studioPage.html);
  };
  app.get('/', page);
  app.get('/*', page);
  app.get<{ Params: { name: string } }>('/assets/:name', async (request, reply) => {
    const asset = studioAsset(request.params.name);
    if (!asset) throw new RuleViolation('RESOURCE_NOT_FOUND', { resource: phrase('resource-file'), id: request.params.name });
    return reply.type(asset.type).header('cache-control', 'no-cache').send(asset.body);
  });

  app.get('/api/mode', async () => ({ edit: editable, sandbox: options.sandbox, scenarios: scenarios() }));

  // ---------------------------------------------------------------- browse
  app.get('/api/decisions', async () =>
    Object.values(app.engine.rules.decisions).map((d) => ({
      decision: d.name,
      title: d.title,
      file: d.file,
      ...(d.spec ? { spec: d.spec } : {}),
      hitPolicy: d.hitPolicy,
      rows: d.rows.length,
    })),
  );
  app.get<Decision>('/api/decisions/:decision', async (request) => {
    const decision = decisionOf(request.params.decision);
    return tableOf(app.engine.rules, decision, fileOf(app.engine.rules, decision).text);
  });
  app.get('/api/errors', async () => Object.keys(app.engine.rules.errors).map((code) => errorPage(app.engine, code)!));
  app.get('/api/reference', async () => {
    const { products, cards, stations, salesApplications } = app.engine.rules;
    const { byCode: _, ...productFile } = products;
    return { products: productFile, cards, stations: stations.all, salesApplications: [...salesApplications.values()] };
  });

  // ---------------------------------------------------------------- try
  app.post<Decision>('/api/decisions/:decision/explain', async (request) => {
    const decision = decisionOf(request.params.decision);
    const { facts } = parseRequest(ExplainRequest, request.body);
    try {
      return { explanation: app.engine.explain(decision, facts) };
    } catch (e) {
      if (e instanceof FactsError) return { problems: [...e.problems] };
      throw e;
    }
  });
  app.post<Decision>('/api/decisions/:decision/simulate', async (request) => {
    const decision = decisionOf(request.params.decision);
    const given = parseRequest(SimulateRequest, request.body);
    const engine = app.engine;
    let cases: Array<Record<string, unknown>> = [...(given.cases ?? [])];
    try {
      if (given.csv?.trim()) cases.push(...casesFromCsv(given.csv));
      if (given.yaml?.trim()) {
        const list = parseYaml(given.yaml) as unknown;
        if (!Array.isArray(list)) throw new Error('a list of fact rows, one per case');
        cases.push(...(list as Array<Record<string, unknown>>));
      }
    } catch (e) {
      throw new RuleViolation(
        '86001',
        { reason: phrase('field-invalid', { field: given.csv?.trim() ? 'csv' : 'yaml', problem: (e as Error).message.split('\n')[0]! }) },
        [{ requestPointer: given.csv?.trim() ? '#/csv' : '#/yaml' }],
      );
    }
    if (given.boundaries) cases.push(...boundaryCasesOf(engine.rules, decision));
    cases = cases.slice(0, engine.rules.limits.studioSimulationCases);
    return { cases: simulateCases(engine, decision, cases) };
  });
  app.get('/api/trips', async () => fixtureTrips(fixtures).map(({ name, summary }) => ({ name, summary })));
  app.post('/api/offers', async (request) => {
    const asked = parseRequest(OffersTry, request.body);
    const now = app.service.clock.now();
    const body = offersRequestOf(fixtures, asked, now);
    const requestor: Requestor = { client: 'studio', salesApplication: asked.salesApplication, salesUnitCode: 'STUDIO', language: request.language };
    if (!app.engine.rules.salesApplications.has(asked.salesApplication)) {
      throw new RuleViolation('86001', { reason: phrase('field-invalid', { field: 'salesApplication', problem: asked.salesApplication }) }, [
        { requestPointer: '#/salesApplication' },
      ]);
    }
    try {
      // On a sandbox the offers are stored, so their seat maps can be drawn; elsewhere nothing is kept.
      const decided = options.sandbox
        ? await app.service.offers(requestor, body)
        : (({ value, traces }) => ({ value: value.response, traces }))(app.engine.offers({ requestor, now, ids: randomIds }, body));
      return { request: body, status: 200, response: decided.value, traces: decided.traces };
    } catch (e) {
      if (!(e instanceof RuleViolation)) throw e;
      return { request: body, status: app.engine.rules.errors[e.code]?.status ?? 400, response: app.engine.problem(e, request.language), traces: e.traces };
    }
  });

  // ---------------------------------------------------------------- change
  app.post<Decision>('/api/decisions/:decision/check', async (request) => {
    await analyst(request); // the whole rule set is compiled again for each edit: a tenth of a second of CPU
    const x = edited(decisionOf(request.params.decision), request.body);
    return { changed: x.changed, problems: x.problems, text: x.text };
  });
  app.post<Decision>('/api/decisions/:decision/impact', async (request) => {
    await analyst(request);
    const x = edited(decisionOf(request.params.decision), request.body);
    if (!x.rules) return { problems: x.problems };
    return { problems: [], impact: await impactOf(app.engine.rules, x.rules, scenarios(), DEMO_SECRETS) };
  });
  app.put<Decision>('/api/decisions/:decision', async (request) => {
    if (!editable) throw new RuleViolation('X_STUDIO_READ_ONLY', {});
    await analyst(request);
    const decision = decisionOf(request.params.decision);
    const x = edited(decision, request.body);
    // `check` words its problems in English only: the Problem counts them, POST …/check places each at its cell.
    if (!x.rules) {
      const cells = new Set(x.problems.filter((p) => p.row !== undefined).map((p) => `#/rows/${p.row}${p.cell ? `/${p.cell.replace('.', '/')}` : ''}`));
      throw new RuleViolation(
        'X_RULES_REFUSED',
        { count: x.problems.length },
        [...cells].map((requestPointer) => ({ requestPointer })),
      );
    }
    if (x.changed) {
      writeFileSync(x.path, x.text);
      // As `serve --watch` does: the whole folder is loaded and checked again, then replaces the engine.
      const engine: Engine = createEngine({ rules: loadRules(rulesDir), ...options.engineOptions });
      app.service.setEngine(engine);
      request.log.info({ file: x.file }, 'rules saved from the studio and reloaded');
    }
    return { saved: x.changed, file: x.file, table: tableOf(app.engine.rules, decision, x.text) };
  });

  // ---------------------------------------------------------------- scenarios
  app.get('/api/scenarios', async () => listScenarios(scenarios()));
  app.post('/api/scenarios/run', async (request) => {
    await analyst(request);
    const { tag } = parseRequest(ScenarioRunRequest, request.body ?? {});
    return runCorpus(app.engine, scenarios(), fixtures, tag);
  });

  // ---------------------------------------------------------------- sandbox: seats and the request journal
  if (options.sandbox) app.get('/api/seats', async (request) => seatMaps(app.service, parseRequest(SeatQuery, request.query, '#'), request.language));
  // Every client's requests and answers: a client reads its own, an analyst everyone's (personal data masked, journal.ts).
  if (journal)
    app.get('/api/journal', async (request) => {
      const { client, scopes } = await app.tokenHolder(request);
      return { size: journal.size, entries: journal.list(scopes.includes('analyst') ? 'analyst' : { client }) };
    });
};
