import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { createEngine, defaultRulesDir, loadRules, RuleFileError } from '../../engine/index.ts';
import { buildServer } from '../http/server.ts';
import { readableLog } from '../http/readable-log.ts';
import { openStore } from '../store/open.ts';
import { studioExtension } from '../studio/routes.ts';
import { DEMO_SECRETS } from '../harness/demo-secrets.ts';
import { watchRules } from './watch.ts';
import { primaryLogger, runPrimary } from './cluster.ts';
import { trainLocksOfPrimary } from './cluster-locks.ts';
import { shutDownOnSignals, type WorkerMessage } from './shutdown.ts';
import { workerCount } from './workers.ts';

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
      workers: { type: 'string' },
    },
  });
  const workers = workerCount(values.workers, values.store, values.sandbox, availableParallelism());
  if (typeof workers === 'string') {
    process.stderr.write(`signalbox serve: ${workers}\n`);
    return 2;
  }
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
  // A terminal gets one line per request; anything else (a pipe, a collector) JSON lines.
  const logger = values.quiet
    ? (false as const)
    : {
        level: process.env['LOG_LEVEL'] ?? 'info',
        ...(process.stdout.isTTY && process.env['LOG_FORMAT'] !== 'json' ? { stream: readableLog(process.stdout) } : {}),
      };
  const banner = (url: string, storeKind: string) =>
    [
      `signalbox listening on ${url}${values.sandbox ? ' (sandbox)' : ''}${values.watch ? ' (reloading rules on change)' : ''}`,
      `  studio: ${url}/studio  (rules ${values.sandbox || values.edit ? 'editable by an analyst token: client demo-analyst / demo-analyst-secret' : 'read-only; --edit lets an analyst save'})`,
      `  store: ${storeKind}`,
      `  workers: ${workers}`,
      `  node: ${process.version}`,
      `  health: ${url}/health`,
      `  docs: ${url}/docs  (OpenAPI 3.1: ${url}/openapi.json)`,
      `  token: POST ${url}/oauth2/token  client demo-reseller / demo-reseller-secret (scopes reseller customer)`,
      `         second client demo-other / demo-other-secret (scope reseller)`,
      `  Requestor header for WEB_SE: ${Buffer.from(JSON.stringify({ salesApplication: 'WEB_SE', salesUnitCode: 'WEB' })).toString('base64')}`,
      '',
    ].join('\n');
  if (workers > 1 && cluster.isPrimary) {
    // Opened once here, before any worker: a store that cannot open is reported once, and its tables exist before
    // the workers race to create them.
    const probe = await openStore(values.store);
    const kind = probe.kind;
    await probe.close();
    return runPrimary({ workers, log: primaryLogger(logger), banner: (url) => banner(url, kind) });
  }
  const opened = await openStore(values.store, { shared: cluster.isWorker });
  // Workers on one SQLite file take their train locks from the primary; PostgreSQL has locks of its own.
  const store = cluster.isWorker && !opened.lockTrains ? { ...opened, lockTrains: trainLocksOfPrimary() } : opened;
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
    logger,
  });
  // Workers reload a rule edit saved through the studio from its file, as --watch does: the worker that saved it
  // cannot tell the others.
  if (values.watch || (cluster.isWorker && values.edit)) {
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
  shutDownOnSignals(app);
  if (cluster.isWorker) process.send!({ kind: 'listening', url } satisfies WorkerMessage);
  else process.stdout.write(banner(url, store.kind));
  return 0;
}
