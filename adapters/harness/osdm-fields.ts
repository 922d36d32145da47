import { z } from 'zod';
import type { OsdmConformance } from './osdm-conformance.ts';

type Schema = Record<string, unknown>;

/**
 * Where a request schema of ours accepts a field OSDM 3.4 does not define at that place (CONTRACT §4: such a field
 * is a 400 86001, a typo must not pass silently). Both schemas are walked side by side: ours (the zod request
 * schema as JSON Schema) and OSDM's (its `allOf` chains merged, as the response check reads them).
 */
export function fieldsOsdmDoesNotDefine(osdm: OsdmConformance, method: string, path: string, request: z.ZodType): string[] | undefined {
  const theirs = osdm.requestSchema(method, path);
  return theirs && fieldsBeyond(z.toJSONSchema(request, { io: 'input', unrepresentable: 'any' }), theirs);
}

/**
 * Where a response schema of ours (zod, and so /openapi.json) describes a field OSDM 3.4 does not define at that
 * place for that operation and status: the schemas must agree with OSDM, not only the bodies sent.
 */
export function responseFieldsOsdmDoesNotDefine(
  osdm: OsdmConformance,
  method: string,
  path: string,
  status: number,
  response: z.ZodType,
): string[] | undefined {
  const theirs = osdm.responseSchema(method, path, status);
  return theirs && fieldsBeyond(z.toJSONSchema(response, { io: 'output', unrepresentable: 'any' }), theirs);
}

function fieldsBeyond(ours: Schema, theirs: { schema: Schema; definitions: Record<string, unknown> }): string[] {
  const resolve = (node: Schema | undefined, defs: Record<string, unknown>): Schema | undefined => {
    let n = node;
    for (let i = 0; n && i < 20; i++) {
      if (typeof n.$ref === 'string') n = defs[n.$ref.replace(/^#\/(definitions|\$defs)\//, '')] as Schema | undefined;
      else if (n.if && n.then)
        n = dispatched(n, defs); // a discriminated base: the fields of any of its subtypes
      else if (Array.isArray(n.anyOf)) n = (n.anyOf as Schema[]).find((x) => x.type !== 'null') ?? (n.anyOf[0] as Schema);
      else if (Array.isArray(n.oneOf)) n = (n.oneOf as Schema[]).find((x) => x.type !== 'null') ?? (n.oneOf[0] as Schema);
      else if (Array.isArray(n.allOf) && n.allOf.length === 1) n = n.allOf[0] as Schema;
      else break;
    }
    return n;
  };
  /** Every branch of a dispatch on objectType, its properties merged: a request may send any subtype. */
  const dispatched = (n: Schema, defs: Record<string, unknown>): Schema => {
    const properties: Record<string, unknown> = {};
    for (let b: Schema | undefined = n; b; b = b.else as Schema | undefined) {
      const branch = resolve((b.then ?? b) as Schema, defs);
      Object.assign(properties, branch?.properties ?? {});
      if (!b.then) break;
    }
    return { type: 'object', properties };
  };
  const ourDefs = (ours.$defs ?? ours.definitions ?? {}) as Record<string, unknown>;
  const found: string[] = [];
  const walk = (a: Schema | undefined, b: Schema | undefined, at: string, depth: number) => {
    a = resolve(a, ourDefs);
    b = resolve(b, theirs.definitions);
    if (!a || !b || depth > 12) return;
    if (a.properties && b.properties) {
      for (const [name, sub] of Object.entries(a.properties as Record<string, Schema>)) {
        const other = (b.properties as Record<string, Schema>)[name];
        if (!other) found.push(`${at}/${name}`);
        else walk(sub, other, `${at}/${name}`, depth + 1);
      }
    }
    if (a.items && b.items) walk(a.items as Schema, b.items as Schema, `${at}/*`, depth + 1);
  };
  walk(ours, theirs.schema, '#', 0);
  return found;
}
