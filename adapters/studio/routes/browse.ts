import { z } from 'zod';
import { errorPage } from '../../http/error-page.ts';
import { ErrorPage } from '../../http/openapi/problem.ts';
import { json, operation, type Operation } from '../../http/operations/operation.ts';
import * as S from '../../http/openapi/studio-schemas.ts';
import { tableOf } from '../tables.ts';
import { decisionOf, fileOf } from './decisions.ts';
import { decisionParameter, studioEntry, type Studio } from './studio.ts';

/**
 * Reading: the server's mode, the error catalogue, the reference data and the decision tables. One table comes last,
 * just before saving an edit of it (change.ts), the same path: the document lists a path's methods together.
 */
export const browseOperations = (studio: Studio): Operation[] => [
  operation({
    method: 'GET',
    path: '/studio/api/mode',
    ...studioEntry,
    summary: 'Whether the rules may be saved here',
    access: 'public',
    responses: { 200: json('The server\u2019s mode.', S.EditMode) },
    handle: async () => ({ body: { edit: studio.editable, sandbox: studio.sandbox, scenarios: studio.scenarios() } }),
  }),
  operation({
    method: 'GET',
    path: '/studio/api/decisions',
    ...studioEntry,
    summary: 'Every decision table',
    access: 'public',
    responses: { 200: json('Name, title, hit policy, spec section and file of each.', S.DecisionList) },
    handle: async ({ service }) => ({
      body: Object.values(service.engine.rules.decisions).map((d) => ({
        decision: d.name,
        title: d.title,
        file: d.file,
        ...(d.spec ? { spec: d.spec } : {}),
        hitPolicy: d.hitPolicy,
        rows: d.rows.length,
      })),
    }),
  }),
  operation({
    method: 'GET',
    path: '/studio/api/errors',
    ...studioEntry,
    summary: 'The error catalogue',
    access: 'public',
    responses: { 200: json('Every code with its status, both texts and the rows that raise it.', z.array(ErrorPage)) },
    handle: async ({ service }) => ({ body: Object.keys(service.engine.rules.errors).map((code) => errorPage(service.engine, code)!) }),
  }),
  operation({
    method: 'GET',
    path: '/studio/api/reference',
    ...studioEntry,
    summary: 'Reference data',
    access: 'public',
    responses: { 200: json('Products, cards, stations and sales applications.', S.ReferenceData) },
    handle: async ({ service }) => {
      const { products, cards, stations, salesApplications } = service.engine.rules;
      const { byCode: _, ...productFile } = products;
      return { body: { products: productFile, cards, stations: stations.all, salesApplications: [...salesApplications.values()] } };
    },
  }),
  operation({
    method: 'GET',
    path: '/studio/api/decisions/{decision}',
    ...studioEntry,
    summary: 'One decision table, cell by cell',
    access: 'public',
    description: decisionParameter,
    responses: { 200: json('Its rows, conditions and outcomes as the file writes them, with `file:line:col`, and its fact catalogue.', S.DecisionTable) },
    handle: async ({ params, service }) => {
      const rules = service.engine.rules;
      const decision = decisionOf(service.engine, params.decision);
      return { body: tableOf(rules, decision, fileOf(studio, rules, decision).text) };
    },
  }),
];
