import { escapeHtml } from '../shared/html.ts';

/**
 * GET /: a small page saying what this server is and where to go next (the API reference, the OpenAPI document,
 * the health check, the studio where there is one), and on a sandbox the published demo credentials
 * (CONTRACT §10). A caller asking for JSON alone gets the same links as JSON.
 */
export interface LandingOptions {
  version: string;
  sandbox: boolean;
  /** Published client secrets, shown only on a sandbox (CONTRACT §10). */
  demoSecrets?: Readonly<Record<string, string>> | undefined;
  /** Whether the server has the studio (`signalbox serve` adds it). */
  studio: boolean;
  /** The request's Accept header. */
  accept: string | undefined;
}

const CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";
const REQUESTOR = { salesApplication: 'WEB_SE', salesUnitCode: 'WEB' };

/** GET / as its route entry answers it (adapters/http/operations/service.ts). */
export function landing(options: LandingOptions): { body: unknown; type: string; headers?: Readonly<Record<string, string>> } {
  const links: Array<{ href: string; title: string }> = [
    { href: '/docs', title: 'API reference (Swagger UI)' },
    { href: '/openapi.json', title: 'OpenAPI 3.1 document' },
    { href: '/health', title: 'Health check' },
    ...(options.studio ? [{ href: '/studio', title: 'Studio' }] : []),
  ];
  const demo =
    options.sandbox && options.demoSecrets
      ? {
          clients: Object.entries(options.demoSecrets).map(([id, secret]) => ({ id, secret })),
          requestor: Buffer.from(JSON.stringify(REQUESTOR)).toString('base64'),
        }
      : undefined;
  const about = { name: 'signalbox', version: options.version, sandbox: options.sandbox, links, ...(demo ? { demo } : {}) };
  const accept = options.accept ?? '';
  if (accept.includes('json') && !accept.includes('text/html')) return { body: about, type: 'application/json; charset=utf-8' };
  return { body: page(about, demo), type: 'text/html; charset=utf-8', headers: { 'content-security-policy': CSP, 'cache-control': 'no-cache' } };
}

function page(
  about: { version: string; sandbox: boolean; links: Array<{ href: string; title: string }> },
  demo?: { clients: Array<{ id: string; secret: string }>; requestor: string },
): string {
  const credentials = demo
    ? `<h2>Demo credentials (sandbox)</h2>
<ul>${demo.clients.map((c) => `<li>client <code>${escapeHtml(c.id)}</code>, secret <code>${escapeHtml(c.secret)}</code></li>`).join('')}</ul>
<p>Token: <code>curl -u ${escapeHtml(demo.clients[0]!.id)}:${escapeHtml(demo.clients[0]!.secret)} -d grant_type=client_credentials /oauth2/token</code>
(form fields, not JSON). Every <code>/v3</code> call also sends <code>Requestor: ${escapeHtml(demo.requestor)}</code>
(Base64 of <code>${escapeHtml(JSON.stringify(REQUESTOR))}</code>). The clock is movable under <code>/sandbox/clock</code>.</p>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>signalbox</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:46em;margin:2em auto;padding:0 1em;color:#222}code{background:#f3f3f3;padding:0 .2em}</style></head>
<body>
<h1>signalbox ${escapeHtml(about.version)}${about.sandbox ? ' (sandbox)' : ''}</h1>
<p>A train operator's OSDM-style Reseller API (under <code>/v3</code>) and Customer API (under <code>/customer</code>),
its sales rules run by a declarative rules engine. Access is by OAuth 2.0 client credentials at <code>POST /oauth2/token</code>.</p>
<ul>${about.links.map((l) => `<li><a href="${escapeHtml(l.href)}">${escapeHtml(l.title)}</a> <code>${escapeHtml(l.href)}</code></li>`).join('')}</ul>
${credentials}
</body></html>
`;
}
