import cluster from 'node:cluster';
import type { FastifyInstance } from 'fastify';

/** What a worker of `serve --workers N` and its primary tell each other (adapters/cli/cluster.ts). */
export type WorkerMessage = { kind: 'listening'; url: string } | { kind: 'stopped-listening' };
export type PrimaryMessage = { kind: 'stop'; signal: string };

/**
 * Graceful shutdown: stop listening, let the requests in flight finish (their connections then close), close the
 * store, exit 0. Requests still running after SIGNALBOX_SHUTDOWN_GRACE_MS (default 10 s) lose their connections
 * and the exit status is 1; a second signal exits at once with 1.
 *
 * A worker of a cluster is stopped by its primary (a `stop` message): it stops listening at once and says so, so
 * that the primary can tell when the port takes no more connections; then it finishes as above.
 */
export function shutDownOnSignals(app: FastifyInstance): void {
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
  if (!cluster.isWorker) return;
  process.on('message', (m: PrimaryMessage) => {
    if (m?.kind !== 'stop') return;
    // Fastify closes the server again later, which then answers "not running": harmless.
    app.server.close();
    process.send!({ kind: 'stopped-listening' } satisfies WorkerMessage);
    // A terminal's Ctrl-C reaches every process of the group: the worker may be stopping already.
    if (!stopping) void shutdown(`${m.signal} (from the primary)`);
  });
}
