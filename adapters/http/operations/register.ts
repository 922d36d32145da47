import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { subscriptionKeyCheck } from '../subscription-key.ts';
import { fastifyPath, sandboxOnly } from './index.ts';
import { ANY_METHODS, RULES_RELEASE_HEADER, successStatus, type Access, type Answer } from './operation.ts';

/**
 * Serves the server's route table (`app.routeTable`: the API's and its wings'): a Fastify route per operation with
 * a handler, its credentials checked by `access`, its handler called with the request's parts, and its answer
 * written by `send`. Sandbox operations only with --sandbox (CONTRACT §8).
 */
export async function registerOperations(app: FastifyInstance, options: { sandbox: boolean }): Promise<void> {
  const subscriptionKey = await subscriptionKeyCheck(app);
  // Checked before the body is read: an unauthenticated caller cannot make the server parse a megabyte, and no
  // /v3 handler runs without a Requestor (and so a final request.osdmVersion).
  const checks: Record<Access, onRequestAsyncHookHandler | undefined> = {
    public: undefined,
    sandbox: undefined,
    'sandbox-client': async (request) => {
      await app.tokenHolder(request);
    },
    // The token endpoint checks its client credentials itself (token.ts).
    client: undefined,
    reseller: async (request) => {
      await app.requestorOf(request);
    },
    // The key first, as the operator's API gateway does, then the token (scope `customer`).
    customer: async (request, reply) => {
      await subscriptionKey(request, reply);
      await app.authenticate(request, 'customer');
    },
    bearer: async (request) => {
      await app.tokenHolder(request);
    },
    analyst: async (request) => {
      await app.authenticate(request, 'analyst');
    },
  };
  for (const op of app.routeTable.operations) {
    const handle = op.handle;
    if (!handle || (sandboxOnly(op.access) && !options.sandbox)) continue;
    const onRequest = checks[op.access];
    const status = successStatus(op);
    app.route({
      method: op.method === 'ANY' ? [...ANY_METHODS] : op.method,
      url: fastifyPath(op.path),
      ...(onRequest ? { onRequest } : {}),
      handler: async (request, reply) => {
        if (op.notUnder && request.url.startsWith(op.notUnder)) return reply.callNotFound();
        const answer = await handle({
          request,
          params: request.params as Record<string, string>,
          query: request.query,
          body: request.body,
          service: app.service,
          requestor: () => app.requestorOf(request),
          client: async () => (await app.tokenHolder(request)).client,
        });
        return send(request, reply, answer, status);
      },
    });
  }
}

/**
 * The one place an answer of the table is written, with the entry's success status (`successStatus`) unless the
 * handler named one of the entry's several. `op.responses[status]?.schema` is the zod schema of a JSON answer's
 * body: a serializer compiled per schema belongs here (an answer with its own `type` is sent as it is). Without
 * one, Fastify writes the body with JSON.stringify.
 */
function send(request: FastifyRequest, reply: FastifyReply, answer: Answer, status: number): FastifyReply {
  if (answer.traces) request.traces = answer.traces;
  const release = answer.release ?? answer.traces?.[0]?.release;
  if (release !== undefined) reply.header(RULES_RELEASE_HEADER, release);
  reply.status(answer.status ?? status);
  if (answer.type) reply.type(answer.type);
  if (answer.headers) reply.headers(answer.headers);
  return reply.send(answer.body);
}
