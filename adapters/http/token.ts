import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RuleViolation } from '../../engine/index.ts';
import { credentialsOf, OAuthError, type Authenticator } from './auth.ts';
import { failedAttempts } from './failed-attempts.ts';
import { toViolation } from './problems.ts';

type Form = Record<string, string | undefined>;

/**
 * POST /oauth2/token (spec §5, CONTRACT §3): RFC 6749 answers, errors included. The endpoint reads only
 * application/x-www-form-urlencoded bodies (RFC 6749 §4.4.2); anything else is 400 invalid_request.
 */
export const tokenRoutes = (auth: Authenticator) => async (app: FastifyInstance) => {
  // These parsers replace the server's JSON and form parsers for this route only (Fastify encapsulation).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    // RFC 6749 §3.2: a parameter must not be sent more than once. A null-prototype object: names are the caller's.
    const form = Object.create(null) as Form;
    for (const [name, value] of new URLSearchParams(body as string)) {
      if (name in form) return done(new OAuthError(400, 'invalid_request', `${name} is given more than once`), undefined);
      form[name] = value;
    }
    done(null, form);
  });
  const notAForm = (request: FastifyRequest) =>
    new OAuthError(
      400,
      'invalid_request',
      `the token endpoint takes application/x-www-form-urlencoded, not ${request.headers['content-type'] ?? 'a body without Content-Type'}`,
    );
  // Not read at all: whatever it holds, the answer is the same.
  app.addContentTypeParser('*', (request, _payload, done) => done(notAForm(request), undefined));

  // Wrong secrets are limited per claimed client and per address (rules/limits.yaml failedTokenAttempts); the right
  // secret is never refused for another's failures (failed-attempts.ts).
  const attempts = await failedAttempts(app, () => app.engine.rules.limits.failedTokenAttempts);
  const claimedClient = (request: FastifyRequest) => {
    try {
      return credentialsOf(request.headers.authorization, formOf(request)).clientId || undefined;
    } catch {
      return undefined;
    }
  };
  // An RFC 6749 body like every answer of this endpoint, its text from the catalogue (rules/errors.yaml).
  const tooMany = (request: FastifyRequest, reply: FastifyReply, seconds: number) =>
    reply
      .header('retry-after', String(seconds))
      .status(429)
      .send({
        error: 'invalid_request',
        error_description: app.engine.problem(new RuleViolation('X_TOO_MANY_ATTEMPTS', { seconds }), request.language).detail,
      });

  app.setErrorHandler((error, request, reply) => {
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    // A Content-Type Fastify cannot even parse (`ÿ/ÿ`) is refused before any parser runs: not a form either.
    const oauth = (error as { code?: string }).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? notAForm(request) : error;
    if (oauth instanceof OAuthError) return reply.status(oauth.status).send({ error: oauth.error, error_description: oauth.description });
    // Errors met before the handler (body too large, broken gzip, a timeout): still an RFC 6749 body.
    const problem = app.engine.problem(toViolation(error, request, app.engine.rules.limits.requestBodyLimitBytes), request.language);
    if (problem.status >= 500) request.log.error({ err: error }, 'unexpected error');
    return reply.status(problem.status).send({ error: problem.status >= 500 ? 'server_error' : 'invalid_request', error_description: problem.detail });
  });

  app.post('/oauth2/token', async (request, reply) => {
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    const waits = await attempts.addressWaits(request);
    if (waits !== undefined) return tooMany(request, reply, waits);
    try {
      const grant = await auth.issue(request.headers.authorization, formOf(request));
      request.client = claimedClient(request);
      return grant;
    } catch (e) {
      if (!(e instanceof OAuthError)) throw e;
      if (e.status === 401) {
        const wait = await attempts.failed(request, claimedClient(request));
        if (wait !== undefined) return tooMany(request, reply, wait);
        reply.header('www-authenticate', 'Basic realm="signalbox"');
      }
      return reply.status(e.status).send({ error: e.error, error_description: e.description });
    }
  });
};

function formOf(request: FastifyRequest): Form {
  return (request.body && typeof request.body === 'object' ? request.body : {}) as Form;
}
