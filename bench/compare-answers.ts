/**
 * Are the answers unchanged? Runs the whole scenario corpus in-process on the working tree and on a base revision,
 * and compares every request's HTTP status, content type, Location, response body bytes and rule traces.
 * Exit 0: identical; exit 1: the differences are printed (the first few in full); exit 2: usage or setup failure.
 *
 *   npm run compare-answers -- 0f3563f
 *
 * The base is checked out into a temporary `git worktree` with this tree's node_modules linked in, then removed.
 * Both runs use this tree's scenario files, so they send the same requests.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RecordedAnswer, RecordedCorpus } from './record-answers.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const recorder = join(here, 'record-answers.ts');
const tsx = join(root, 'node_modules', '.bin', 'tsx');

function recordIn(tree: string, out: string): RecordedCorpus {
  execFileSync(tsx, [recorder, tree, join(root, 'scenarios'), out], { cwd: tree, stdio: ['ignore', 'inherit', 'inherit'] });
  return JSON.parse(readFileSync(out, 'utf8')) as RecordedCorpus;
}

/** Every difference, as one line each: `file #n METHOD path: field differs`. */
function differences(base: RecordedCorpus, work: RecordedCorpus): Array<{ where: string; field: string; base: unknown; work: unknown }> {
  const found: Array<{ where: string; field: string; base: unknown; work: unknown }> = [];
  for (const file of new Set([...Object.keys(base), ...Object.keys(work)])) {
    const a = base[file] ?? [];
    const b = work[file] ?? [];
    if (a.length !== b.length) found.push({ where: file, field: 'number of requests', base: a.length, work: b.length });
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      for (const field of ['request', 'status', 'contentType', 'location', 'body', 'traces'] as Array<keyof RecordedAnswer>) {
        if (a[i]![field] !== b[i]![field]) found.push({ where: `${file} #${i + 1} ${b[i]!.request}`, field, base: a[i]![field], work: b[i]![field] });
      }
    }
  }
  return found;
}

/** Where two texts first part, with a little context either side. */
const around = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 60);
  return { base: a.slice(from, i + 100), work: b.slice(from, i + 100) };
};

function main(): number {
  const rev = process.argv[2];
  if (!rev) {
    console.error('usage: npm run compare-answers -- BASE-REVISION');
    return 2;
  }
  const tmp = mkdtempSync(join(tmpdir(), 'compare-answers-'));
  const baseTree = join(tmp, 'base');
  try {
    execFileSync('git', ['worktree', 'add', '--detach', baseTree, rev], { cwd: root, stdio: 'ignore' });
    symlinkSync(join(root, 'node_modules'), join(baseTree, 'node_modules'));
    const t0 = performance.now();
    const base = recordIn(baseTree, join(tmp, 'base.json'));
    const work = recordIn(root, join(tmp, 'work.json'));
    const files = Object.keys(work).length;
    const requests = Object.values(work).reduce((n, answers) => n + answers.length, 0);
    const found = differences(base, work);
    const seconds = ((performance.now() - t0) / 1000).toFixed(1);
    if (found.length === 0) {
      console.log(`answers unchanged against ${rev}: ${files} scenario files, ${requests} requests (status, body bytes, traces) identical (${seconds} s)`);
      return 0;
    }
    console.log(`${found.length} differences against ${rev} in ${files} scenario files, ${requests} requests:`);
    for (const d of found.slice(0, 20)) {
      const shown = typeof d.base === 'string' && typeof d.work === 'string' ? around(d.base, d.work) : d;
      console.log(`- ${d.where}: ${d.field} differs\n    base: ${JSON.stringify(shown.base)}\n    work: ${JSON.stringify(shown.work)}`);
    }
    if (found.length > 20) console.log(`… and ${found.length - 20} more`);
    return 1;
  } catch (e) {
    console.error(`compare-answers could not record both trees: ${(e as Error).message}`);
    return 2;
  } finally {
    try {
      execFileSync('git', ['worktree', 'remove', '--force', baseTree], { cwd: root, stdio: 'ignore' });
    } catch {
      /* never added */
    }
    rmSync(tmp, { recursive: true, force: true });
  }
}

process.exitCode = main();
