import type { LoadedScenario } from './load.ts';
import { scenarioRequestor } from './api-step.ts';
import { methodOf, type ApiStep, type ClockStep } from './schema.ts';
import { stepName } from './runner.ts';
import { expand } from './templates.ts';
import { MATCHER_SOURCE } from './export-matcher.ts';

/**
 * The requests of scenarios as a collection for the tools resellers use (`signalbox export`): Postman (run by
 * newman), Bruno and the `.http` files of VS Code's REST Client. Each scenario becomes a folder that asks for a token
 * per client (form-encoded, CONTRACT §3), sets each client's sandbox clock to the scenario's start and sends its steps with
 * the token, the Requestor (spec §2.1) and the language, checking each step's expected status, body and headers (the
 * matcher of match.ts, carried in the test scripts: export-matcher.ts). Values a step saves are read from its
 * response for later requests and expectations; the target is the variable `baseUrl`, each client's secret
 * `secret.<client>` (the demo ones preset), so the collection runs against any server. Hurl: export-hurl.ts.
 *
 * Left to the runner: the API schema check; a `${name}` no step saves stays a variable the user sets; a Requestor
 * naming a variable is not built.
 */
export interface ExportedRequest {
  name: string;
  method: string;
  /** With `{{variable}}` placeholders, starting at `{{baseUrl}}`. */
  url: string;
  headers: Array<[string, string]>;
  body?: { type: 'json' | 'form'; text: string };
  expectStatus?: number;
  /**
   * The body (subset match unless `exact`) and headers the scenario expects, with each `${name}` left in place for
   * the tool to resolve from its variables when the request runs, as the runner does from the values saved so far.
   */
  expect?: ExportedExpectation;
  /** Values to keep from the response: variable name → `offers[0].offerId` or `header:x-request-id`. */
  saves: Array<[string, string]>;
}
interface ExportedExpectation {
  body?: unknown;
  exact: boolean;
  headers?: Record<string, unknown>;
}
interface ExportedFolder {
  name: string;
  file: string;
  requests: ExportedRequest[];
}
export interface Exported {
  folders: ExportedFolder[];
  variables: Record<string, string>;
}

const tokenVar = (client: string) => `token.${client}`;
const secretVar = (client: string) => `secret.${client}`;

/** Every `${name}` becomes `{{name}}`: the collection's variables stand where the runner's would. */
const placeholders = new Proxy(
  {},
  {
    has: () => true,
    get: (_t, name) => (typeof name === 'string' ? `{{${name}}}` : undefined),
  },
);

/** Every `${name}` stays as it is: an expectation's saved values are looked up when its request has run. */
const kept = new Proxy(
  {},
  {
    has: () => true,
    get: (_t, name) => (typeof name === 'string' ? `\${${name}}` : undefined),
  },
);

const isClock = (step: ApiStep | ClockStep): step is ClockStep => 'advance' in step || 'at' in step;

export function exportScenarios(scenarios: readonly LoadedScenario[], secrets: Readonly<Record<string, string>>): Exported {
  const variables: Record<string, string> = { baseUrl: 'http://127.0.0.1:8080' };
  const folders = scenarios.map(({ file, scenario, steps, fixtures }) => {
    const named = (v: string) => expand(v, placeholders, fixtures) as string;
    const clientOf = (step: ApiStep) => (step.auth === false ? undefined : named(step.auth ?? scenario.client));
    const clients = [...new Set(steps.flatMap(({ step }) => (isClock(step) ? [] : [clientOf(step)]).filter((c): c is string => !!c)))];
    for (const c of clients) if (secrets[c] !== undefined) variables[secretVar(c)] ??= secrets[c];

    // Each client has a sandbox clock of its own, moved with its token: every clock request goes once per client.
    const clocks = (name: string, body: Record<string, unknown>) =>
      clients.map((client) => sandboxClock(clients.length > 1 ? `${name} (${client})` : name, body, client));
    const requests: ExportedRequest[] = [
      ...clients.map((client): ExportedRequest => ({
        name: `token for ${client}`,
        method: 'POST',
        url: '{{baseUrl}}/oauth2/token',
        headers: [['Content-Type', 'application/x-www-form-urlencoded']],
        body: { type: 'form', text: `grant_type=client_credentials&client_id=${encodeURIComponent(client)}&client_secret={{${secretVar(client)}}}` },
        expectStatus: 200,
        saves: [[tokenVar(client), 'access_token']],
      })),
      ...clocks("set the sandbox clock to the scenario's start (a sandbox server only)", { now: scenario.clock, freeze: true }),
    ];
    steps.forEach(({ step }) => {
      const label = stepName(step);
      if (isClock(step)) {
        requests.push(...clocks(label, step.advance ? { advance: step.advance, freeze: true } : { now: step.at, freeze: true }));
        return;
      }
      const method = methodOf(step);
      const path = expand(step[method], placeholders, fixtures) as string;
      const body = step.body === undefined ? undefined : expand(step.body, placeholders, fixtures);
      const headers: Array<[string, string]> = [['Accept-Language', scenario.language]];
      if (body !== undefined && typeof body !== 'string') headers.push(['Content-Type', 'application/json']);
      const client = clientOf(step);
      if ((path.startsWith('/v3/') || path.startsWith('/customer/')) && client) headers.push(['Authorization', `Bearer {{${tokenVar(client)}}}`]);
      if (path.startsWith('/v3/')) {
        const salesApplication = named(step.salesApplication ?? scenario.salesApplication);
        headers.push(['Requestor', scenarioRequestor(salesApplication)]);
      }
      for (const [k, v] of Object.entries(step.headers ?? {})) {
        const at = headers.findIndex(([h]) => h.toLowerCase() === k.toLowerCase());
        if (at >= 0) headers.splice(at, 1);
        if (v !== null) headers.push([k, expand(v, placeholders, fixtures) as string]);
      }
      requests.push({
        name: label,
        method: method.toUpperCase(),
        url: `{{baseUrl}}${path}`,
        headers,
        ...(body === undefined
          ? {}
          : { body: typeof body === 'string' ? { type: 'form' as const, text: body } : { type: 'json' as const, text: JSON.stringify(body, null, 2) } }),
        ...(step.expect.status === undefined ? {} : { expectStatus: step.expect.status }),
        ...(step.expect.body === undefined && step.expect.headers === undefined
          ? {}
          : {
              expect: {
                ...(step.expect.body === undefined ? {} : { body: expand(step.expect.body, kept, fixtures) }),
                exact: step.expect.exact ?? false,
                ...(step.expect.headers === undefined ? {} : { headers: expand(step.expect.headers, kept, fixtures) as Record<string, unknown> }),
              },
            }),
        saves: Object.entries(step.save ?? {}),
      });
    });
    return { name: scenario.name, file, requests };
  });
  return { folders, variables };
}

function sandboxClock(name: string, body: Record<string, unknown>, client: string): ExportedRequest {
  return {
    name,
    method: 'POST',
    url: '{{baseUrl}}/sandbox/clock',
    headers: [
      ['Content-Type', 'application/json'],
      ['Authorization', `Bearer {{${tokenVar(client)}}}`],
    ],
    body: { type: 'json', text: JSON.stringify(body) },
    saves: [],
  };
}

/** `offers[0].offerId` → `["offers"][0]["offerId"]`, safe for any key. */
const accessor = (path: string) =>
  path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean)
    .map((p) => (/^\d+$/.test(p) ? `[${p}]` : `[${JSON.stringify(p)}]`))
    .join('');

/** How a tool's test script names a test, reads the response and reads a variable. */
interface TestDialect {
  test: string;
  body: string;
  header: (name: string) => string;
  lookup: string;
}

const postmanTests: TestDialect = {
  test: 'pm.test',
  body: "(function () { var text = pm.response.text(); return text === '' ? undefined : JSON.parse(text); })()",
  header: (name) => `pm.response.headers.get(${JSON.stringify(name)})`,
  lookup: 'function (name) { return pm.variables.get(name); }',
};

/** Bruno's variables are made of word characters (`safe` below), its response headers lower-case. */
const brunoTests: TestDialect = {
  test: 'test',
  body: "(function (body) { return body === '' ? undefined : body; })(res.getBody())",
  header: (name) => `res.getHeader(${JSON.stringify(name.toLowerCase())})`,
  lookup: "function (name) { var n = name.replace(/\\W/g, '_'); var v = bru.getVar(n); return v === undefined ? bru.getEnvVar(n) : v; }",
};

/**
 * The lines of a test script that check a response as the scenario expects: the matcher, then a test for the headers
 * and one for the body, each failing with every mismatch (`body.booking.status: different value (…)`).
 */
function expectationTests(e: ExportedExpectation, tool: TestDialect): string[] {
  const test = (name: string, checks: string[]) => [
    `${tool.test}(${JSON.stringify(name)}, function () {`,
    '  var failures = [];',
    ...checks.map((c) => `  failures = failures.concat(${c});`),
    "  if (failures.length > 0) throw new Error(failures.join('\\n'));",
    '});',
  ];
  const check = (expected: unknown, actual: string, exact: boolean, path: string) =>
    `signalboxMatch(${JSON.stringify(expected)}, ${actual}, ${exact}, ${JSON.stringify(path)}, ${tool.lookup})`;
  return [
    ...MATCHER_SOURCE.split('\n'),
    ...(e.headers
      ? test(
          'headers as the scenario expects',
          Object.entries(e.headers).map(([h, v]) => check(v, tool.header(h), false, `header ${h}`)),
        )
      : []),
    ...(e.body === undefined
      ? []
      : test(e.exact ? 'body exactly as the scenario expects' : 'body as the scenario expects', [check(e.body, tool.body, e.exact, 'body')])),
  ];
}

/** A Postman Collection v2.1 (newman runs it: `newman run FILE --env-var baseUrl=http://…`). */
export function postmanCollection(exported: Exported, title: string): string {
  const item = (r: ExportedRequest) => {
    const exec = [
      ...(r.expectStatus === undefined
        ? []
        : [`pm.test(${JSON.stringify(`status ${r.expectStatus}`)}, function () { pm.response.to.have.status(${r.expectStatus}); });`]),
      ...(r.expect ? expectationTests(r.expect, postmanTests) : []),
      ...r.saves.map(([name, from]) =>
        from.startsWith('header:')
          ? `pm.collectionVariables.set(${JSON.stringify(name)}, pm.response.headers.get(${JSON.stringify(from.slice(7))}));`
          : `pm.collectionVariables.set(${JSON.stringify(name)}, pm.response.json()${accessor(from)});`,
      ),
    ];
    const [base, ...rest] = r.url.split('/');
    return {
      name: r.name,
      request: {
        method: r.method,
        header: r.headers.map(([key, value]) => ({ key, value })),
        ...(r.body
          ? { body: r.body.type === 'json' ? { mode: 'raw', raw: r.body.text, options: { raw: { language: 'json' } } } : { mode: 'raw', raw: r.body.text } }
          : {}),
        url: { raw: r.url, host: [base], path: rest.join('/').split('?')[0]!.split('/') },
      },
      ...(exec.length > 0 ? { event: [{ listen: 'test', script: { type: 'text/javascript', exec } }] } : {}),
    };
  };
  return `${JSON.stringify(
    {
      info: { name: title, schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      variable: Object.entries(exported.variables).map(([key, value]) => ({ key, value })),
      item: exported.folders.map((f) => ({ name: f.name, description: f.file, item: f.requests.map(item) })),
    },
    null,
    2,
  )}\n`;
}

/**
 * An `.http` file for VS Code's REST Client: `@baseUrl` and the secrets as file variables, each request named,
 * and a saved value read from the named request's response where a later request uses it.
 */
export function httpFile(exported: Exported): string {
  const safe = (name: string) => name.replace(/\W/g, '_');
  const out = [
    '# signalbox scenarios as requests (VS Code REST Client). Set @baseUrl to the target; clock requests need a sandbox.',
    ...Object.entries(exported.variables).map(([k, v]) => `@${safe(k)} = ${v}`),
    '',
  ];
  let n = 0;
  for (const folder of exported.folders) {
    out.push(`### ${folder.name}  (${folder.file})`, '');
    // A variable's latest source: the request that saved it, as a REST Client reference.
    const sources = new Map<string, string>();
    const resolve = (text: string) => text.replace(/\{\{([^{}]+)\}\}/g, (m, name: string) => sources.get(name) ?? `{{${safe(name)}}}`);
    for (const r of folder.requests) {
      const id = `r${++n}`;
      out.push(`# ${r.name}${r.expectStatus === undefined ? '' : `  (expect ${r.expectStatus})`}`);
      // REST Client runs no tests: what the scenario expects is shown for the reader to compare.
      const shown = (v: unknown) => resolve(JSON.stringify(v).replace(/\$\{([\w.-]+)\}/g, '{{$1}}'));
      if (r.expect?.body !== undefined) out.push(`# expect body${r.expect.exact ? ' (exactly)' : ''}: ${shown(r.expect.body)}`);
      for (const [h, v] of Object.entries(r.expect?.headers ?? {})) out.push(`# expect header ${h}: ${shown(v)}`);
      out.push(`# @name ${id}`, `${r.method} ${resolve(r.url)}`);
      for (const [k, v] of r.headers) out.push(`${k}: ${resolve(v)}`);
      if (r.body) out.push('', resolve(r.body.text));
      out.push('', '###', '');
      for (const [name, from] of r.saves) {
        sources.set(name, from.startsWith('header:') ? `{{${id}.response.headers.${from.slice(7)}}}` : `{{${id}.response.body.$.${from}}}`);
      }
    }
  }
  return `${out.join('\n')}\n`;
}

/**
 * A Bruno collection, as files (`bru run --env local` in the folder runs it): `bruno.json`, `environments/local.bru`
 * with `baseUrl` and the secrets, a folder per scenario and a `.bru` file per request in order, its expectations in
 * `assert` (the status) and `tests` (body and headers). Saved values are runtime variables (`bru.setVar`), kept for
 * the rest of the run; names are made of word characters.
 */
export function brunoCollection(exported: Exported, title: string): Record<string, string> {
  const safe = (name: string) => name.replace(/\W/g, '_');
  const vars = (text: string) => text.replace(/\{\{([^{}]+)\}\}/g, (_m, name: string) => `{{${safe(name)}}}`);
  const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
  const slug = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .slice(0, 60)
      .replace(/^-|-$/g, '');
  const indent = (text: string) =>
    text
      .split('\n')
      .map((l) => `  ${l}`)
      .join('\n');
  const readBruno = (from: string) => (from.startsWith('header:') ? `res.getHeader(${JSON.stringify(from.slice(7))})` : `res.getBody()${accessor(from)}`);
  const files: Record<string, string> = {
    'bruno.json': `${JSON.stringify({ version: '1', name: title, type: 'collection', ignore: ['node_modules', '.git'] }, null, 2)}\n`,
    'environments/local.bru': `vars {\n${Object.entries(exported.variables)
      .map(([k, v]) => `  ${safe(k)}: ${v}`)
      .join('\n')}\n}\n`,
  };
  exported.folders.forEach((folder, f) => {
    const dir = `${String(f + 1).padStart(2, '0')}-${slug(folder.name)}`;
    files[`${dir}/folder.bru`] = `meta {\n  name: ${oneLine(folder.name)}\n  seq: ${f + 1}\n}\n`;
    folder.requests.forEach((r, i) => {
      const body = r.body ? (r.body.type === 'json' ? 'json' : 'formUrlEncoded') : 'none';
      const blocks = [
        `meta {\n  name: ${oneLine(r.name)}\n  type: http\n  seq: ${i + 1}\n}`,
        `${r.method.toLowerCase()} {\n  url: ${vars(r.url)}\n  body: ${body}\n  auth: none\n}`,
        ...(r.headers.length > 0 ? [`headers {\n${r.headers.map(([k, v]) => `  ${k}: ${vars(v)}`).join('\n')}\n}`] : []),
        ...(r.body?.type === 'json' ? [`body:json {\n${indent(vars(r.body.text))}\n}`] : []),
        ...(r.body?.type === 'form'
          ? [`body:form-urlencoded {\n${[...new URLSearchParams(r.body.text)].map(([k, v]) => `  ${k}: ${vars(v)}`).join('\n')}\n}`]
          : []),
        ...(r.saves.length > 0
          ? [`script:post-response {\n${r.saves.map(([name, from]) => `  bru.setVar(${JSON.stringify(safe(name))}, ${readBruno(from)});`).join('\n')}\n}`]
          : []),
        ...(r.expectStatus === undefined ? [] : [`assert {\n  res.status: eq ${r.expectStatus}\n}`]),
        ...(r.expect ? [`tests {\n${indent(expectationTests(r.expect, brunoTests).join('\n'))}\n}`] : []),
      ];
      files[`${dir}/${String(i + 1).padStart(2, '0')}-${slug(r.name) || 'request'}.bru`] = `${blocks.join('\n\n')}\n`;
    });
  });
  return files;
}
