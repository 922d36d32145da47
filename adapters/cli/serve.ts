import { parseArgs } from 'node:util';
import { createEngine, defaultRulesDir, loadRules, RuleFileError } from '../../engine/index.ts';
import { buildServer } from '../http/server.ts';
import { readableLog } from '../http/readable-log.ts';
import { openStore } from '../store/open.ts';
import { studioExtension } from '../studio/routes.ts';
import { DEMO_SECRETS } from '../harness/demo-secrets.ts';
import { watchRules } from './watch.ts';

/** `signalbox serve`: the HTTP server of CONTRACT §1 (what `npm start` runs). */
export async function serve(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string', default: process.env['PORT'] ?? '8080' },
      host: { type: 'string', default: process.env['HOST'] ?? '127.0.0.1' },
      store: { type: 'string', default: 'sqlite:./data/signalbox.db' },
      sandbox: { type: 'boolean', default: false },
      rules: { type: 'string' },
      watch: { type: 'boolean', default: false },
      edit: { type: 'boolean', default: false },
      'journal-personal-data': { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
    },
  });
  let rules;
  try {
    rules = loadRules(values.rules);
  } catch (e) {
    if (e instanceof RuleFileError) {
      process.stderr.write(`${e.problems.join('\n')}\nsignalbox: the rules have errors; not starting.\n`);
      return 1;
    }
    throw e;
  }
  const store = await openStore(values.store);
  const engineOptions = process.env['SIGNALBOX_TICKET_KEY'] ? { ticketKey: process.env['SIGNALBOX_TICKET_KEY'] } : {};
  const app = await buildServer({
    engine: createEngine({ rules, ...engineOptions }),
    store,
    sandbox: values.sandbox,
    ...(values.sandbox ? { demoSecrets: DEMO_SECRETS } : {}),
    // The operator's choice: analysts read the request journal's personal data as sent (docs/operating.md).
    journalPersonalData: values['journal-personal-data'],
    // The analysts' workbench; it saves rule edits on a sandbox or with --edit (docs/studio.md).
    extensions: [studioExtension({ sandbox: values.sandbox, edit: values.edit, ...(values.rules ? { rulesDir: values.rules } : {}), engineOptions })],
    ...(process.env['SIGNALBOX_JWT_SECRET'] ? { jwtSecret: process.env['SIGNALBOX_JWT_SECRET'] } : {}),
    // A person at a terminal reads one line per request; anything else (a pipe, a collector) gets JSON lines.
    logger: values.quiet
      ? false
      : {
          level: process.env['LOG_LEVEL'] ?? 'info',
          ...(process.stdout.isTTY && process.env['LOG_FORMAT'] !== 'json' ? { stream: readableLog(process.stdout) } : {}),
        },
  });
  if (values.watch) {
    // Hooks can only be added before the server listens.
    const dir = values.rules ?? defaultRulesDir();
    const stop = watchRules(
      dir,
      engineOptions,
      (engine) => app.service.setEngine(engine),
      (line) => process.stdout.write(`${line}\n`),
    );
    app.addHook('onClose', async () => stop());
  }
  const url = await app.listen({ port: Number(values.port), host: values.host });
  // Graceful shutdown: stop listening, let the requests in flight finish (their connections then close), close the
  // store, exit 0. Requests still running after SIGNALBOX_SHUTDOWN_GRACE_MS (default 10 s) lose their connections
  // and the exit status is 1; a second signal exits at once with 1.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      app.log.warn(`${signal} again: exiting without waiting`);
      process.exit(1);
    }
    stopping = true;
    app.log.info(`${signal}: finishing in-flight requests`);
    let forced = false;
    const grace = Number(process.env['SIGNALBOX_SHUTDOWN_GRACE_MS'] ?? 10_000);
    const timer = setTimeout(() => {
      forced = true;
      app.log.error(`requests still running after ${grace} ms: closing their connections`);
      app.server.closeAllConnections();
    }, grace);
    timer.unref();
    try {
      await app.close();
    } catch (e) {
      app.log.error({ err: e }, 'shutdown failed');
      process.exit(1);
    }
    clearTimeout(timer);
    app.log.info('shut down');
    process.exit(forced ? 1 : 0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.stdout.write(
    [
      `signalbox listening on ${url}${values.sandbox ? ' (sandbox)' : ''}${values.watch ? ' (reloading rules on change)' : ''}`,
      `  studio: ${url}/studio  (rules ${values.sandbox || values.edit ? 'editable by an analyst token: client demo-analyst / demo-analyst-secret' : 'read-only; --edit lets an analyst save'})`,
      `  store: ${store.kind}`,
      `  node: ${process.version}`,
      `  health: ${url}/health`,
      `  docs: ${url}/docs  (OpenAPI 3.1: ${url}/openapi.json)`,
      `  token: POST ${url}/oauth2/token  client demo-reseller / demo-reseller-secret (scopes reseller customer)`,
      `         second client demo-other / demo-other-secret (scope reseller)`,
      `  Requestor header for WEB_SE: ${Buffer.from(JSON.stringify({ salesApplication: 'WEB_SE', salesUnitCode: 'WEB' })).toString('base64')}`,
      '',
    ].join('\n'),
  );
  return 0;
}
