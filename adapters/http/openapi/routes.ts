import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { phrase, RuleViolation } from '../../../engine/index.ts';

/**
 * GET /docs and its files (CONTRACT §2), as their route entries answer them (adapters/http/operations/service.ts);
 * GET /openapi.json is the server's `openApiDocument()`. The page is Swagger UI from the npm package swagger-ui-dist,
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

/** GET /docs: the Swagger UI page. */
export const docsPage = () => ({
  body: PAGE,
  type: 'text/html; charset=utf-8',
  headers: { 'content-security-policy': CSP, 'cache-control': 'no-cache' },
});

/** GET /docs/{file}: one of Swagger UI's files or our start script; any other name is not found. */
export function docsFile(name: string) {
  const file = FILES[name];
  if (!file || !Object.hasOwn(FILES, name)) throw new RuleViolation('RESOURCE_NOT_FOUND', { resource: phrase('resource-file'), id: name });
  let body = cache.get(name);
  if (body === undefined) cache.set(name, (body = file.read()));
  return {
    body,
    type: file.type,
    headers: {
      'cache-control': 'public, max-age=3600',
      etag: `"swagger-ui-${swaggerVersion}-signalbox-${packageVersion}"`,
      'x-content-type-options': 'nosniff',
    },
  };
}
