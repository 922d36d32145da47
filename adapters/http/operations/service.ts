import { z } from 'zod';
import { phrase, RuleViolation } from '../../../engine/index.ts';
import { errorPage, errorPageHtml } from '../error-page.ts';
import { ErrorPage } from '../openapi/problem.ts';
import { landing } from '../landing.ts';
import { docsFile, docsPage, packageVersion } from '../openapi/routes.ts';
import * as S from '../openapi/schemas.ts';
import { operation, type Operation } from './operation.ts';

/** The server's own pages (CONTRACT §2, §4c, §10): what it is, its document and reference, its error pages. */
export const service: Operation[] = [
  operation({
    method: 'GET',
    path: '/',
    summary: 'What this server is, with links',
    section: 'CONTRACT §2, §10',
    tag: 'Service',
    access: 'public',
    description:
      'An HTML page: links to /docs, /openapi.json and /health, and on a sandbox the demo credentials. `Accept: application/json` gets the same as JSON.',
    responses: { 200: { description: 'An HTML page.', schema: z.string(), contentType: 'text/html' } },
    handle: async ({ request }) =>
      landing({
        version: packageVersion,
        sandbox: request.server.sandbox.on,
        demoSecrets: request.server.sandbox.demoSecrets,
        studio: request.server.registeredRoutes.some((r) => r.method === 'GET' && r.url === '/studio'),
        accept: request.headers.accept,
      }),
  }),
  operation({
    method: 'GET',
    path: '/health',
    summary: 'Liveness',
    section: 'CONTRACT §2',
    tag: 'Service',
    access: 'public',
    responses: { 200: { description: 'The process serves requests, on this version of Node.', schema: S.Health } },
    handle: async () => ({ body: { status: 'ok', node: process.version } }),
  }),
  operation({
    method: 'GET',
    path: '/openapi.json',
    summary: 'This document',
    section: 'CONTRACT §2',
    tag: 'Service',
    access: 'public',
    description: 'The OpenAPI 3.1 document of this server, generated from its zod schemas and the routes it registers.',
    responses: { 200: { description: 'OpenAPI 3.1', schema: S.OpenApiDocument } },
    handle: async ({ request }) => ({
      body: request.server.openApiDocument(),
      type: 'application/json; charset=utf-8',
      headers: { 'cache-control': 'no-cache' },
    }),
  }),
  operation({
    method: 'GET',
    path: '/docs',
    summary: 'Browsable API reference',
    section: 'CONTRACT §2',
    tag: 'Service',
    access: 'public',
    description: 'Renders /openapi.json with Swagger UI, served from the npm package swagger-ui-dist (no CDN).',
    responses: { 200: { description: 'An HTML page.', schema: z.string(), contentType: 'text/html' } },
    handle: async () => docsPage(),
  }),
  operation({
    method: 'GET',
    path: '/docs/{file}',
    summary: 'Scripts and styles of /docs',
    section: 'CONTRACT §2',
    tag: 'Service',
    access: 'public',
    responses: { 200: { description: 'A static file.', schema: z.string(), contentType: 'application/octet-stream' } },
    handle: async ({ params }) => docsFile(params.file),
  }),
  operation({
    method: 'GET',
    path: '/errors/{code}',
    summary: "An error's page",
    section: 'CONTRACT §4c',
    tag: 'Service',
    access: 'public',
    description:
      "What a Problem's `type` points at: the code's status, title and detail in both languages, and the rule rows that raise it. JSON when Accept asks for it.",
    responses: { 200: { description: 'An HTML page, or the same as JSON.', schema: ErrorPage } },
    handle: async ({ request, params, service }) => {
      const page = errorPage(service.engine, params.code);
      if (!page) throw new RuleViolation('RESOURCE_NOT_FOUND', { resource: phrase('resource-error-code'), id: params.code });
      if (/\bjson\b/.test(request.headers.accept ?? '')) return { body: page };
      return { body: errorPageHtml(page), type: 'text/html; charset=utf-8' };
    },
  }),
];
