import type { CoverageMatrix } from './coverage.ts';

/**
 * The coverage matrix in a few terminal lines: per kind, how many were exercised, and the ones none
 * of the selected scenarios did (what to write a scenario for next).
 */
export function coverageSummary(m: CoverageMatrix): string {
  const rows = m.decisions.flatMap((d) => d.rows.map((r) => ({ name: `${d.decision}#${r.row}`, by: r.by })));
  const kinds: Array<[string, Array<{ name: string; by: string[] }>]> = [
    ['decision rows', rows],
    ['error codes', m.errors.map((e) => ({ name: e.code, by: e.by }))],
    ['warnings', m.warnings.map((w) => ({ name: w.code, by: w.by }))],
    ['operations', m.operations.map((o) => ({ name: `${o.method} ${o.path}`, by: o.by }))],
    ['OSDM operations', m.osdmOperations.map((o) => ({ name: o.operationId, by: o.by }))],
    ['booking transitions', m.transitions.map((t) => ({ name: `${t.from} -${t.event}-> ${t.to}`, by: t.by }))],
  ];
  const out = [`coverage of ${m.scenarios} scenario${m.scenarios === 1 ? '' : 's'}:`];
  for (const [kind, items] of kinds) {
    const hit = items.filter((i) => i.by.length > 0).length;
    const pct = items.length === 0 ? 100 : Math.floor((100 * hit) / items.length);
    out.push(`  ${kind.padEnd(20)} ${`${hit}/${items.length}`.padStart(7)}  ${String(pct).padStart(3)}%`);
    const missed = items.filter((i) => i.by.length === 0).map((i) => i.name);
    if (missed.length > 0) out.push(...wrap(`none: ${missed.join(', ')}`, '      '));
  }
  if (m.notObservable.length > 0)
    out.push(...wrap(`booking events that keep the state are not counted (no response shows them): ${m.notObservable.join(', ')}`, '  '));
  const unknown = [...m.unknown.rows, ...m.unknown.codes, ...m.unknown.requests];
  if (unknown.length > 0) out.push(...wrap(`seen, but not in the rule set or the operations: ${unknown.join(', ')}`, '  '));
  return out.join('\n') + '\n';
}

/** Words in lines of at most WIDTH characters, each line indented. */
const WIDTH = 106;
function wrap(text: string, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && indent.length + line.length + word.length + 1 > WIDTH) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines;
}
