import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { missingOracle } from './oracle.ts';

/**
 * A throwaway PostgreSQL server for one test file: its own data directory, listening only on 127.0.0.1
 * on a free port, its unix socket inside the data directory's parent, deleted afterwards.
 *
 * Real durability semantics: fsync and synchronous_commit stay on (no `-F`, no `--no-sync`), so a test
 * that sees a write acknowledged sees what production would. Starting costs about a second.
 *
 * PostgreSQL refuses to run as root, so as root every command runs as the `postgres` user.
 * When that is impossible, `postgresUnavailable()` says why, and the tests skip instead of failing.
 */

const run = promisify(execFile);
const USER = 'postgres';
const isRoot = process.getuid?.() === 0;

interface Binaries {
  initdb: string;
  pgCtl: string;
}

/** initdb and pg_ctl: from PATH, else the newest /usr/lib/postgresql/<major>/bin (Debian layout). */
function findBinaries(): Binaries | undefined {
  const dirs = (process.env['PATH'] ?? '').split(delimiter).filter(Boolean);
  try {
    const majors = readdirSync('/usr/lib/postgresql')
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    dirs.push(...majors.map((v) => `/usr/lib/postgresql/${v}/bin`));
  } catch {
    /* not Debian, or no PostgreSQL */
  }
  for (const dir of dirs) {
    const initdb = join(dir, 'initdb');
    if (!existsSync(initdb)) continue;
    // Resolve symlinks (/usr/local/bin/initdb → /usr/lib/postgresql/15/bin/initdb): pg_ctl and postgres
    // live beside the real file.
    const real = realpathSync(initdb);
    const pgCtl = join(real, '..', 'pg_ctl');
    if (existsSync(pgCtl)) return { initdb: real, pgCtl };
  }
  return undefined;
}

/** The command line that runs `cmd args` as the user owning the cluster (ourselves unless we are root). */
function asOwner(cmd: string, args: string[]): [string, string[]] {
  if (!isRoot) return [cmd, args];
  if (existsSync('/usr/sbin/runuser') || existsSync('/sbin/runuser')) return ['runuser', ['-u', USER, '--', cmd, ...args]];
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  return ['su', [USER, '-s', '/bin/sh', '-c', [cmd, ...args].map(quote).join(' ')]];
}

let probed: { binaries?: Binaries; reason?: string } | undefined;

/** Why PostgreSQL tests cannot run here, or undefined when they can. Synchronous, for `describe.skipIf`. */
function postgresUnavailable(): string | undefined {
  probed ??= (() => {
    // A way to leave PostgreSQL out on purpose (a laptop without it installed skips by itself).
    if (process.env['SIGNALBOX_TEST_POSTGRES'] === 'off') return { reason: 'SIGNALBOX_TEST_POSTGRES=off' };
    const binaries = findBinaries();
    if (!binaries) return { reason: 'initdb not found on PATH nor in /usr/lib/postgresql/*/bin' };
    if (isRoot && spawnSync('id', ['-u', USER]).status !== 0) return { reason: `running as root and there is no "${USER}" user to run PostgreSQL as` };
    const [cmd, args] = asOwner(binaries.initdb, ['--version']);
    const probe = spawnSync(cmd, args, { encoding: 'utf8' });
    if (probe.status !== 0) {
      const why = (probe.stderr || probe.error?.message || '').trim() || `exit status ${probe.status}`;
      return { reason: `cannot run ${[cmd, ...args].join(' ')}: ${why}` };
    }
    return { binaries };
  })();
  return probed.reason;
}

/** Prints why the PostgreSQL cases are skipped (vitest only shows "skipped"); returns the reason. */
export function reportSkip(what: string): string | undefined {
  return missingOracle(`[postgres] ${what}`, postgresUnavailable());
}

export interface PostgresServer {
  /** A connection URL for `database` (default `postgres`), with the superuser's password. */
  url(database?: string): string;
  /** `pg_ctl stop -m immediate`: the server dies as in a crash, with no shutdown checkpoint. */
  crash(): Promise<void>;
  /** Starts the server again on the same data directory and port (crash recovery replays the WAL). */
  restart(): Promise<void>;
  /** Stops the server and deletes its directory. */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startPostgres(): Promise<PostgresServer> {
  const reason = postgresUnavailable();
  if (reason) throw new Error(`PostgreSQL is not available: ${reason}`);
  const { initdb, pgCtl } = probed!.binaries!;
  const owner = async (cmd: string, args: string[]) => {
    const [c, a] = asOwner(cmd, args);
    return run(c, a, { encoding: 'utf8' });
  };

  // As root, under /tmp rather than $TMPDIR: the postgres user must be able to reach the directory.
  const dir = mkdtempSync(join(isRoot ? '/tmp' : tmpdir(), 'signalbox-pg-'));
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const password = randomBytes(18).toString('hex');
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (isRoot) {
    const uid = Number(spawnSync('id', ['-u', USER], { encoding: 'utf8' }).stdout.trim());
    const gid = Number(spawnSync('id', ['-g', USER], { encoding: 'utf8' }).stdout.trim());
    chownSync(dir, uid, gid);
    chownSync(pwfile, uid, gid);
  }

  // Kill a server we leave behind if the test process dies before `stop()` (a crashed worker, Ctrl-C).
  let running = false;
  const emergency = () => {
    if (running) {
      const [c, a] = asOwner(pgCtl, ['-D', data, '-m', 'immediate', 'stop']);
      spawnSync(c, a);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', emergency);

  const conf = (lines: string[]) => appendFileSync(join(data, 'postgresql.conf'), ['', ...lines, ''].join('\n'));
  let port = 0;
  const start = async (first: boolean) => {
    // The port was free a moment ago; should another process take it meanwhile, take a new one (only at
    // the first start: after a crash, clients hold the URL, so the port must stay).
    for (let attempt = 1; ; attempt++) {
      try {
        await owner(pgCtl, ['-D', data, '-l', log, '-w', '-t', '30', 'start']);
        running = true;
        return;
      } catch (e) {
        const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-15).join('\n') : '';
        if (first && attempt < 3 && tail.includes('Address already in use')) {
          conf([`port = ${(port = await freePort())}`]); // a later line wins
          continue;
        }
        throw new Error(`pg_ctl start failed: ${(e as Error).message}\n${tail}`, { cause: e });
      }
    }
  };

  try {
    // Password authentication over TCP even for a throwaway: nothing else on the machine may walk in.
    await owner(initdb, ['-D', data, '-U', 'signalbox', `--pwfile=${pwfile}`, '--auth-local=peer', '--auth-host=scram-sha-256', '-E', 'UTF8', '--no-locale']);
    rmSync(pwfile);
    conf([
      '# signalbox test server: loopback only, socket beside the data directory, real durability.',
      "listen_addresses = '127.0.0.1'",
      `port = ${(port = await freePort())}`,
      `unix_socket_directories = '${dir}'`,
      'fsync = on',
      'synchronous_commit = on',
      'max_connections = 60',
    ]);
    await start(true);
    return {
      url: (database = 'postgres') => `postgres://signalbox:${password}@127.0.0.1:${port}/${database}`,
      async crash() {
        await owner(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
        running = false;
      },
      restart: () => start(false),
      async stop() {
        try {
          if (running) await owner(pgCtl, ['-D', data, '-m', 'fast', '-w', 'stop']);
          running = false;
        } finally {
          emergency(); // deletes the directory (and kills the server, should the fast stop have failed)
          process.removeListener('exit', emergency);
        }
      },
    };
  } catch (e) {
    emergency();
    process.removeListener('exit', emergency);
    throw e;
  }
}
