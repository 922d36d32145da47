import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { root } from './fixtures.ts';
import { table } from './measure.ts';

/**
 * Summarises V8 CPU profiles (`node --cpu-prof`): the functions with the most self time, and self time by
 * package / project folder.
 *
 *   npx tsx bench/profile.ts FILE.cpuprofile|DIR… [--top 25]     (a folder: its main-thread profiles)
 *
 * Profiles of the servers: `BENCH_CPU_PROF=/tmp/prof npm run bench -- http` (each server process writes
 * one when it stops). Of an in-process case: `node --cpu-prof --cpu-prof-dir=/tmp/prof bench/run.ts engine`.
 */
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

function where(url: string): { area: string; file: string } {
  if (!url) return { area: '(native / V8)', file: '' };
  let path = url;
  if (url.startsWith('file://')) path = fileURLToPath(url);
  if (url.startsWith('node:')) return { area: url.startsWith('node:internal') ? 'node: internals' : url, file: url };
  const nm = path.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = path.slice(nm + 'node_modules/'.length).split('/');
    const pkg = rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
    return { area: `npm ${pkg}`, file: `${pkg}/${rest.slice(rest[0]!.startsWith('@') ? 2 : 1).join('/')}` };
  }
  const rel = path.startsWith(root) ? relative(root, path) : path;
  const parts = rel.split('/');
  return { area: parts.length > 1 ? `${parts.slice(0, parts.length > 2 ? 2 : 1).join('/')}/` : rel, file: rel };
}

export function summarise(file: string, top = 25): string {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fns = new Map<string, { name: string; at: string; area: string; us: number }>();
  const areas = new Map<string, number>();
  let idle = 0;
  for (const [id, us] of self) {
    const n = byId.get(id)!;
    const { functionName, url, lineNumber } = n.callFrame;
    if (functionName === '(idle)') {
      idle += us;
      continue;
    }
    const w = where(url);
    const special = functionName.startsWith('(') ? functionName : '';
    const area = special || w.area;
    areas.set(area, (areas.get(area) ?? 0) + us);
    const key = `${functionName}|${url}|${lineNumber}`;
    const f = fns.get(key) ?? { name: functionName || '(anonymous)', at: w.file ? `${w.file}:${lineNumber + 1}` : '', area, us: 0 };
    f.us += us;
    fns.set(key, f);
  }
  const busy = total - idle;
  const pct = (us: number) => `${((us / busy) * 100).toFixed(1)}%`;
  const ms = (us: number) => (us / 1000).toFixed(0);
  const fnRows = [...fns.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, top)
    .map((f) => [pct(f.us), ms(f.us), f.name, f.at]);
  const areaRows = [...areas.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 15)
    .map(([a, us]) => [pct(us), ms(us), a]);
  return [
    `${relative(process.cwd(), file)}: ${ms(total)} ms sampled, ${ms(idle)} ms idle, ${ms(busy)} ms busy (percentages are of busy time)`,
    '',
    table(['self', 'ms', 'where'], areaRows),
    '',
    table(['self', 'ms', 'function', 'at'], fnRows),
    '',
  ].join('\n');
}

/**
 * A profile file as given, or a folder's main-thread profiles (node names them CPU.<date>.<time>.<pid>.<thread>.<seq>;
 * thread 0 is the main thread, the others are workers such as tsx's module loader), biggest first.
 */
export function mainProfiles(path: string): string[] {
  const walk = (at: string): string[] =>
    statSync(at).isDirectory()
      ? readdirSync(at)
          .sort()
          .flatMap((f) => walk(join(at, f)))
      : at.endsWith('.cpuprofile')
        ? [at]
        : [];
  const found = walk(path);
  const main = statSync(path).isDirectory() ? found.filter((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f)) : found;
  return (main.length > 0 ? main : found).sort((a, b) => statSync(b).size - statSync(a).size);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const topAt = args.indexOf('--top');
  const top = topAt >= 0 ? Number(args[topAt + 1]) : 25;
  const paths = args.filter((a, i) => a !== '--top' && i !== topAt + 1);
  if (paths.length === 0) {
    process.stderr.write('usage: tsx bench/profile.ts FILE.cpuprofile|DIR… [--top N]\n');
    process.exit(2);
  }
  for (const path of paths) for (const f of mainProfiles(path)) process.stdout.write(`${summarise(f, top)}\n`);
}
