import { createGunzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { phrase, RuleViolation } from '../../engine/index.ts';

/**
 * How deep arrays and objects may nest in a JSON body. OSDM requests need about a dozen levels; a body of 100,000
 * `[` parses, but every recursive walk over it afterwards (validation, JSON.stringify into the store, logging)
 * would overflow the stack, so such a body is refused before it is parsed.
 */
export const MAX_JSON_DEPTH = 64;

/** True when `text` opens more than `limit` arrays or objects inside each other (strings are skipped). One pass, no recursion. */
function nestingBeyond(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * The pointer of the first array in `value` longer than `limit` (breadth first, no recursion), or undefined.
 * Every array is bounded before any schema looks at its elements: validating 500,000 elements one by one would
 * cost seconds and produce a problem per element. The walk keeps each container's parent and key, and spells a
 * pointer only for the array it refuses: most bodies have none, and every request pays for the walk.
 */
function arrayBeyond(value: unknown, limit: number): string | undefined {
  const items: unknown[] = [value];
  const parents: number[] = [-1];
  const keys: Array<string | number> = [''];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (Array.isArray(item)) {
      if (item.length > limit) return pointerOf(i, parents, keys);
      for (let index = 0; index < item.length; index++) {
        const element: unknown = item[index];
        if (element !== null && typeof element === 'object') {
          items.push(element);
          parents.push(i);
          keys.push(index);
        }
      }
    } else if (item !== null && typeof item === 'object') {
      for (const key in item) {
        if (!Object.hasOwn(item, key)) continue;
        const child = (item as Record<string, unknown>)[key];
        if (child !== null && typeof child === 'object') {
          items.push(child);
          parents.push(i);
          keys.push(key);
        }
      }
    }
  }
  return undefined;
}

/** The JSON pointer (RFC 6901) of the `at`-th container of `arrayBeyond`'s walk. */
function pointerOf(at: number, parents: readonly number[], keys: ReadonlyArray<string | number>): string {
  const path: string[] = [];
  for (let i = at; i > 0; i = parents[i]!) {
    const key = keys[i]!;
    path.push(typeof key === 'number' ? String(key) : key.replace(/~/g, '~0').replace(/\//g, '~1'));
  }
  return ['#', ...path.reverse()].join('/');
}

/**
 * Request bodies (CONTRACT §4): JSON (application/json or any +json type such as
 * application/vnd.uic.osdm+json) and gzip request bodies; form fields for the token endpoint are parsed there.
 * Fastify's bodyLimit counts the bytes after decompression, so a gzip bomb ends in 413, not in memory.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(/^application\/([\w.-]+\+)?json(\s*;.*)?$/i, { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    const depth = nestingBeyond(text, MAX_JSON_DEPTH);
    if (depth) return done(new RuleViolation('86001', { reason: phrase('body-too-deep', { levels: MAX_JSON_DEPTH }) }, [{ requestPointer: '#' }]), undefined);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      return done(new RuleViolation('86001', { reason: phrase('body-not-json', { problem: (e as Error).message }) }, [{ requestPointer: '#' }]), undefined);
    }
    const limit = app.engine.rules.limits.requestArrayLimit;
    const long = arrayBeyond(value, limit);
    if (long) return done(new RuleViolation('86001', { reason: phrase('too-many-elements', { where: long, limit }) }, [{ requestPointer: long }]), undefined);
    done(null, value);
  });
  // Form fields are for the token endpoint only (RFC 6749), which has its own parsers (token.ts); elsewhere a
  // form, like every type without a parser here, is a wrong media type (415).
  // Callback form: an async hook would cost every request with a body a promise, and most are not compressed.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const encoding = request.headers['content-encoding']?.toLowerCase();
    if (!encoding || encoding === 'identity') return done(null, payload);
    if (encoding !== 'gzip')
      return done(new RuleViolation('86001', { reason: phrase('encoding-unsupported', { encoding }) }, [{ requestPointer: 'header:Content-Encoding' }]));
    delete request.headers['content-length'];
    const gunzip = createGunzip();
    // A body that is not gzip, or breaks after its first bytes, makes the stream emit 'error'. While Fastify reads
    // the body it listens too and answers 400; but a route that never reads its body, or a body already refused
    // with 413, leaves nobody listening, and an unheard 'error' event ends the process. Heard here, the request's
    // remaining bytes are drained so the connection can carry the answer.
    gunzip.on('error', () => {
      payload.unpipe(gunzip);
      payload.resume();
    });
    payload.pipe(gunzip);
    done(null, gunzip);
  });
}
