import type { FastifyInstance } from 'fastify';
import { OAuthError, type Authenticator } from '../auth.ts';

/** POST /oauth2/token (spec §5, CONTRACT §3): RFC 6749 answers, errors included. */
export const tokenRoutes = (auth: Authenticator) => async (app: FastifyInstance) => {
  app.post('/oauth2/token', async (request, reply) => {
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    const form = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, string | undefined>;
    try {
      return await auth.issue(request.headers.authorization, form);
    } catch (e) {
      if (!(e instanceof OAuthError)) throw e;
      if (e.status === 401) reply.header('www-authenticate', 'Basic realm="signalbox"');
      return reply.status(e.status).send({ error: e.error, error_description: e.description });
    }
  });
};
