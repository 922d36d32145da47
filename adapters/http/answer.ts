import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DecisionTrace } from '../../engine/index.ts';
import type {} from './fastify-types.ts';

/** Sends a decided result and keeps its traces on the request. */
export function answer(request: FastifyRequest, reply: FastifyReply, decided: { value: unknown; traces: readonly DecisionTrace[] }, status = 200) {
  request.traces = decided.traces;
  return reply.status(status).send(decided.value);
}
