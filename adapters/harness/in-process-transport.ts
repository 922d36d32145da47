import { EventEmitter } from 'node:events';
import { Readable, Writable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * A request handed to the Fastify app in-process, through `app.routing` (the handler its HTTP server calls), so
 * every hook, parser and serialiser of the server runs as for a request from a socket. Not `app.inject`
 * (light-my-request): it builds a full `http.ServerResponse` per request, renders the header block as text and
 * parses it back, turns every answer into a Buffer and back into text, and answers a turn of the event loop
 * later, which cost the scenario runner about a fifth of its CPU time. What the server is shown is what
 * `app.inject` shows it, and what the runner is answered is what `app.inject` answers
 * (test/in-process-transport.test.ts replays the scenario corpus through both):
 * - the request: header names in lower case, `user-agent: lightMyRequest` and `host: localhost:80` unless given,
 *   `content-length` for a body, the URL as WHATWG URL parsing leaves it, from 127.0.0.1;
 * - the answer: the headers the app set, then `date`, `connection` and `transfer-encoding` as Node's HTTP server
 *   would add them; the body as the text the app wrote.
 */
interface InProcessAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Fastify's request, as the `onResponse` hooks saw it. */
  request?: FastifyRequest;
}

/** The request's remote end, as `request.ip` and the rate limits read it. */
class LocalSocket extends EventEmitter {
  readonly remoteAddress = '127.0.0.1';
}

class InProcessRequest extends Readable {
  readonly aborted = false;
  readonly httpVersionMajor = 1;
  readonly httpVersionMinor = 1;
  readonly httpVersion = '1.1';
  readonly socket = new LocalSocket();
  readonly rawHeaders: string[] = [];
  /** Set while the app's `onResponse` hooks run: the last of them calls it. */
  answered: ((request: FastifyRequest) => void) | undefined;
  private body: string | Buffer | undefined;

  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  constructor(method: string, url: string, headers: Record<string, string>, body: string | Buffer | undefined) {
    super({ autoDestroy: false });
    this.method = method;
    this.url = url;
    this.headers = headers;
    this.body = body;
    for (const name in headers) this.rawHeaders.push(name, headers[name]!);
  }

  override _read(): void {
    if (this.body !== undefined) this.push(this.body);
    this.body = undefined;
    this.push(null);
  }
}

type HeaderValue = string | number | readonly string[];

/** The part of `http.ServerResponse` Fastify and its plugins use; what is written is kept as text (no Buffers). */
class InProcessResponse extends Writable {
  statusCode = 200;
  statusMessage = '';
  headersSent = false;
  readonly sendDate = true;
  readonly chunks: Array<string | Buffer> = [];
  private readonly fields = new Map<string, HeaderValue>();
  /** Ended with its whole body before any header was written: Node then sends a length, not chunks. */
  private lengthKnown = false;

  readonly req: InProcessRequest;
  constructor(req: InProcessRequest) {
    super({ decodeStrings: false });
    this.req = req;
  }

  setHeader(name: string, value: HeaderValue): this {
    this.fields.set(name.toLowerCase(), value);
    return this;
  }
  getHeader(name: string): HeaderValue | undefined {
    return this.fields.get(name.toLowerCase());
  }
  getHeaders(): Record<string, HeaderValue> {
    return Object.fromEntries(this.fields);
  }
  getHeaderNames(): string[] {
    return [...this.fields.keys()];
  }
  hasHeader(name: string): boolean {
    return this.fields.has(name.toLowerCase());
  }
  removeHeader(name: string): void {
    this.fields.delete(name.toLowerCase());
  }
  writeHead(status: number, headers?: Record<string, HeaderValue>): this {
    this.statusCode = status;
    if (headers) for (const name in headers) this.fields.set(name.toLowerCase(), headers[name]!);
    this.headersSent = true;
    return this;
  }
  flushHeaders(): void {
    this.headersSent = true;
  }

  override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
    if (!this.headersSent && this.chunks.length === 0 && (typeof chunk === 'string' || Buffer.isBuffer(chunk))) this.lengthKnown = true;
    return super.end(chunk as string, encoding as BufferEncoding, callback as () => void);
  }

  override _write(chunk: string | Buffer, _encoding: string, done: () => void): void {
    this.headersSent = true;
    this.chunks.push(chunk);
    done();
  }

  /** The headers as `app.inject` gives them: each value as text, then the ones Node's HTTP server adds. */
  answerHeaders(): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const [name, value] of this.fields) headers[name] = String(value);
    headers['date'] ??= httpDate();
    headers['connection'] ??= 'keep-alive';
    const bodiless = this.statusCode < 200 || this.statusCode === 204 || this.statusCode === 304 || this.req.method === 'HEAD';
    if (!bodiless && !this.lengthKnown && !('content-length' in headers) && !('transfer-encoding' in headers)) headers['transfer-encoding'] = 'chunked';
    return headers;
  }

  answerBody(): string {
    if (this.chunks.every((c) => typeof c === 'string')) return this.chunks.join('');
    return Buffer.concat(this.chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c))).toString();
  }
}

/** The `date` header's text, as Node's HTTP server keeps it: made once a second. */
let date = { second: 0, text: '' };
function httpDate(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== date.second) date = { second, text: new Date(second * 1000).toUTCString() };
  return date.text;
}

/** Paths WHATWG URL parsing leaves as they are: no character it escapes, no `.` or `..` segment (spelled `%2e` too). */
const PLAIN_PATH = /^\/(?!\/)[\w.\-~!$&()*+,;=:@/?%]*$/;
const DOT_SEGMENT = /\/(\.|%2e)/i;

/** The path and query as light-my-request makes them of a request target: WHATWG URL parsing against localhost. */
function requestTarget(path: string): { url: string; host: string } {
  if (PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path.split('?', 1)[0]!)) return { url: path, host: 'localhost:80' };
  const parsed = new URL(path.startsWith('//') ? `http://localhost${path}` : path, 'http://localhost');
  return { url: parsed.pathname + parsed.search, host: parsed.port ? parsed.host : `${parsed.hostname}:${parsed.protocol === 'https:' ? 443 : 80}` };
}

/** A request waiting for its answer; emptied once answered. */
interface Pending {
  answer?: () => void;
}

/**
 * A request's fallback, a turn of the event loop after its answer was written: answers it unless its last
 * `onResponse` hook already did. A module-level function handed the small `Pending`, not a closure: until the loop
 * turns, a closure would keep the request, its answer and its body, and a caller that sends thousands of requests
 * without yielding would hold them all (docs/performance.md).
 */
const answerLate = (pending: Pending) => pending.answer?.();

/** Sends one request through the app; see `inProcessClient`. */
export type SendInProcess = (method: string, path: string, headers: Readonly<Record<string, string>>, body?: string | Buffer) => Promise<InProcessAnswer>;

/**
 * Requests into `app` (call before `app.ready()`: it adds the last `onResponse` hook). Each answers once the app is
 * done with it: the answer written and every `onResponse` hook run, `request` being Fastify's request (absent for the
 * few answers Fastify gives without running hooks, such as a malformed URL's). Nothing waits for a turn of the event
 * loop, so a caller that yields to it now and then (the in-process target, once per scenario) keeps timers running.
 */
export function inProcessClient(app: FastifyInstance): SendInProcess {
  app.addHook('onResponse', async (request) => {
    if (request.raw instanceof InProcessRequest) request.raw.answered?.(request);
  });
  return (method, path, headers, body) => {
    const target = requestTarget(path);
    const sent: Record<string, string> = {};
    for (const name in headers) sent[name.toLowerCase()] = headers[name]!;
    sent['user-agent'] ??= 'lightMyRequest';
    sent['host'] ||= target.host;
    const payload = body === undefined || body.length === 0 ? undefined : body;
    if (payload !== undefined && !('content-length' in sent)) sent['content-length'] = String(Buffer.byteLength(payload));
    const req = new InProcessRequest(method.toUpperCase(), target.url, sent, payload);
    const res = new InProcessResponse(req);
    return new Promise((resolve, reject) => {
      let finished = false;
      const pending: Pending = {};
      const answer = (request?: FastifyRequest) => {
        req.answered = undefined;
        pending.answer = undefined;
        resolve({ status: res.statusCode, headers: res.answerHeaders(), body: res.answerBody(), ...(request ? { request } : {}) });
      };
      res.once('finish', () => {
        finished = true;
        // Fastify listens for 'finish' too when it has onResponse hooks to run: then the last of them answers. Should
        // one of them fail, the rest are skipped; a turn of the event loop later the answer goes out all the same.
        if (res.listenerCount('finish') === 0) answer();
        else {
          req.answered = answer;
          pending.answer = answer;
          setImmediate(answerLate, pending);
        }
      });
      res.once('error', reject);
      res.once('close', () => {
        if (!finished) reject(new Error(`the server closed ${method.toUpperCase()} ${path} without answering`));
      });
      app.routing(req as never, res as never);
    });
  };
}
