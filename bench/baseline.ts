import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { createEngine } from '../engine/index.ts';
import { root } from './fixtures.ts';
import { importFrom } from './launcher.ts';
import { startServer, type ServerProcess } from './processes.ts';

/**
 * Another commit (`BENCH_AGAINST=REF`, e.g. the commit before a change), measured beside the working tree in the same run:
 * on a shared machine whose speed moves from one minute to the next, and more from one day to the next
 * (docs/performance.md, "The machine"), a small change shows only when both sides are measured in the same moments. The commit is
 * extracted with `git archive` into a temp folder that borrows this clone's node_modules, once per process, and
 * removed when the process exits.
 */
let extracted: { commit: string; dir: string } | undefined;
export function treeAt(ref: string): { commit: string; dir: string } {
  let commit: string;
  try {
    commit = execFileSync('git', ['rev-parse', '--short', `${ref}^{commit}`], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    throw new Error(`BENCH_AGAINST=${ref}: no such commit in this clone`);
  }
  if (extracted?.commit === commit) return extracted;
  const dir = mkdtempSync(join(tmpdir(), `signalbox-${commit}-`));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  execFileSync('tar', ['-x', '-C', dir], { input: execFileSync('git', ['archive', '--format=tar', commit], { cwd: root, maxBuffer: 1 << 28 }) });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return (extracted = { commit, dir });
}

/**
 * The commit the bench compares with: BENCH_AGAINST, or DEFAULT_AGAINST when it is not set; `BENCH_AGAINST=none`
 * measures this tree alone.
 */
export const DEFAULT_AGAINST = '0f3563f';
export const against = (): string | undefined => {
  const given = process.env['BENCH_AGAINST'] ?? DEFAULT_AGAINST;
  return given === '' || given === 'none' ? undefined : given;
};

/** The engine of another commit, loaded into this process beside the working tree's (timed in turns by `interleaved`). */
export async function engineAt(ref: string): Promise<{ commit: string; createEngine: typeof createEngine }> {
  const { commit, dir } = treeAt(ref);
  const mod = await importFrom<{ createEngine: typeof createEngine }>(dir, 'engine/index.ts');
  return { commit, createEngine: mod.createEngine };
}

/**
 * BENCH_AGAINST's commit as a signalbox server of its own on a SQLite file in `dir`, for the HTTP cases to load in the
 * same rounds as this tree's; undefined when BENCH_AGAINST is not set.
 */
export async function sqliteServerBefore(dir: string, label: string): Promise<{ commit: string; server: ServerProcess } | undefined> {
  const ref = against();
  if (!ref) return undefined;
  const { commit, dir: tree } = treeAt(ref);
  return { commit, server: await startServer('signalbox', `sqlite:${join(dir, `${commit}.db`)}`, `${label}-${commit}`, tree) };
}

/** The same on the memory store. */
export async function memoryServerBefore(label: string): Promise<{ commit: string; server: ServerProcess } | undefined> {
  const ref = against();
  if (!ref) return undefined;
  const { commit, dir: tree } = treeAt(ref);
  return { commit, server: await startServer('signalbox', 'memory', `${label}-${commit}`, tree) };
}

/**
 * Times `now` and `before` in alternation (awaiting what they return), `rounds` turns of `calls` calls each, and
 * returns the µs per call of each side and the ratio now / before of each turn (whose median is the figure to read).
 */
export async function interleaved(
  now: () => unknown,
  before: () => unknown,
  rounds = 200,
  calls = 50,
  warmUp = 20,
): Promise<{ now: number[]; before: number[]; ratio: number[] }> {
  const time = async (fn: () => unknown) => {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) {
      const result = fn();
      if (result instanceof Promise) await result; // a synchronous call is timed without a microtask turn
    }
    return Number(process.hrtime.bigint() - t0) / 1000 / calls;
  };
  for (let i = 0; i < warmUp; i++) {
    await time(before);
    await time(now);
  }
  const out = { now: [] as number[], before: [] as number[], ratio: [] as number[] };
  for (let i = 0; i < rounds; i++) {
    // Which side goes first alternates too, so neither always runs on the other's garbage.
    let b: number, n: number;
    if (i % 2 === 0) {
      b = await time(before);
      n = await time(now);
    } else {
      n = await time(now);
      b = await time(before);
    }
    out.before.push(b);
    out.now.push(n);
    out.ratio.push(n / b);
  }
  return out;
}
