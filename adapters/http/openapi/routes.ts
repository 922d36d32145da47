import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { phrase, RuleViolation } from '../../../engine/index.ts';
import { openApiDocument, type RegisteredRoute } from './document.ts';
import { forIntegrators } from './for-integrators.ts';

/**
 * GET /openapi.json and GET /docs (CONTRACT §2). The page is Swagger UI from the npm package swagger-ui-dist,
 * served from node_modules by this server: no CDN, and a Content-Security-Policy that lets the page load nothing
 * from anywhere else.
 */
const require = createRequire(import.meta.url);
const swaggerDir = dirname(require.resolve('swagger-ui-dist/package.json'));
export const packageVersion = ownVersion();
const swaggerVersion = (require('swagger-ui-dist/package.json') as { version: string }).version;

/** signalbox's version, from the nearest package.json up from this file (in a clone and in dist/ alike). */
function ownVersion(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'signalbox' && pkg.version) return pkg.version;
    }
  }
  return '0.0.0';
}

const INIT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    defaultModelsExpandDepth: 0,
    docExpansion: 'list',
    persistAuthorization: false,
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>signalbox API reference</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
  <style>body { margin: 0; } .swagger-ui .topbar { display: none; }</style>
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/signalbox-docs.js"></script>
</body>
</html>
`;

/** The only files /docs/{file} serves: Swagger UI's, read once when first asked for, and our start script. */
const FILES: Record<string, { type: string; read: () => Buffer | string }> = {
  'swagger-ui.css': { type: 'text/css; charset=utf-8', read: () => readFileSync(join(swaggerDir, 'swagger-ui.css')) },
  'swagger-ui-bundle.js': { type: 'text/javascript; charset=utf-8', read: () => readFileSync(join(swaggerDir, 'swagger-ui-bundle.js')) },
  'favicon-32x32.png': { type: 'image/png', read: () => readFileSync(join(swaggerDir, 'favicon-32x32.png')) },
  'signalbox-docs.js': { type: 'text/javascript; charset=utf-8', read: () => INIT },
};
const cache = new Map<string, Buffer | string>();

// Inline styles only for Swagger UI's own; images may be data: URIs (its icons). Nothing from another origin.
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
  "font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

export const docsRoutes = (routes: () => readonly RegisteredRoute[]) => async (app: FastifyInstance) => {
  // Generated at the first request, when every route is registered, then kept: the routes do not change.
  let document: string | undefined;
  app.get('/openapi.json', async (_request, reply) => {
    document ??= JSON.stringify(
      forIntegrators(openApiDocument({ routes: routes(), version: packageVersion, limits: app.engine.rules.limits, table: app.routeTable })),
    );
    return reply.type('application/json; charset=utf-8').header('cache-control', 'no-cache').send(document);
  });

  app.get('/docs', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('content-security-policy', CSP).header('cache-control', 'no-cache').send(PAGE),
  );

  app.get<{ Params: { file: string } }>('/docs/:file', async (request, reply) => {
    const file = FILES[request.params.file];
    if (!file || !Object.hasOwn(FILES, request.params.file))
      throw new RuleViolation('RESOURCE_NOT_FOUND', { resource: phrase('resource-file'), id: request.params.file });
    let body = cache.get(request.params.file);
    if (body === undefined) cache.set(request.params.file, (body = file.read()));
    return reply
      .type(file.type)
      .header('cache-control', 'public, max-age=3600')
      .header('etag', `"swagger-ui-${swaggerVersion}-signalbox-${packageVersion}"`)
      .header('x-content-type-options', 'nosniff')
      .send(body);
  });
};
