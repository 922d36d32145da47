import { spawn } from 'node:child_process';

/**
 * A real `signalbox serve` process, talked to over HTTP: for tests about what several processes do
 * together (one database, shared JWT secret), which an in-process Fastify cannot show.
 */
export interface ServerProcess {
  /** `http://127.0.0.1:<port>` */
  readonly base: string;
  /** What the process wrote to stderr so far (shown when a test fails). */
  stderr(): string;
  /** What it wrote to stdout so far: its log lines, with `quiet: false`. */
  stdout(): string;
  /** The process started (with `--workers N`, the cluster's primary). */
  readonly pid: number;
  /** Ends when the process has exited. */
  readonly exited: Promise<void>;
  /** SIGTERM (graceful: in-flight requests finish, the store closes), SIGKILL after 5 s. */
  stop(): Promise<void>;
}

/**
 * Starts `bin/signalbox.js serve --store <store> [args…]` on a port the OS picks (or `port`), and waits until it
 * listens; `quiet: false` keeps its log lines (JSON, on a pipe).
 */
export async function serveProcess(
  store: string,
  env: Record<string, string> = {},
  args: readonly string[] = [],
  { quiet = true, port = 0 }: { quiet?: boolean; port?: number } = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['bin/signalbox.js', 'serve', '--port', String(port), '--store', store, ...(quiet ? ['--quiet'] : []), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  let out = '';
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`signalbox serve did not start within 20 s\n${err}`)), 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`signalbox serve exited with ${code}\n${err}`));
    });
  });

  return {
    base,
    stderr: () => err,
    stdout: () => out,
    pid: child.pid!,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A reseller's view of one or more processes: one token (valid on every process sharing the JWT secret). */
export async function resellerToken(base: string, client = 'demo-reseller', secret = `${client}-secret`): Promise<string> {
  const res = await fetch(`${base}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `grant_type=client_credentials&client_id=${client}&client_secret=${secret}`,
  });
  if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

export interface Answer {
  status: number;
  body: any;
}

/** One Reseller API call with the token and a WEB_SE Requestor. */
export async function call(base: string, token: string, method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method,
    ...(signal ? { signal } : {}),
    headers: {
      authorization: `Bearer ${token}`,
      requestor: Buffer.from(JSON.stringify({ salesApplication: 'WEB_SE', salesUnitCode: 'TEST' })).toString('base64'),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, body: parsed };
}
