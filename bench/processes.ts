import { fork, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { root } from './fixtures.ts';
import { throughTsx } from './launcher.ts';

/** A server's CPU time so far, in ms (ServerProcess.cpuSplitMs). */
export interface CpuSplit {
  user: number;
  system: number;
  mainThread: number;
}

/**
 * The CPU a server spent between two readings, in ms: all of it, the kernel's part, and the part off its main thread.
 * The last mixes /proc/<pid>/stat's clock ticks with schedstat's nanoseconds, so over a short span it can dip below 0.
 */
export function cpuSpent(before: CpuSplit, after: CpuSplit): { total: number; system: number; otherThreads: number } {
  const total = after.user + after.system - before.user - before.system;
  return { total, system: after.system - before.system, otherThreads: total - (after.mainThread - before.mainThread) };
}

/**
 * Starts bench/server.ts in its own process. With BENCH_CPU_PROF=DIR set, the server runs under
 * `node --cpu-prof` and writes its profile into DIR when it stops (summarise it with bench/profile.ts).
 */
export interface ServerProcess {
  readonly pid: number;
  readonly base: string;
  memory(): Promise<{ rss: number; heapUsed: number; hwm: number; young: number }>;
  /** CPU time the server process has used so far (user + system, all threads), in ms; from /proc, so Linux only. */
  cpuMs(): number;
  /**
   * The same, split: user time (our code, V8, Node) and system time (the kernel: sockets, fsync, wake-ups); and
   * `mainThread`, the part of user + system spent on the thread that serves (the rest went to V8's compiler and
   * collector helpers, libuv's pool and, on SQLite, the store's writer thread).
   */
  cpuSplitMs(): CpuSplit;
  stop(): Promise<void>;
}

/**
 * `store`: the signalbox server's store, or the replay server's file of recorded answers.
 * `tree`: the folder of the sources to run, this clone by default (bench/baseline.ts extracts other commits).
 */
export async function startServer(
  kind: 'bare' | 'signalbox' | 'replay' | 'replay-fastify' | 'floor',
  store = 'memory',
  label: string = kind,
  tree = root,
  options: string[] = [],
): Promise<ServerProcess> {
  const profDir = process.env['BENCH_CPU_PROF'];
  const execArgv = [...(throughTsx(tree) ? ['--import', 'tsx'] : []), ...(process.env['BENCH_SERVER_FLAGS'] ?? '').split(' ').filter(Boolean)];
  if (profDir) {
    // One folder per server: every thread writes its own profile (tsx's loader, for a commit run through it, runs
    // in a worker thread); the main thread's, the one that serves, is the biggest.
    const dir = join(profDir, `${label.replace(/[^\w.-]/g, '_')}-${Date.now()}`);
    mkdirSync(dir, { recursive: true });
    execArgv.push('--cpu-prof', '--cpu-prof-dir', dir);
  }
  // stdout to /dev/null: a server that logs (`logged`) writes its lines there, as cheaply as anywhere.
  const child: ChildProcess = fork(join(tree, 'bench/server.ts'), [kind, store, ...options], {
    cwd: tree,
    execArgv,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label} server did not start within 60 s`)), 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${label} server exited with ${code} before listening`));
    });
    child.on('message', function first(m: { port?: number; error?: string }) {
      if (m.error) {
        clearTimeout(timer);
        reject(new Error(`${label} server failed: ${m.error}`));
      }
      if (m.port) {
        clearTimeout(timer);
        child.off('message', first);
        resolve(m.port);
      }
    });
  });
  child.removeAllListeners('exit');
  pin(child.pid!, SERVER_CPU);
  return {
    pid: child.pid!,
    cpuMs: () => cpuMsOf(child.pid!),
    cpuSplitMs: () => cpuSplitMsOf(child.pid!),
    base: `http://127.0.0.1:${port}`,
    memory: () =>
      new Promise((resolve) => {
        child.on('message', function got(m: { rss?: number; heapUsed?: number; hwm?: number; young?: number }) {
          if (m.rss === undefined) return;
          child.off('message', got);
          resolve({ rss: m.rss, heapUsed: m.heapUsed ?? 0, hwm: m.hwm ?? 0, young: m.young ?? 0 });
        });
        child.send('memory');
      }),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.send('stop');
      }),
  };
}

let ticksPerSecond: number | undefined;

/**
 * BENCH_PIN (on by default on a machine with two or more cores, `BENCH_PIN=0` to turn off): the servers run on the
 * last core and the bench's own process, the load generator, on the first, as the simulators were compared; so
 * the server and its client never take turns on one core. Every thread of the process is moved (`taskset -a`);
 * threads started later inherit it.
 */
const PIN = process.env['BENCH_PIN'] !== '0' && cpus().length >= 2;
const SERVER_CPU = cpus().length - 1;
export const CLIENT_CPU = 0;

/** `cpus`: one core, or a list as taskset takes it (`0-1`). */
export function pin(pid: number, cpus: number | string): void {
  if (!PIN) return;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(cpus), String(pid)], { stdio: 'ignore' });
  } catch {
    /* no taskset: unpinned, as before */
  }
}

/** How the bench's processes are placed, for the report's header. */
export const placement = () => (PIN ? `servers on core ${SERVER_CPU}, load generator on core ${CLIENT_CPU} (taskset; BENCH_PIN=0 to turn off)` : 'unpinned');

/**
 * utime + stime of a process from /proc/<pid>/stat (fields 14 and 15, in clock ticks). CPU time used per
 * request or lifecycle is what the server costs, whatever else shares the machine: a steadier figure than
 * throughput on a busy 2-core machine.
 */
function cpuMsOf(pid: number): number {
  const { user, system } = cpuSplitMsOf(pid);
  return user + system;
}

function cpuSplitMsOf(pid: number): CpuSplit {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    user: (Number(fields[11]) * 1000) / ticksPerSecond,
    system: (Number(fields[12]) * 1000) / ticksPerSecond,
    mainThread: mainThreadMsOf(pid),
  };
}

/**
 * The main thread's time on a CPU, from /proc/<pid>/task/<pid>/schedstat (its first field, in ns): exact, where
 * /proc/<pid>/stat counts in clock ticks. NaN where the kernel keeps no schedstat, so no split is printed as one.
 */
function mainThreadMsOf(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}
