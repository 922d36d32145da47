import autocannon from 'autocannon';

/**
 * One bounded autocannon run against a server on loopback. The load generator runs in the bench's own
 * process; the servers run in theirs (bench/processes.ts), so the two never share an event loop.
 */
export interface LoadOptions {
  base: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Picks the path of each request (e.g. a random booking id); overrides `path`. */
  nextPath?: () => string;
  connections?: number;
  seconds?: number;
}

export interface LoadResult {
  /** Completed 2xx requests per second. */
  rps: number;
  p50: number;
  p99: number;
  mean: number;
  requests: number;
  non2xx: number;
  errors: number;
}

export const DURATION = Number(process.env['BENCH_DURATION'] ?? 5);
/**
 * Seconds each signalbox server is loaded before it is measured (BENCH_WARMUP). Its CPU per operation keeps falling
 * for its first several thousand requests, while V8 compiles it on background threads that count as its CPU
 * (docs/performance.md). The ceilings and the floor have little code to compile and warm up for 3 s.
 */
export const WARM_UP = Number(process.env['BENCH_WARMUP'] ?? 10);
/**
 * The same for the sale-and-refund lifecycle (BENCH_LIFECYCLE_WARMUP): its many more code paths keep V8 compiling
 * for longer: after 10 s of sales the part of a sale off the main thread (V8's compiler and collector) still falls
 * from run to run, and it takes some 30 seconds before a run measures the server as it serves for hours, not its
 * compiler (docs/performance.md).
 */
export const LIFECYCLE_WARM_UP = Number(process.env['BENCH_LIFECYCLE_WARMUP'] ?? 30);

export async function load(o: LoadOptions): Promise<LoadResult> {
  const seconds = o.seconds ?? DURATION;
  const nextPath = o.nextPath;
  const result = await autocannon({
    url: o.base + o.path,
    method: o.method,
    headers: { ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}), ...o.headers },
    ...(o.body !== undefined ? { body: o.body } : {}),
    ...(nextPath ? { requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, path: nextPath() }) }] } : {}),
    connections: o.connections ?? 50,
    duration: seconds,
    timeout: 20,
  });
  const ok = result['2xx'];
  return {
    rps: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: result.latency.mean,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** Fails loudly when a run was not clean: a benchmark of error answers measures nothing. */
export function clean(label: string, r: LoadResult): LoadResult {
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${label}: ${r.non2xx} non-2xx answers and ${r.errors} errors out of ${r.requests} requests`);
  return r;
}
