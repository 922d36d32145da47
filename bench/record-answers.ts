/**
 * Records every answer the scenario corpus gets from the code in one source tree: per step its HTTP status,
 * content type, Location, the response body's bytes and the engine's rule traces. compare-answers.ts runs this
 * once per tree (the working tree and a base revision checked out beside it), each in its own process, so the two
 * never share a module.
 *
 *   tsx bench/record-answers.ts ROOT SCENARIOS_DIR OUT.json
 *
 * The code, rules and demo secrets come from ROOT; the scenario files from SCENARIOS_DIR, the same for both runs.
 * It uses only what the server has always offered (createEngine, buildServer, the memory store, the virtual clock,
 * sequential ids, runScenario), so an old revision records as well as the new one.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface RecordedAnswer {
  request: string;
  status: number;
  contentType?: string;
  location?: string;
  body: string;
  traces: string;
}
export type RecordedCorpus = Record<string, RecordedAnswer[]>;

/** The secret every in-process run signs tokens with: access tokens then differ only by the virtual clock. */
const JWT_SECRET = 'compare-answers-secret';

/** An access token carries the wall-clock time it was issued at (jose reads the system clock): masked. */
const withoutToken = (body: string) => body.replace(/"access_token":"[^"]*"/, '"access_token":"…"');

async function record(root: string, scenariosDir: string): Promise<RecordedCorpus> {
  // A base revision may predate the adapters' wings: each module is looked for where it is now, then where it was.
  const load = (path: string, before?: string) => import(pathToFileURL(resolve(root, before && !existsSync(resolve(root, path)) ? before : path)).href);
  const [{ createEngine }, { buildServer }, { memoryStore }, { virtualClock }, { sequentialIds }, { runScenario }, { scenarioFiles }, { DEMO_SECRETS }] =
    await Promise.all([
      load('engine/index.ts'),
      load('adapters/http/server.ts'),
      load('adapters/store/memory.ts'),
      load('adapters/service/clock.ts', 'adapters/clock.ts'),
      load('adapters/service/ids.ts', 'adapters/ids.ts'),
      load('adapters/harness/runner.ts', 'adapters/scenarios/runner.ts'),
      load('adapters/harness/files.ts', 'adapters/scenarios/files.ts'),
      load('adapters/harness/demo-secrets.ts', 'adapters/cli/demo.ts'),
    ]);
  const engine = createEngine({ rulesDir: resolve(root, 'rules') });
  const files: string[] = [...scenarioFiles([scenariosDir]), ...scenarioFiles([resolve(scenariosDir, 'failing')])];
  const corpus: RecordedCorpus = {};
  for (const file of files) {
    const answers: RecordedAnswer[] = [];
    // A fresh server per scenario, as the in-process target promises: empty store, ids from 1, the scenario's clock.
    const target = {
      name: 'recording',
      async open(start: string) {
        const clock = virtualClock(new Date(start));
        const app = await buildServer({ engine, store: memoryStore(), clock, ids: sequentialIds(), sandbox: true, jwtSecret: JWT_SECRET });
        const seen: { traces?: unknown } = {};
        app.addHook('onResponse', async (request: { traces?: unknown }) => {
          seen.traces = request.traces;
        });
        await app.ready();
        return {
          async send(x: { method: string; path: string; headers: Record<string, string>; body?: unknown }) {
            seen.traces = undefined;
            const payload = x.body === undefined ? undefined : typeof x.body === 'string' ? x.body : JSON.stringify(x.body);
            const res = await app.inject({ method: x.method, url: x.path, headers: x.headers, ...(payload !== undefined ? { payload } : {}) });
            const headers = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)]));
            const contentType = headers['content-type'];
            answers.push({
              request: `${x.method.toUpperCase()} ${x.path}`,
              status: res.statusCode,
              ...(contentType ? { contentType } : {}),
              ...(headers['location'] ? { location: headers['location'] } : {}),
              body: x.path === '/oauth2/token' ? withoutToken(res.body) : res.body,
              traces: JSON.stringify(seen.traces ?? []),
            });
            let body: unknown = res.body === '' ? undefined : res.body;
            if (contentType?.includes('json') && res.body !== '') {
              try {
                body = JSON.parse(res.body);
              } catch {
                /* kept as text */
              }
            }
            return { status: res.statusCode, headers, body, traces: (seen.traces ?? []) as unknown[] };
          },
          async setClock(instant: string) {
            clock.set(new Date(instant));
          },
          async advanceClock(iso: string) {
            clock.advance(iso);
          },
          async close() {
            await app.close();
          },
        };
      },
    };
    await runScenario(file, target, { secrets: DEMO_SECRETS });
    corpus[relative(scenariosDir, file)] = answers;
  }
  return corpus;
}

const [root, scenariosDir, out] = process.argv.slice(2);
if (!root || !scenariosDir || !out) {
  console.error('usage: tsx bench/record-answers.ts ROOT SCENARIOS_DIR OUT.json');
  process.exit(2);
}
writeFileSync(out, JSON.stringify(await record(resolve(root), resolve(scenariosDir)), null, 1));
