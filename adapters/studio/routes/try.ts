import { parse as parseYaml } from 'yaml';
import {
  boundaryCasesOf,
  FactsError,
  phrase,
  RuleViolation,
  type Decided,
  type OfferCollectionResponse,
  type Requestor,
  type StoredOffer,
} from '../../../engine/index.ts';
import { parseRequest } from '../../../engine/rules/index.ts';
import { casesFromCsv, simulateCases } from '../../analysis/simulate.ts';
import { json, operation, type Operation } from '../../http/operations/operation.ts';
import * as S from '../../http/openapi/studio-schemas.ts';
import { OffersTriedExplained } from '../../http/openapi/studio-price-schemas.ts';
import { randomIds } from '../../service/ids.ts';
import { fixtureTrips, offersRequestOf } from '../../analysis/trips.ts';
import { decisionOf } from './decisions.ts';
import { studioEntry, type Studio } from './studio.ts';

/** Trying the rules now serving: one case explained, many simulated, a whole offers request. */
export const tryOperations = (studio: Studio): Operation[] => [
  operation({
    method: 'POST',
    path: '/studio/api/decisions/{decision}/explain',
    ...studioEntry,
    summary: 'Explain one case',
    access: 'public',
    request: { schema: S.ExplainRequest, required: true },
    description:
      'Evaluates the decision on the facts given and explains every row: the deciding row, each condition with the actual value, the first that fails.',
    responses: { 200: json('The explanation, or why the facts do not fit.', S.Explanation) },
    handle: async ({ params, body, service }) => {
      const decision = decisionOf(service.engine, params.decision);
      const { facts } = parseRequest(S.ExplainRequest, body);
      try {
        return { body: { explanation: service.engine.explain(decision, facts) } };
      } catch (e) {
        if (e instanceof FactsError) return { body: { problems: [...e.problems] } };
        throw e;
      }
    },
  }),
  operation({
    method: 'POST',
    path: '/studio/api/decisions/{decision}/simulate',
    ...studioEntry,
    summary: 'Simulate many cases',
    access: 'public',
    request: { schema: S.SimulateRequest, required: true },
    responses: { 200: json('The deciding row and outcome per case, as `signalbox simulate` prints them.', S.SimulatedCases) },
    handle: async ({ params, body, service }) => {
      const engine = service.engine;
      const decision = decisionOf(engine, params.decision);
      const given = parseRequest(S.SimulateRequest, body);
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
      return { body: { cases: simulateCases(engine, decision, cases) } };
    },
  }),
  operation({
    method: 'GET',
    path: '/studio/api/trips',
    ...studioEntry,
    summary: 'The fixture trips an offers request can use',
    access: 'public',
    responses: { 200: json('Name and summary of each.', S.TripList) },
    handle: async () => ({ body: fixtureTrips(studio.fixtures).map(({ name, summary }) => ({ name, summary })) }),
  }),
  operation({
    method: 'POST',
    path: '/studio/api/offers',
    ...studioEntry,
    summary: 'Try a whole offers request',
    access: 'public',
    request: { schema: S.OffersTry, required: true },
    responses: {
      200: json(
        'The request built, the answer (offers or a Problem), every rule trace behind it, and each offer\u2019s prices explained.',
        OffersTriedExplained,
      ),
    },
    handle: async ({ request, body, service }) => {
      const asked = parseRequest(S.OffersTry, body);
      const now = service.clock.now();
      const offersRequest = offersRequestOf(studio.fixtures, asked, now);
      const requestor: Requestor = { client: 'studio', salesApplication: asked.salesApplication, salesUnitCode: 'STUDIO', language: request.language };
      const engine = service.engine;
      if (!engine.rules.salesApplications.has(asked.salesApplication)) {
        throw new RuleViolation('86001', { reason: phrase('field-invalid', { field: 'salesApplication', problem: asked.salesApplication }) }, [
          { requestPointer: '#/salesApplication' },
        ]);
      }
      const call = { requestor, now, ids: randomIds };
      try {
        // On a sandbox the offers are stored, so their seat maps can be drawn; elsewhere nothing is kept.
        let offers: StoredOffer[];
        let decided: Decided<OfferCollectionResponse>;
        if (studio.sandbox) {
          decided = await service.offers(requestor, offersRequest);
          const ids = decided.value.offers.map((o) => o.offerId);
          const stored = await service.store.getOffers(ids);
          offers = ids.map((id) => stored.get(id)!);
        } else {
          const made = engine.offers(call, offersRequest);
          decided = { value: made.value.response, traces: made.traces };
          offers = made.value.offers;
        }
        // Why each price is what it is: worked out here, for the studio only, never on POST /v3/offers.
        const explanations = engine.explainOfferPrices(call, offers).value;
        return { body: { request: offersRequest, status: 200, response: decided.value, traces: [...decided.traces], explanations } };
      } catch (e) {
        if (!(e instanceof RuleViolation)) throw e;
        return {
          body: {
            request: offersRequest,
            status: engine.rules.errors[e.code]?.status ?? 400,
            response: engine.problem(e, request.language),
            traces: e.traces,
            explanations: [],
          },
        };
      }
    },
  }),
];
