import { createGunzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { RuleViolation } from '../../engine/index.ts';

/**
 * Request bodies (CONTRACT §4): JSON (application/json or any +json type such as
 * application/vnd.uic.osdm+json), form fields for the token endpoint, and gzip request bodies.
 * Fastify's bodyLimit counts the bytes after decompression, so a gzip bomb ends in 413, not in memory.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(/^application\/([\w.-]+\+)?json(\s*;.*)?$/i, { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (e) {
      done(new RuleViolation('86001', { reason: `the body is not valid JSON (${(e as Error).message})` }, [{ requestPointer: '#' }]), undefined);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.addHook('preParsing', async (request, _reply, payload) => {
    const encoding = request.headers['content-encoding']?.toLowerCase();
    if (!encoding || encoding === 'identity') return payload;
    if (encoding !== 'gzip') throw new RuleViolation('86001', { reason: `Content-Encoding ${encoding} is not supported; use gzip` }, [{ requestPointer: 'header:Content-Encoding' }]);
    delete request.headers['content-length'];
    const gunzip = createGunzip();
    (payload as NodeJS.ReadableStream).pipe(gunzip);
    return gunzip;
  });
}
