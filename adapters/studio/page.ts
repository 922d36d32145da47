import { readFileSync } from 'node:fs';
import { studioScript } from './script.ts';

/**
 * The studio's page: one HTML document whose script (client/, bundled by script.ts) draws each view from the JSON
 * endpoints, and its style sheet (public/studio.css). Both files are served by the server itself: no CDN, so the
 * page works offline.
 */
const STYLE = readFileSync(new URL('./public/studio.css', import.meta.url), 'utf8');

/** One of the page's two files, or undefined for any other name. */
export async function studioAsset(name: string): Promise<{ type: string; body: string } | undefined> {
  if (name === 'studio.css') return { type: 'text/css; charset=utf-8', body: STYLE };
  if (name === 'studio.js') return { type: 'text/javascript; charset=utf-8', body: await studioScript() };
  return undefined;
}

const VIEWS: Array<[string, string]> = [
  ['#/tables', 'Decision tables'],
  ['#/graph', 'Decision graph'],
  ['#/offers', 'Try an offers request'],
  ['#/errors', 'Error catalogue'],
  ['#/reference', 'Reference data'],
  ['#/scenarios', 'Scenarios'],
  ['#/coverage', 'Coverage'],
  ['#/seats', 'Seats'],
  ['#/journal', 'Request journal'],
  ['#/releases', 'Releases'],
];

export const studioPage = {
  // Nothing from elsewhere; seat maps are SVG documents shown as data: images (no script runs in them).
  csp: "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
  html: `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>signalbox studio</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/studio/assets/studio.css"></head>
<body>
<a class="skip" href="#main">Skip to the content</a>
<header>
  <h1><a href="#/tables">signalbox studio</a></h1>
  <nav aria-label="Views"><ul>${VIEWS.map(([href, title]) => `<li><a href="${href}">${title}</a></li>`).join('')}</ul></nav>
  <form id="sign-in" class="sign-in" aria-label="Analyst sign-in">
    <span id="mode" role="status"></span>
    <label>Client <input name="client" autocomplete="username" value="demo-analyst" size="12"></label>
    <label>Secret <input name="secret" type="password" autocomplete="current-password" size="14"></label>
    <button type="submit">Sign in as analyst</button>
    <button type="button" id="sign-out" hidden>Sign out</button>
  </form>
</header>
<main id="main" tabindex="-1"><p>Loading…</p></main>
<script type="module" src="/studio/assets/studio.js"></script>
</body></html>
`,
};
