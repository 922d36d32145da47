import { Writable } from 'node:stream';

/**
 * Logs for a person at a terminal: the server's JSON log lines (pino) turned into one line per request —
 * time, method, path, status, duration and the Problem code — and a plain line for anything else logged.
 * `signalbox serve` uses it when stdout is a terminal; a pipe, a file or a log collector keeps the JSON lines.
 */
interface LogLine {
  time?: string;
  level?: string | number;
  msg?: string;
  reqId?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number; code?: string };
  responseTime?: number;
  err?: { stack?: string; message?: string };
}

const clock = (time: string | undefined) => (time ?? new Date().toISOString()).slice(11, 19);

function requestLine(started: { method?: string; url?: string } | undefined, done: LogLine): string {
  const status = done.res?.statusCode ?? 0;
  const ms = done.responseTime === undefined ? '' : `  ${done.responseTime < 10 ? done.responseTime.toFixed(1) : Math.round(done.responseTime)} ms`;
  return `${clock(done.time)} ${started?.method ?? '?'} ${started?.url ?? '?'} → ${status}${ms}${done.res?.code ? `  ${done.res.code}` : ''}`;
}

export function readableLog(out: NodeJS.WritableStream): Writable {
  // The request line of each request in flight, by request id, until its "request completed" line (at debug level,
  // when "incoming request" lines are written; otherwise "request completed" names the request itself).
  const inFlight = new Map<string, { method?: string; url?: string }>();
  let partial = '';
  const handle = (text: string) => {
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      out.write(`${text}\n`);
      return;
    }
    if (line.msg === 'incoming request' && line.reqId) {
      inFlight.set(line.reqId, line.req ?? {});
      return;
    }
    if (line.msg === 'request completed') {
      out.write(`${requestLine((line.reqId ? inFlight.get(line.reqId) : undefined) ?? line.req, line)}\n`);
      if (line.reqId) inFlight.delete(line.reqId);
      return;
    }
    out.write(`${clock(line.time)} ${String(line.level ?? '').padEnd(5)} ${line.msg ?? ''}${line.reqId ? `  (${line.reqId})` : ''}\n`);
    if (line.err?.stack) out.write(`${line.err.stack}\n`);
  };
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop()!;
      for (const l of lines) if (l.trim()) handle(l);
      done();
    },
  });
}
