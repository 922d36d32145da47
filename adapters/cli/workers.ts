/**
 * How many workers `serve` runs. Asked for, as many as asked, where the store can be shared (SQLite, PostgreSQL)
 * and the server is not a sandbox: a sandbox's clocks, journal and faults live in its process. Not asked for, one
 * per core where it could run several, else one. The reason as text when the request cannot be met.
 */
export function workerCount(asked: string | undefined, store: string, sandbox: boolean, cores: number): number | string {
  const shareable = store !== 'memory';
  if (asked === undefined) return shareable && !sandbox ? Math.max(1, cores) : 1;
  const n = Number(asked);
  if (!Number.isInteger(n) || n < 1) return `--workers takes a whole number of at least 1, not "${asked}"`;
  if (n === 1) return 1;
  if (!shareable) return '--workers above 1 needs a store the workers can share (sqlite:PATH or postgres://…); the memory store lives in one process';
  if (sandbox) return '--workers above 1 cannot run a sandbox: its clocks, request journal and faults live in one process; use --workers 1';
  return n;
}
