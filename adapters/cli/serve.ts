import { parseArgs } from 'node:util';
import { createEngine, defaultRulesDir, loadRules, RuleFileError } from '../../engine/index.ts';
import { buildServer } from '../http/server.ts';
import { openStore } from '../store/open.ts';
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
    ...(process.env['SIGNALBOX_JWT_SECRET'] ? { jwtSecret: process.env['SIGNALBOX_JWT_SECRET'] } : {}),
    logger: values.quiet ? false : { level: process.env['LOG_LEVEL'] ?? 'info' },
  });
  const url = await app.listen({ port: Number(values.port), host: values.host });
  if (values.watch) {
    const dir = values.rules ?? defaultRulesDir();
    const stop = watchRules(dir, engineOptions, (engine) => app.service.setEngine(engine), (line) => process.stdout.write(`${line}\n`));
    app.addHook('onClose', async () => stop());
  }
  const shutdown = async (signal: string) => {
    app.log.info(`${signal}: finishing in-flight requests`);
    await app.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.stdout.write(
    [
      `signalbox listening on ${url}${values.sandbox ? ' (sandbox)' : ''}${values.watch ? ' (reloading rules on change)' : ''}`,
      `  store: ${store.kind}`,
      `  health: ${url}/health`,
      `  token: POST ${url}/oauth2/token  client demo-reseller / demo-reseller-secret (scopes reseller customer)`,
      `         second client demo-other / demo-other-secret (scope reseller)`,
      `  Requestor header for WEB_SE: ${Buffer.from(JSON.stringify({ salesApplication: 'WEB_SE', salesUnitCode: 'WEB' })).toString('base64')}`,
      '',
    ].join('\n'),
  );
  return 0;
}
