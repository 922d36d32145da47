import type { DecisionGraph } from '../../http/openapi/studio-graph-schemas.ts';
import { api } from './api.ts';
import { h, setView } from './dom.ts';
import { problemBox } from './problems.ts';

/**
 * The decision graph (GET /studio/api/graph): which decision's outcome becomes another's fact, and what each finally
 * decides, drawn left to right as SVG. Every decision is a link to its table; the sinks link to where they show.
 */

type GraphNode = DecisionGraph['nodes'][number];

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 170;
const HEIGHT = 30;
const COLUMN_GAP = 90;
const ROW_GAP = 12;

/** An SVG element with its attributes and children; texts go in as text nodes, never as markup. */
function s(tag: string, attrs: Record<string, string | number>, ...children: Array<Element | string>): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

/** Where a sink's effect is seen in the studio; undefined for one without a view of its own. */
function sinkHref(id: string): string | undefined {
  if (id === 'sink:error') return '#/errors';
  if (['sink:offeredProducts', 'sink:admissionPrice', 'sink:reservationPrice', 'sink:ancillaryPrice'].includes(id)) return '#/offers';
  return undefined;
}
const hrefOf = (n: GraphNode) => (n.kind === 'decision' ? `#/tables/${encodeURIComponent(n.id)}` : sinkHref(n.id));

/**
 * Columns by the longest path into each node (decisions before every sink), each column ordered by where its
 * neighbours stand, so the edges cross as little as a simple layering allows.
 */
function layout(graph: DecisionGraph): Map<string, { x: number; y: number }> {
  const rank = new Map<string, number>(graph.nodes.map((n) => [n.id, 0]));
  const kind = new Map(graph.nodes.map((n) => [n.id, n.kind]));
  for (let pass = 0; pass < graph.nodes.length; pass++)
    for (const e of graph.edges) if (kind.get(e.from) === kind.get(e.to)) rank.set(e.to, Math.max(rank.get(e.to)!, rank.get(e.from)! + 1));
  const sinksFrom = Math.max(...graph.nodes.filter((n) => n.kind === 'decision').map((n) => rank.get(n.id)!)) + 1;
  for (const n of graph.nodes) if (n.kind === 'sink') rank.set(n.id, rank.get(n.id)! + sinksFrom);
  const columns: string[][] = [];
  for (const n of graph.nodes) (columns[rank.get(n.id)!] ??= []).push(n.id);
  const index = () => new Map(columns.flatMap((c) => c.map((id, i) => [id, i] as const)));
  const centre = (ids: string[], at: Map<string, number>) => (ids.length ? ids.reduce((t, id) => t + at.get(id)!, 0) / ids.length : Infinity);
  for (let sweep = 0; sweep < 2; sweep++) {
    for (const column of columns.slice(1)) {
      const at = index();
      const before = new Map(
        column.map((id) => [
          id,
          centre(
            graph.edges.filter((e) => e.to === id).map((e) => e.from),
            at,
          ),
        ]),
      );
      column.sort((a, b) => before.get(a)! - before.get(b)!);
    }
    const at = index();
    const after = new Map(
      columns[0]!.map((id) => [
        id,
        centre(
          graph.edges.filter((e) => e.from === id).map((e) => e.to),
          at,
        ),
      ]),
    );
    columns[0]!.sort((a, b) => after.get(a)! - after.get(b)!);
  }
  const tallest = Math.max(...columns.map((c) => c.length));
  const place = new Map<string, { x: number; y: number }>();
  columns.forEach((column, c) => {
    const top = ((tallest - column.length) * (HEIGHT + ROW_GAP)) / 2;
    column.forEach((id, i) => place.set(id, { x: 10 + c * (WIDTH + COLUMN_GAP), y: 10 + top + i * (HEIGHT + ROW_GAP) }));
  });
  return place;
}

function picture(graph: DecisionGraph): SVGElement {
  const place = layout(graph);
  const xs = [...place.values()];
  const width = Math.max(...xs.map((p) => p.x)) + WIDTH + 10;
  const height = Math.max(...xs.map((p) => p.y)) + HEIGHT + 10;
  const arrow = s(
    'defs',
    {},
    s(
      'marker',
      { id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
      s('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: '#555' }),
    ),
  );
  // A fact's name is written just before the box it feeds, one line per edge into the same box, so none overlap.
  const labelled = new Map<string, number>();
  const edges = graph.edges.map((e) => {
    const a = place.get(e.from)!;
    const b = place.get(e.to)!;
    const [x1, y1, x2, y2] = [a.x + WIDTH, a.y + HEIGHT / 2, b.x, b.y + HEIGHT / 2];
    const bend = (x2 - x1) / 2;
    const line = labelled.get(e.to) ?? 0;
    if (e.facts.length) labelled.set(e.to, line + 1);
    return s(
      'g',
      { class: 'edge', 'data-from': e.from, 'data-to': e.to },
      s('path', {
        d: `M ${x1} ${y1} C ${x1 + bend} ${y1}, ${x2 - bend} ${y2}, ${x2} ${y2}`,
        fill: 'none',
        stroke: '#555',
        'stroke-width': 1.3,
        'marker-end': 'url(#arrow)',
      }),
      e.facts.length ? s('text', { x: x2 - 12, y: b.y - 4 - line * 12, 'text-anchor': 'end', 'font-size': 11, fill: '#333' }, e.facts.join(', ')) : '',
    );
  });
  const nodes = graph.nodes.map((n) => {
    const p = place.get(n.id)!;
    const decision = n.kind === 'decision';
    const box = s(
      'g',
      { class: `node ${n.kind}`, 'data-node': n.id },
      s('title', {}, decision ? `${n.title ?? n.label} (${n.file ?? ''})` : n.label),
      s('rect', {
        x: p.x,
        y: p.y,
        width: WIDTH,
        height: HEIGHT,
        rx: decision ? 4 : HEIGHT / 2,
        fill: decision ? '#eef4fb' : '#f4f4f4',
        stroke: decision ? '#2b5d8c' : '#888',
        ...(decision ? {} : { 'stroke-dasharray': '4 2' }),
      }),
      s('text', { x: p.x + WIDTH / 2, y: p.y + HEIGHT / 2 + 5, 'text-anchor': 'middle', 'font-size': 13, fill: decision ? '#0b3a66' : '#333' }, n.label),
    );
    const href = hrefOf(n);
    return href ? s('a', { href, 'aria-label': decision ? `${n.label}: open its table` : n.label }, box) : box;
  });
  return s(
    'svg',
    { viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-labelledby': 'graph-caption', class: 'decision-graph' },
    arrow,
    ...edges,
    ...nodes,
  );
}

/** The same edges as a list: for reading without the picture, and for the keyboard. */
function edgeList(graph: DecisionGraph): HTMLElement {
  const label = (id: string) => {
    const n = graph.nodes.find((x) => x.id === id);
    const href = n && hrefOf(n);
    return href ? h('a', { href }, n.label) : (n?.label ?? id);
  };
  return h(
    'table',
    { class: 'grid' },
    h('thead', {}, h('tr', {}, h('th', {}, 'From'), h('th', {}, 'To'), h('th', {}, 'Facts it feeds'))),
    h(
      'tbody',
      {},
      graph.edges.map((e) => h('tr', {}, h('td', {}, label(e.from)), h('td', {}, label(e.to)), h('td', {}, e.facts.join(', ')))),
    ),
  );
}

export async function graphView(): Promise<void> {
  const answer = await api<DecisionGraph>('GET', '/graph');
  if (!answer.ok) return setView('Decision graph', problemBox(answer.data));
  const graph = answer.data;
  setView(
    'Decision graph',
    h(
      'p',
      { id: 'graph-caption' },
      'Which decision\u2019s outcome the engine uses as another decision\u2019s fact (the arrow names the fact), and what each finally decides: prices, refunds, fees, the error answered (rounded boxes). Open a decision to read or change its table; a change reaches everything to its right.',
    ),
    h('div', { class: 'table-wrap' }, picture(graph)),
    h('h3', {}, 'The same, as a list'),
    edgeList(graph),
  );
}
