import { STATUS_CODES } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { phrase, RuleViolation, type Engine, type Language, type Problem } from '../../engine/index.ts';
import { problemCodes } from './logging.ts';

/**
 * Every 4xx and 5xx leaves as an application/problem+json Problem rendered from rules/errors.yaml
 * (CONTRACT §5). Errors thrown by Fastify itself (body limits, media types) are mapped onto the catalogue.
 */
export function toViolation(error: unknown, request: FastifyRequest, bodyLimit: number): RuleViolation {
  if (error instanceof RuleViolation) return error;
  const e = error as { code?: string; statusCode?: number; message?: string };
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new RuleViolation('X_PAYLOAD_TOO_LARGE', { limit: bodyLimit });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new RuleViolation('X_UNSUPPORTED_MEDIA_TYPE', { contentType: request.headers['content-type'] ?? 'none' }, [
        { requestPointer: 'header:Content-Type' },
      ]);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new RuleViolation('86001', { reason: phrase('body-empty') }, [{ requestPointer: '#' }]);
    case 'FST_ERR_BAD_URL':
      return new RuleViolation('86001', { reason: phrase('path-not-url') }, [{ requestPointer: 'path' }]);
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new RuleViolation('RESOURCE_NOT_FOUND', { resource: phrase('resource-resource'), id: phrase('id-too-long') });
    case 'Z_DATA_ERROR':
    case 'Z_BUF_ERROR':
      return new RuleViolation('86001', { reason: phrase('body-not-gzip') }, [{ requestPointer: 'header:Content-Encoding' }]);
  }
  if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    return new RuleViolation('86001', { reason: e.message ?? 'bad request' });
  }
  return new RuleViolation('INTERNAL_ERROR', { reference: request.id });
}

/**
 * A Problem written straight to a socket, for requests Node's HTTP parser refused before Fastify saw them
 * (a header with CR or LF, headers beyond Node's limit, a method Node does not know): 400 86001; or for a request
 * that did not arrive within requestTimeout (rules/limits.yaml): 408. In the default language, as no
 * Accept-Language could be read.
 */
export function rawProblem(engine: Engine, error: { code?: string }, socket: { localAddress?: string; localPort?: number }): string {
  const language = engine.rules.limits.languages[0]!;
  const violation =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new RuleViolation('X_REQUEST_TIMEOUT', { timeout: engine.rules.limits.requestTimeout })
      : new RuleViolation('86001', {
          reason: error.code === 'HPE_HEADER_OVERFLOW' ? phrase('headers-too-large') : phrase('not-http', { code: error.code ?? 'unreadable' }),
        });
  const host = socket.localAddress?.includes(':') ? `[${socket.localAddress}]` : socket.localAddress;
  const problem = absolute(engine.problem(violation, language), originOf('http', `${host}:${socket.localPort}`));
  const body = JSON.stringify(problem);
  return [
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}`,
    'Content-Type: application/problem+json; charset=utf-8',
    `Content-Language: ${language}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

export function sendProblem(engine: Engine, reply: FastifyReply, request: FastifyRequest, error: RuleViolation, language: Language) {
  const problem = absolute(engine.problem(error, language, request.url.split('?')[0]), originOf(request.protocol, request.host));
  problemCodes.set(reply.raw, problem.code);
  if (problem.status === 401) reply.header('www-authenticate', 'Bearer');
  return reply.status(problem.status).type('application/problem+json').send(problem);
}

/**
 * OSDM's Problem wants `type` and `instance` as absolute URIs (CONTRACT §4c): the engine names them by path, the
 * server they were asked of completes them. `type` is then the error's page on this server (error-page.ts).
 */
function absolute(problem: Problem, origin: string): Problem {
  return {
    ...problem,
    type: onServer(origin, problem.type),
    ...(problem.instance !== undefined ? { instance: onServer(origin, problem.instance) } : {}),
  };
}

/**
 * A path on this server as an absolute URI. Set as the path, never resolved against the origin: a request path
 * such as `//evil.example/x` must not name another host, nor `//[` make the URL parser throw.
 */
function onServer(origin: string, path: string): string {
  const url = new URL(origin);
  url.pathname = path;
  return url.href;
}

/** `http://host:port` as the request named it; a Host header that is no host at all gives localhost. */
function originOf(protocol: string, host: string | undefined): string {
  try {
    return new URL(`${protocol}://${host}`).origin;
  } catch {
    return `${protocol}://localhost`;
  }
}
