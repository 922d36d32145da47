import type { FastifyReply, FastifyRequest } from 'fastify';
import { RuleViolation, type Engine, type Language } from '../../engine/index.ts';

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
      return new RuleViolation('X_UNSUPPORTED_MEDIA_TYPE', { contentType: request.headers['content-type'] ?? 'none' }, [{ requestPointer: 'header:Content-Type' }]);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new RuleViolation('86001', { reason: 'the body is empty' }, [{ requestPointer: '#' }]);
    case 'Z_DATA_ERROR':
    case 'Z_BUF_ERROR':
      return new RuleViolation('86001', { reason: 'the body is not valid gzip' }, [{ requestPointer: 'header:Content-Encoding' }]);
  }
  if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    return new RuleViolation('86001', { reason: e.message ?? 'bad request' });
  }
  return new RuleViolation('INTERNAL_ERROR', { reference: request.id });
}

export function sendProblem(engine: Engine, reply: FastifyReply, request: FastifyRequest, error: RuleViolation, language: Language) {
  const problem = engine.problem(error, language, request.url.split('?')[0]);
  if (problem.status === 401) reply.header('www-authenticate', 'Bearer');
  return reply.status(problem.status).type('application/problem+json').send(problem);
}
