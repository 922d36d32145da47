/**
 * The few measuring tools every bench case shares: repeat a measurement, summarise the runs (median and
 * spread), compare with a baseline measured in the same run, and print a table. Benchmarks print figures;
 * they never assert (machines are shared and noisy), except that a goal is reported as met or not.
 */

export interface Stats {
  n: number;
  median: number;
  min: number;
  max: number;
  p25: number;
  p75: number;
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

function stats(values: readonly number[]): Stats {
  const s = [...values].sort((a, b) => a - b);
  return { n: s.length, median: quantile(s, 0.5), min: s[0] ?? Number.NaN, max: s[s.length - 1] ?? Number.NaN, p25: quantile(s, 0.25), p75: quantile(s, 0.75) };
}

export const median = (values: readonly number[]) => stats(values).median;

/**
 * Microseconds per call of a synchronous function: the batch size is doubled until one batch takes
 * `minMs`, then that batch is timed. Call it once per run; the first run doubles as the warm-up.
 */
export function microsPerCall(fn: () => unknown, minMs = 250): number {
  let batch = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) fn();
    const ms = performance.now() - t0;
    if (ms >= minMs) return (ms * 1000) / batch;
    batch = ms < 1 ? batch * 10 : Math.ceil(batch * Math.min(10, (minMs * 1.2) / ms));
  }
}

/** The same for an async function, awaited call after call. */
export async function microsPerCallAsync(fn: () => Promise<unknown>, minMs = 250): Promise<number> {
  let batch = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) await fn();
    const ms = performance.now() - t0;
    if (ms >= minMs) return (ms * 1000) / batch;
    batch = ms < 1 ? batch * 10 : Math.ceil(batch * Math.min(10, (minMs * 1.2) / ms));
  }
}

/** Ratios run by run (runs of the two were interleaved), summarised like any other figure. */
export function ratios(a: readonly number[], b: readonly number[]): number[] {
  return a.map((x, i) => x / b[i]!);
}

/** 3 significant digits, thousands grouped: 12,345 · 123 · 12.3 · 1.23 · 0.0123. */
export function fmt(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const abs = Math.abs(x);
  if (abs >= 1000) return Math.round(x).toLocaleString('en-US');
  if (abs >= 100) return x.toFixed(0);
  if (abs >= 10) return x.toFixed(1);
  if (abs >= 1) return x.toFixed(2);
  return x.toPrecision(3);
}

export const fmtBytes = (b: number) =>
  b >= 1 << 30
    ? `${(b / (1 << 30)).toFixed(2)} GiB`
    : b >= 1 << 20
      ? `${(b / (1 << 20)).toFixed(1)} MiB`
      : b >= 1024
        ? `${(b / 1024).toFixed(2)} KiB`
        : `${b} B`;

/** One line of a case's table: the runs of one measurement. */
interface Row {
  name: string;
  unit: string;
  values: number[];
  /** How a ratio row is read: `×` (a multiple) or `%` (a share). */
  ratio?: '×' | '%';
}

interface Goal {
  text: string;
  met: boolean;
  /** The figure the goal was judged on, as printed. */
  actual: string;
}

export interface CaseReport {
  name: string;
  title: string;
  rows: Row[];
  goals: Goal[];
  notes: string[];
}

export function report(
  name: string,
  title: string,
): CaseReport & {
  row(name: string, unit: string, values: number[]): number[];
  ratio(name: string, values: number[], kind?: '×' | '%'): number[];
  goal(text: string, met: boolean, actual: string): void;
  note(text: string): void;
} {
  const r: CaseReport = { name, title, rows: [], goals: [], notes: [] };
  return Object.assign(r, {
    row(rowName: string, unit: string, values: number[]) {
      r.rows.push({ name: rowName, unit, values });
      return values;
    },
    ratio(rowName: string, values: number[], kind: '×' | '%' = '×') {
      r.rows.push({ name: rowName, unit: kind === '%' ? '%' : '×', values: kind === '%' ? values.map((v) => v * 100) : values, ratio: kind });
      return values;
    },
    goal(text: string, met: boolean, actual: string) {
      r.goals.push({ text, met, actual });
    },
    note(text: string) {
      r.notes.push(text);
    },
  });
}

export function table(header: string[], lines: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(line)].join('\n');
}

export function printReport(r: CaseReport): string {
  const lines = r.rows.map((row) => {
    const s = stats(row.values);
    const unit = row.ratio === '×' ? '×' : row.unit;
    const v = (x: number) => (row.ratio === '×' ? `${fmt(x)}×` : row.ratio === '%' ? `${fmt(x)}%` : fmt(x));
    return [
      row.name,
      v(s.median),
      s.n > 1 ? `${v(s.min)} – ${v(s.max)}` : '',
      s.n > 2 ? `${v(s.p25)} – ${v(s.p75)}` : '',
      String(s.n),
      unit === '×' || unit === '%' ? '' : unit,
    ];
  });
  const out = [`== ${r.name}: ${r.title}`, table(['measurement', 'median', 'min – max', 'p25 – p75', 'runs', 'unit'], lines)];
  for (const g of r.goals) out.push(`goal ${g.met ? 'MET    ' : 'NOT MET'}  ${g.text}  (measured ${g.actual})`);
  for (const n of r.notes) out.push(`note: ${n}`);
  return out.join('\n') + '\n';
}

/** The list started at its `round`-th item (wrapping): targets measured in turn, a different one first each round. */
export const rotated = <T>(list: readonly T[], round: number): T[] => list.map((_, i) => list[(i + round) % list.length]!);

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
