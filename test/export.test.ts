import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_SECRETS } from '../adapters/harness/demo-secrets.ts';
import { exportCommand } from '../adapters/cli/export.ts';
import { runScenario } from '../adapters/harness/runner.ts';
import { inProcess } from '../adapters/harness/targets.ts';
import { serveProcess, type ServerProcess } from './helpers/process.ts';
import { engine } from './helpers/server.ts';

/**
 * `signalbox export`: the scenarios' requests as a Postman collection, loaded back and run by newman against a
 * served instance, checking each step's status, body and headers as `signalbox test` does: it passes where the
 * scenarios pass and reports the mismatches the runner reports where a scenario expects wrongly
 * (test/fixtures/export/wrong-expectations.yaml). Bruno's test scripts are run on the responses newman got, the Hurl
 * file is checked line by line (no Hurl binary installs here: its npm package downloads one from elsewhere at install
 * time, and Debian 12 has none), the .http file by its text.
 */
const require = createRequire(import.meta.url);
const newman = require('newman') as { run(options: object, done: (err: Error | null, summary: NewmanSummary) => void): void };
interface NewmanSummary {
  run: {
    stats: { requests: { total: number; failed: number }; assertions: { total: number; failed: number } };
    failures: Array<{ error: { message: string; test?: string }; source?: { name?: string } }>;
    executions: Array<{
      item: { name: string };
      response?: { code: number; text(): string; headers: { get(name: string): string | undefined } };
      assertions?: Array<{ assertion: string; error?: { message: string } }>;
    }>;
  };
}

const dir = mkdtempSync(join(tmpdir(), 'signalbox-export-'));
const SCENARIOS = ['scenarios/booking/sell-one-journey.yaml', 'scenarios/offers/no-offers.yaml'];
const WRONG = 'test/fixtures/export/wrong-expectations.yaml';
/** `signalbox export` in-process (its one line on stderr silenced); the file it wrote. */
const exportTo = async (format: string, file: string, scenarios = SCENARIOS) => {
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    expect(await exportCommand(['--format', format, '--out', file, ...scenarios])).toBe(0);
  } finally {
    vi.restoreAllMocks();
  }
  return readFileSync(file, 'utf8');
};
const runNewman = (file: string, baseUrl: string) =>
  new Promise<NewmanSummary>((resolve, reject) => {
    newman.run({ collection: file, envVar: [{ key: 'baseUrl', value: baseUrl }], reporters: [] }, (err, s) => (err ? reject(err) : resolve(s)));
  });
/** `body.code`, `header content-type`: where each line of a failed test's message says the response differs. */
const placesIn = (message: string) => message.split('\n').map((line) => line.slice(0, line.indexOf(': ')));

describe('signalbox export', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await serveProcess('memory', {}, ['--sandbox']);
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('--format postman: newman runs every request against a served instance, each expected status met', async () => {
    const file = join(dir, 'collection.json');
    const collection = JSON.parse(await exportTo('postman', file));
    expect(collection.item.map((f: { name: string }) => f.name)).toEqual([
      'One journey sold end to end (spec §3, §4.1)',
      expect.stringMatching(/^No offers for a cancelled train/),
    ]);
    const { stats, failures, executions } = (await runNewman(file, server.base)).run;
    expect(failures.map((f) => `${f.source?.name}: ${f.error.message}`)).toEqual([]);
    expect(stats.requests.failed).toBe(0);
    // The token first (the client's sandbox clock is moved with it), then the clock, then the steps: the token
    // request's form body is what the server accepted.
    expect(executions.slice(0, 3).map((e) => [e.item.name, e.response?.code])).toEqual([
      ['token for demo-reseller', 200],
      ["set the sandbox clock to the scenario's start (a sandbox server only)", 200],
      ['offers for one adult on the 08:00 Stockholm–Göteborg', 200],
    ]);
    expect(executions.some((e) => e.response?.code === 202)).toBe(true); // the confirmation, with the saved booking id
    // Every step that expects a body had it checked, saved values (the booking id, its price) included, and held.
    const bodyChecks = executions.filter((e) => e.assertions?.some((a) => a.assertion === 'body as the scenario expects'));
    expect(bodyChecks.map((e) => e.item.name)).toContain('the booking now shows its fulfillments');
    expect(bodyChecks).toHaveLength(8);
  }, 60_000);

  it('--format postman: a response that differs from what the scenario expects fails the run, at the places signalbox test names', async () => {
    const file = join(dir, 'wrong.json');
    await exportTo('postman', file, [WRONG]);
    const { failures } = (await runNewman(file, server.base)).run;
    const runner = await runScenario(WRONG, inProcess(engine()), { secrets: DEMO_SECRETS });
    const mismatches = runner.steps.flatMap((s) => s.mismatches.map((m) => m.path));
    expect(mismatches).toEqual(['header content-type', 'body.code', 'body.status']);
    expect(failures.map((f) => [f.source?.name, f.error.test])).toEqual([
      ['the same request, expected wrongly but for its saved instance and its title', 'headers as the scenario expects'],
      ['the same request, expected wrongly but for its saved instance and its title', 'body as the scenario expects'],
    ]);
    expect(failures.flatMap((f) => placesIn(f.error.message))).toEqual(mismatches);
    expect(failures[1]!.error.message).toContain('body.code: different value (expected "X_OFFER_EXPIRED", got "RESOURCE_NOT_FOUND")');
  }, 60_000);

  it("--format bruno: each request's tests pass on the answer signalbox test accepts and fail where it fails", async () => {
    // The answers the served instance gave newman for the same requests, and Bruno's script API over them.
    const file = join(dir, 'for-bruno.json');
    await exportTo('postman', file, [WRONG]);
    const { executions } = (await runNewman(file, server.base)).run;
    const out = join(dir, 'bruno-wrong');
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await exportCommand(['--format', 'bruno', '--out', out, WRONG])).toBe(0);
    } finally {
      vi.restoreAllMocks();
    }
    const folder = join(
      out,
      readdirSync(out).find((f) => /^01-/.test(f))!,
    );
    const files = readdirSync(folder)
      .filter((f) => f !== 'folder.bru')
      .sort();
    const vars: Record<string, unknown> = {};
    const results = files.map((name, i) => {
      const bru = readFileSync(join(folder, name), 'utf8');
      const response = executions[i]!.response!;
      const body = JSON.parse(response.text() || 'null') as Record<string, unknown> | null;
      const res = { getBody: () => body ?? '', getHeader: (h: string) => response.headers.get(h) };
      const bruApi = { getVar: (n: string) => vars[n], getEnvVar: () => undefined, setVar: (n: string, v: unknown) => (vars[n] = v) };
      const outcome: Array<[string, string]> = [];
      const test = (testName: string, fn: () => void) => {
        try {
          fn();
          outcome.push([testName, 'passed']);
        } catch (e) {
          outcome.push([testName, (e as Error).message]);
        }
      };
      for (const block of ['tests', 'script:post-response']) {
        const text = new RegExp(`^${block} \\{\\n([\\s\\S]*?)\\n\\}$`, 'm').exec(bru)?.[1];
        // The block's script, run as Bruno runs it: with `res`, `bru` and `test` in scope.
        // eslint-disable-next-line @typescript-eslint/no-implied-eval -- running the exported text is the test
        if (text) (new Function('res', 'bru', 'test', text) as (...args: unknown[]) => void)(res, bruApi, test);
      }
      return [name, outcome] as const;
    });
    expect(results.map(([name, outcome]) => [name.slice(0, 2), outcome.map(([t]) => t)])).toEqual([
      ['01', []],
      ['02', []],
      ['03', ['body as the scenario expects']],
      ['04', ['headers as the scenario expects', 'body as the scenario expects']],
    ]);
    expect(results[2]![1]).toEqual([['body as the scenario expects', 'passed']]);
    const [headers, wrongBody] = results[3]![1];
    expect(placesIn(headers![1])).toEqual(['header content-type']);
    expect(placesIn(wrongBody![1])).toEqual(['body.code', 'body.status']);
  }, 60_000);

  it('--format hurl: each request with its status, captures and asserts, every variable set before it is used', async () => {
    const text = await exportTo('hurl', join(dir, 'requests.hurl'), [SCENARIOS[0]!, WRONG]);
    const problems = hurlProblems(text);
    expect(problems).toEqual([]);
    expect(text).toContain('#   hurl --test --variable baseUrl=http://127.0.0.1:8080 --variable secret_demo_reseller=demo-reseller-secret FILE');
    // A saved value flows into later requests and expectations, its type kept (the price is a number).
    expect(text).toContain('[Captures]\nbookingId: jsonpath "$.booking.id"\nprice: jsonpath "$.booking.provisionalPrice.amount"\n');
    expect(text).toContain('jsonpath "$.booking.confirmedPrice.amount" == {{price}}');
    expect(text).toContain('jsonpath "$.booking.fulfillments[0].controlNumber" == "{{bookingId}}-1"');
    expect(text).toContain('jsonpath "$.booking.fulfillments[1].controlNumber" not exists');
    expect(text).toContain('jsonpath "$.booking.provisionalPrice.amount" isInteger'); // $money
    expect(text).toContain('jsonpath "$.fulfillment.fulfillmentParts[0].securityFeatures[0].data" matches "^[A-Za-z0-9+/]+=*$"');
    // The wrong expectations are asserted as written, so Hurl reports them.
    expect(text).toContain(
      'HTTP 404\n[Asserts]\nheader "content-type" matches "^text/html"\njsonpath "$.code" == "X_OFFER_EXPIRED"\njsonpath "$.status" > 404\njsonpath "$.instance" == {{instance}}\njsonpath "$.title" isString\n',
    );
  });

  it('--format http: named requests, later ones reading saved values from earlier responses', async () => {
    const text = await exportTo('http', join(dir, 'requests.http'));
    expect(text).toContain('@baseUrl = http://127.0.0.1:8080');
    expect(text).toMatch(
      /POST \{\{baseUrl\}\}\/oauth2\/token\nContent-Type: application\/x-www-form-urlencoded\n\ngrant_type=client_credentials&client_id=demo-reseller&client_secret=\{\{secret_demo_reseller\}\}/,
    );
    expect(text).toContain('Authorization: Bearer {{r1.response.body.$.access_token}}');
    expect(text).toMatch(/"offerId": "\{\{r3\.response\.body\.\$\.offers\[0\]\.offerId\}\}"/);
    expect(text).not.toMatch(/\$\{\w+\}/); // no runner template is left
  });

  it('refuses an unknown format and says which there are', async () => {
    let stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((t) => {
      stderr += String(t);
      return true;
    });
    try {
      expect(await exportCommand(['--format', 'soap', ...SCENARIOS])).toBe(2);
    } finally {
      vi.restoreAllMocks();
    }
    expect(stderr).toContain('--format wants postman, bruno, hurl or http, not soap');
  });
});

describe('signalbox export --format bruno', () => {
  it('writes a Bruno collection: a folder per scenario, a .bru file per request, the environment with baseUrl', async () => {
    const out = join(dir, 'bruno');
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await exportCommand(['--format', 'bruno', '--out', out, SCENARIOS[0]!])).toBe(0);
    } finally {
      vi.restoreAllMocks();
    }
    const folder = join(out, '01-one-journey-sold-end-to-end-spec-3-4-1');
    expect(JSON.parse(readFileSync(join(out, 'bruno.json'), 'utf8'))).toMatchObject({ version: '1', type: 'collection' });
    expect(readFileSync(join(out, 'environments/local.bru'), 'utf8')).toBe(
      'vars {\n  baseUrl: http://127.0.0.1:8080\n  secret_demo_reseller: demo-reseller-secret\n}\n',
    );
    const token = readFileSync(join(folder, '01-token-for-demo-reseller.bru'), 'utf8');
    expect(token).toContain(
      'body:form-urlencoded {\n  grant_type: client_credentials\n  client_id: demo-reseller\n  client_secret: {{secret_demo_reseller}}\n}',
    );
    expect(token).toContain('bru.setVar("token_demo_reseller", res.getBody()["access_token"]);');
    const offers = readFileSync(join(folder, '03-offers-for-one-adult-on-the-08-00-stockholm-g-teborg.bru'), 'utf8');
    expect(offers).toContain('Authorization: Bearer {{token_demo_reseller}}');
    expect(offers).toContain('bru.setVar("offerId", res.getBody()["offers"][0]["offerId"]);');
    expect(offers).toContain('assert {\n  res.status: eq 200\n}');
  });
});

/**
 * What is wrong with a Hurl file of ours, line by line: the request line, headers and sections, each assert one of the
 * queries and predicates Hurl documents, and every `{{variable}}` given on the command line (`--variable`, as the
 * file's first lines say) or captured by an earlier request.
 */
function hurlProblems(text: string): string[] {
  const problems: string[] = [];
  const known = new Set([...text.matchAll(/--variable (\w+)=/g)].map((m) => m[1]!));
  const assertLine =
    /^(jsonpath "\$[^"]*"|header "[^"]+")( count)? (== .+|!= .+|> -?\d+(\.\d+)?|>= -?\d+(\.\d+)?|< -?\d+(\.\d+)?|<= -?\d+(\.\d+)?|matches "(\\.|[^"\\])*"|includes .+|exists|not exists|isString|isNumber|isInteger|isBoolean|isCollection)$/;
  let section: 'request' | 'body' | 'response' | 'captures' | 'asserts' | 'form' = 'response';
  text.split('\n').forEach((line, i) => {
    const at = `line ${i + 1}: ${line}`;
    for (const [, name] of line.matchAll(/\{\{(\w+)\}\}/g)) if (!line.startsWith('#') && !known.has(name!)) problems.push(`${at}: {{${name}}} is not set yet`);
    if (line === '' || line.startsWith('#')) {
      if (line === '' && section === 'request') section = 'body';
      return;
    }
    if (/^(GET|POST|PATCH|PUT|DELETE) \{\{baseUrl\}\}\/\S+$/.test(line)) section = 'request';
    else if (/^HTTP (\d{3}|\*)$/.test(line)) section = 'response';
    else if (line === '[FormParams]' && section === 'request') section = 'form';
    else if (line === '[Captures]' && section === 'response') section = 'captures';
    else if (line === '[Asserts]' && (section === 'response' || section === 'captures')) section = 'asserts';
    else if (section === 'request' && /^[\w-]+: \S/.test(line)) return;
    else if (section === 'form' && /^\w+: \S/.test(line)) return;
    else if (section === 'captures' && /^(\w+): (jsonpath "\$[^"]*"|header "[^"]+")$/.test(line)) known.add(/^\w+/.exec(line)![0]);
    else if (section === 'asserts' && assertLine.test(line)) return;
    else if (section === 'request' && /^[{[]/.test(line)) section = 'body';
    else if (section !== 'body') problems.push(`${at}: not a line Hurl takes here (${section})`);
  });
  return problems;
}
