import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { mainProfiles } from './profile.ts';

/**
 * A flame graph (SVG, no dependency, offline) of a V8 CPU profile (`node --cpu-prof`): each box a function in the
 * stack, as wide as the time spent in it and below it, callers under callees; idle time left out. Stacks are
 * merged by function, not by call site, as flame graphs usually are. Hover a box for its name and share.
 *
 *   npx tsx bench/flamegraph.ts FILE.cpuprofile|DIR OUT.svg [--title TEXT] [--min 0.002]
 */
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Frame {
  name: string;
  /** The box's colour: the project's engine, its adapters, npm packages, Node, or the garbage collector. */
  hue: number;
  us: number;
  children: Map<string, Frame>;
}

const hueOf = (n: Node) => {
  const { functionName, url } = n.callFrame;
  if (functionName === '(garbage collector)') return 0;
  if (url.includes('/node_modules/')) return 280;
  if (/\/(engine)\//.test(url)) return 30;
  if (/\/(adapters|bench)\//.test(url)) return 200;
  return 100;
};

const label = (n: Node) => {
  const { functionName, url } = n.callFrame;
  const file = url
    .replace(/^file:\/\//, '')
    .replace(/.*\/node_modules\//, '')
    .replace(/.*\/(adapters|engine|bench)\//, '$1/');
  return `${functionName || '(anonymous)'}${file ? ` ${file.split('/').slice(-2).join('/')}` : ''}`;
};

export function flameGraph(file: string, title: string, minShare = 0.002): string {
  const p = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + Math.max(0, p.timeDeltas[i] ?? 0)));
  const root: Frame = { name: 'all', hue: 100, us: 0, children: new Map() };
  for (const [id, us] of self) {
    const n = byId.get(id)!;
    if (n.callFrame.functionName === '(idle)' || n.callFrame.functionName === '(program)') continue;
    const stack: Node[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at)!;
      if (node.callFrame.functionName !== '(root)') stack.push(node);
    }
    root.us += us;
    let frame = root;
    for (const node of stack.reverse()) {
      const name = label(node);
      let next = frame.children.get(name);
      if (!next) frame.children.set(name, (next = { name, hue: hueOf(node), us: 0, children: new Map() }));
      next.us += us;
      frame = next;
    }
  }
  const width = 1200;
  const row = 16;
  const boxes: string[] = [];
  let depthMax = 0;
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const draw = (frame: Frame, x: number, depth: number) => {
    const w = (frame.us / root.us) * width;
    if (frame.us / root.us < minShare) return;
    depthMax = Math.max(depthMax, depth);
    const share = `${((frame.us / root.us) * 100).toFixed(1)}%`;
    const text = w > 40 ? `<text x="${(x + 3).toFixed(1)}" y="${0}" dy="12">${escape(frame.name.slice(0, Math.floor(w / 7)))}</text>` : '';
    boxes.push(
      `<g data-depth="${depth}"><title>${escape(frame.name)} — ${share}</title><rect x="${x.toFixed(1)}" y="0" width="${Math.max(0.5, w - 0.5).toFixed(1)}" height="${row - 1}" fill="hsl(${frame.hue},70%,${70 - (depth % 4) * 4}%)"/>${text}</g>`,
    );
    let at = x;
    for (const child of [...frame.children.values()].sort((a, b) => b.us - a.us)) {
      draw(child, at, depth + 1);
      at += (child.us / root.us) * width;
    }
  };
  draw(root, 0, 0);
  const height = (depthMax + 1) * row + 40;
  // Callers at the bottom: depth 0 is the last row.
  const placed = boxes.map((b) => {
    const depth = Number(/data-depth="(\d+)"/.exec(b)![1]);
    return b.replace('<g data-depth', `<g transform="translate(0,${height - 10 - (depth + 1) * row})" data-depth`);
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="monospace" font-size="11">
<rect width="100%" height="100%" fill="#fff"/>
<text x="4" y="16" font-size="13">${escape(title)} (${(root.us / 1000).toFixed(0)} ms busy; engine orange, adapters blue, packages purple, node green, GC red)</text>
${placed.join('\n')}
</svg>
`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args.splice(i, 2)[1] : undefined;
  };
  const title = option('--title');
  const min = Number(option('--min') ?? 0.002);
  const [input, out] = args;
  if (!input || !out) {
    process.stderr.write('usage: tsx bench/flamegraph.ts FILE.cpuprofile|DIR OUT.svg [--title TEXT] [--min 0.002]\n');
    process.exit(2);
  }
  const file = mainProfiles(input)[0];
  if (!file) throw new Error(`no profile in ${input}`);
  writeFileSync(out, flameGraph(file, title ?? file, min));
  process.stdout.write(`${out}\n`);
}
