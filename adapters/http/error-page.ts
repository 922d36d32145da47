/**
 * GET /errors/{code}: the page a Problem's `type` points at (RFC 9457: "when dereferenced, it SHOULD provide
 * human-readable documentation for the problem type"; CONTRACT §4c). Everything on it comes from the rules:
 * the catalogue entry of rules/errors.yaml (status, title and detail in every language) and the decision rows
 * that reject with the code. HTML for a browser, JSON for a client that asks for it (operations/service.ts).
 */
import type { Engine } from '../../engine/index.ts';
import { escapeHtml } from '../shared/html.ts';
import type { ErrorPage } from './openapi/problem.ts';

/** The catalogue entry of `code` and the decision rows that reject with it; undefined for an unknown code. */
export function errorPage(engine: Engine, code: string): ErrorPage | undefined {
  const entry = Object.hasOwn(engine.rules.errors, code) ? engine.rules.errors[code] : undefined;
  if (!entry) return undefined;
  const raisedBy = Object.values(engine.rules.decisions).flatMap((d) =>
    d.rows.filter((row) => row.then['reject'] === code).map((row) => ({ decision: d.name, at: row.at })),
  );
  const texts = Object.fromEntries(engine.rules.limits.languages.map((l) => [l, { title: entry.title[l], detail: entry.detail[l] }]));
  return { code, status: entry.status, texts, catalogue: 'errors.yaml', raisedBy };
}

/** The page for a browser. */
export function errorPageHtml(page: ErrorPage): string {
  const texts = Object.entries(page.texts)
    .map(([language, t]) => `<section lang="${escapeHtml(language)}"><h2>${escapeHtml(t.title)}</h2><p>${escapeHtml(t.detail)}</p></section>`)
    .join('\n');
  const rows =
    page.raisedBy.length === 0
      ? '<p>No decision table rejects with this code: the engine raises it where it checks the request or the state.</p>'
      : `<ul>${page.raisedBy.map((r) => `<li><code>${escapeHtml(r.decision)}</code> at <code>${escapeHtml(r.at)}</code></li>`).join('')}</ul>`;
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(page.code)}</title></head>
<body>
<h1>Error ${escapeHtml(page.code)}</h1>
<p>HTTP status ${page.status}. Catalogue entry: <code>${escapeHtml(page.catalogue)}</code>.</p>
${texts}
<h2>Raised by</h2>
${rows}
</body></html>
`;
}
