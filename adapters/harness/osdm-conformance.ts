import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { operationOf as ourOperationOf } from '../http/operations/index.ts';
import { deviationOf, type Deviation, type Violation } from './osdm-deviations.ts';

/**
 * Checks Reseller API responses against the official OSDM 3.4 OpenAPI document (CONTRACT §4c), read as it
 * is (never copied into the project), so drift from OSDM shows up where signalbox's own schemas cannot see it.
 *
 * The document is OpenAPI 3.0; three of its details need translating before a JSON Schema validator can
 * read it literally:
 * - `nullable: true` becomes a type that also admits null;
 * - a schema with a `discriminator` on `objectType` and subtypes (`allOf: [$ref base, …]`) is checked as the
 *   subtype its `objectType` names (OpenAPI's implicit mapping: the schema name), else as the base;
 * - an `allOf` chain is merged into one object with every property of the chain, closed where any part of it
 *   is closed: read literally, `allOf` plus `additionalProperties: false` rejects every subtype, and merged it
 *   still catches a property no part of the chain defines.
 */

export type { Violation } from './osdm-deviations.ts';

/** A violation that CONTRACT §4c allows, with the deviation that allows it. */
interface Allowed extends Violation {
  deviation: Deviation['id'];
}

export interface OsdmCheck {
  violations: Violation[];
  allowed: Allowed[];
}

export interface OsdmConformance {
  /** The document's path, as given. */
  readonly source: string;
  /** Checks one response of the Reseller API (a path under /v3); other paths are not OSDM's and give nothing. */
  check(method: string, path: string, status: number, body: unknown): OsdmCheck;
  /**
   * The request body schema OSDM gives the operation at `path` (under /v3, the operator's aliases followed), as JSON
   * Schema with `$ref`s into `definitions` (`#/definitions/Name`); undefined when OSDM has no such operation or body.
   */
  requestSchema(method: string, path: string): { schema: Schema; definitions: Record<string, unknown> } | undefined;
  /** The same for the answer of that status (or OSDM's `default`). */
  responseSchema(method: string, path: string, status: number): { schema: Schema; definitions: Record<string, unknown> } | undefined;
}

type Schema = Record<string, unknown>;

/** A violation's pointer with its array indices as `*`: the same root cause in every response it shows in. */
export function signatureOf(v: Violation): string {
  return `${v.operation} ${v.status} ${v.pointer.replace(/\/\d+(?=\/|$)/g, '/*')}: ${v.message}`;
}

const cache = new Map<string, OsdmConformance>();

/** The checker for the OSDM document at `file`, built once per process (compiling it takes about a second). */
export function osdmConformance(file: string): OsdmConformance {
  let known = cache.get(file);
  if (!known) cache.set(file, (known = build(file)));
  return known;
}

/** Where the test suite finds the document: beside the project (../shared), never inside it. */
export const DEFAULT_OSDM_DOCUMENT = new URL('../../../shared/osdm/OSDM-online-api-v3.4.0.yml', import.meta.url).pathname;

/** The default document's checker, or why there is none (a checkout without ../shared). */
export function defaultOsdmConformance(): OsdmConformance | { missing: string } {
  if (!existsSync(DEFAULT_OSDM_DOCUMENT)) return { missing: `${DEFAULT_OSDM_DOCUMENT} is not there (a checkout without ../shared)` };
  return osdmConformance(DEFAULT_OSDM_DOCUMENT);
}

interface Operation {
  method: string;
  operationId?: string;
  template: string;
  pattern: RegExp;
  params: number;
  responses: Record<string, unknown>;
  requestBody?: Schema;
}

function build(file: string): OsdmConformance {
  const doc = readDocument(file) as {
    paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown>; requestBody?: Schema }>>;
    components: { schemas: Record<string, Schema>; responses: Record<string, Schema> };
  };
  const components = doc.components.schemas;
  const definitions = translate(components);
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  (addFormatsModule as unknown as (a: Ajv) => void)(ajv);
  ajv.addSchema({ $id: 'osdm', definitions });

  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!op?.responses) continue;
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      operations.push({
        method,
        template,
        pattern,
        params: (template.match(/\{/g) ?? []).length,
        responses: op.responses,
        ...(op.operationId ? { operationId: op.operationId } : {}),
        ...(op.requestBody ? { requestBody: op.requestBody } : {}),
      });
    }
  }
  // A literal segment wins over a parameter: /availabilities/place-map before a templated sibling.
  operations.sort((a, b) => a.params - b.params);

  /** The body schema of a request body or a response (`$ref`s to components/responses followed). */
  const bodySchemaOf = (body: Schema | undefined): Schema | undefined => {
    const ref = body?.$ref as string | undefined;
    const resolved = ref ? doc.components.responses[ref.split('/').pop()!] : body;
    const content = resolved?.content as Record<string, { schema?: Schema }> | undefined;
    return content && Object.values(content).find((c) => c.schema)?.schema;
  };
  const translated = (schema: Schema | undefined) =>
    schema ? { schema: rewriteRefs(convert(schema, components), '#/definitions/') as Schema, definitions } : undefined;

  const compiled = new Map<string, ValidateFunction | null>();
  const validatorOf = (op: Operation, statusKey: string): ValidateFunction | null => {
    const key = `${op.method} ${op.template} ${statusKey}`;
    if (compiled.has(key)) return compiled.get(key)!;
    const schema = bodySchemaOf(op.responses[statusKey] as Schema);
    const validate = schema ? ajv.compile(rewriteRefs(convert(schema, components)) as Schema) : null;
    compiled.set(key, validate);
    return validate;
  };

  // For answers at paths OSDM does not have (an unknown route's 404): OSDM's Problem, where the document has one.
  let problemValidator: ValidateFunction | null | undefined;
  const problem = () => (problemValidator ??= components['Problem'] ? ajv.compile({ $ref: 'osdm#/definitions/Problem' }) : null);
  /**
   * OSDM's operation for a request to `/v3` + path: the one OSDM has at that path, else the one OSDM operation our
   * route table says the operation at that path stands for (an operator's path such as POST /booking, CONTRACT §6).
   */
  const operationOf = (method: string, path: string): { op: Operation; alias: boolean } | undefined => {
    const m = method.toLowerCase();
    const atPath = operations.find((o) => o.method === m && o.pattern.test(path));
    if (atPath) return { op: atPath, alias: false };
    const ours = ourOperationOf(method, `/v3${path}`)?.osdm ?? [];
    const standsFor = ours.length === 1 ? operations.find((o) => o.method === m && o.operationId === ours[0]) : undefined;
    return standsFor && { op: standsFor, alias: true };
  };

  return {
    source: file,
    requestSchema(method, path) {
      const op = operationOf(method, path.replace(/^\/v3/, ''))?.op;
      return translated(bodySchemaOf(op?.requestBody));
    },
    responseSchema(method, path, status) {
      const op = operationOf(method, path.replace(/^\/v3/, ''))?.op;
      const key = op && (String(status) in op.responses ? String(status) : 'default' in op.responses ? 'default' : undefined);
      return op && key ? translated(bodySchemaOf(op.responses[key] as Schema)) : undefined;
    },
    check(method, rawPath, status, body) {
      const found: OsdmCheck = { violations: [], allowed: [] };
      const path = rawPath.split('?')[0]!;
      if (!path.startsWith('/v3/')) return found;
      const asked = `${method.toUpperCase()} ${path.slice(3)}`;
      const report = (v: Violation) => {
        const deviation = deviationOf(v, asked);
        if (deviation) found.allowed.push({ ...v, deviation: deviation.id });
        else found.violations.push(v);
      };
      const osdmOperation = operationOf(method, path.slice(3));
      if (!osdmOperation) {
        // A path OSDM does not have may still be refused as OSDM refuses anything: with a Problem.
        if (status < 400) report({ operation: asked, status, pointer: '', message: 'no such operation in OSDM 3.4' });
        else {
          const validate = problem();
          if (validate && !validate(body))
            for (const e of relevant(validate.errors ?? [])) report({ operation: asked, status, pointer: e.instancePath, message: describe(e) });
        }
        return found;
      }
      const { op, alias } = osdmOperation;
      const operation = `${method.toUpperCase()} ${op.template}`;
      if (alias) report({ operation, status, pointer: '', message: `answered at the operator's path ${path.slice(3)}` });
      const statusKey = String(status) in op.responses ? String(status) : 'default' in op.responses ? 'default' : undefined;
      if (!statusKey) {
        report({ operation, status, pointer: '', message: `status ${status} is not an answer of this operation in OSDM 3.4` });
        return found;
      }
      if (statusKey === 'default' && status < 400)
        report({ operation, status, pointer: '', message: `status ${status} is not an answer of this operation in OSDM 3.4` });
      else if (statusKey === 'default') report({ operation, status, pointer: '', message: `status ${status} is left to OSDM's default answer` });
      const validate = validatorOf(op, statusKey);
      if (!validate) {
        if (body !== undefined && body !== '') report({ operation, status, pointer: '', message: 'a body where OSDM defines none' });
        return found;
      }
      if (body === undefined || body === '') {
        report({ operation, status, pointer: '', message: 'an empty body where OSDM defines one' });
        return found;
      }
      if (!validate(body)) for (const e of relevant(validate.errors ?? [])) report({ operation, status, pointer: e.instancePath, message: describe(e) });
      return found;
    },
  };
}

/** ajv's own words, with the property or value it is about. */
function describe(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  if (e.keyword === 'additionalProperties') return `property ${String(p.additionalProperty)} is not defined here`;
  if (e.keyword === 'required') return `required property ${String(p.missingProperty)} is missing`;
  if (e.keyword === 'enum') return `${e.message}: ${(p.allowedValues as unknown[]).join(', ')}`;
  return e.message ?? e.keyword;
}

/** The errors worth a line: not the `if` that merely picked a subtype, nor the null branch a nullable type also offers. */
function relevant(errors: readonly ErrorObject[]): ErrorObject[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    if (e.keyword === 'if' || e.keyword === 'anyOf') return false;
    if (e.keyword === 'type' && (e.params as { type?: string }).type === 'null') return false;
    const key = `${e.instancePath} ${describe(e)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const REF = '#/components/schemas/';
const nameOf = (ref: string) => ref.slice(REF.length);

/**
 * Every component schema as a JSON Schema definition: a discriminated base becomes a dispatch on
 * `objectType` to its subtypes (closed, merged), with `Name__base` the base itself, closed.
 */
function translate(components: Record<string, Schema>): Record<string, unknown> {
  const subtypes = new Map<string, string[]>();
  for (const [name, schema] of Object.entries(components)) {
    for (const part of (schema.allOf as Schema[] | undefined) ?? []) {
      const ref = part.$ref as string | undefined;
      if (ref) subtypes.set(nameOf(ref), [...(subtypes.get(nameOf(ref)) ?? []), name]);
    }
  }
  // Subtypes of subtypes dispatch from the root too.
  const allSubtypes = (name: string): string[] => (subtypes.get(name) ?? []).flatMap((s) => [s, ...allSubtypes(s)]);
  const definitions: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(components)) {
    const merged = convert(mergeAllOf(schema, components), components);
    const discriminated = (schema.discriminator as { propertyName?: string } | undefined)?.propertyName;
    const subs = discriminated ? allSubtypes(name) : [];
    if (subs.length === 0) {
      definitions[name] = merged;
      continue;
    }
    definitions[`${name}__base`] = merged;
    let dispatch: Schema = { $ref: `#/definitions/${name}__base` };
    for (const sub of subs.reverse()) {
      dispatch = {
        if: { type: 'object', required: [discriminated], properties: { [discriminated!]: { const: sub } } },
        then: { $ref: `#/definitions/${sub}` },
        else: dispatch,
      };
    }
    definitions[name] = dispatch;
  }
  return rewriteRefs(definitions, '#/definitions/') as Record<string, unknown>;
}

const isObjectSchema = (s: Schema) => s.type === 'object' || s.properties !== undefined;

/** The `allOf` chain of an object schema as one object: every property, every required one, closed if any part is. */
function mergeAllOf(schema: Schema, components: Record<string, Schema>): Schema {
  const parts = schema.allOf as Schema[] | undefined;
  if (!parts) return schema;
  const resolved = parts.map((p) => (p.$ref ? mergeAllOf(components[nameOf(p.$ref as string)]!, components) : mergeAllOf(p, components)));
  if (!resolved.every(isObjectSchema)) return schema;
  const { allOf: _, discriminator: __, ...own } = schema;
  const merged: Schema = { ...own, type: 'object', properties: {}, required: [] };
  for (const part of [...resolved, own]) {
    Object.assign(merged.properties as Schema, part.properties ?? {});
    (merged.required as string[]).push(...((part.required as string[] | undefined) ?? []));
    if (part.additionalProperties === false) merged.additionalProperties = false;
  }
  merged.required = [...new Set(merged.required as string[])];
  return merged;
}

/** OpenAPI 3.0 to JSON Schema, node by node: `nullable`, and `allOf` chains merged wherever they appear. */
function convert(node: unknown, components: Record<string, Schema>): unknown {
  if (Array.isArray(node)) return node.map((n) => convert(n, components));
  if (!node || typeof node !== 'object') return node;
  let schema = node as Schema;
  if (schema.allOf) schema = mergeAllOf(schema, components);
  const { nullable, discriminator: _, example: __, ...rest } = schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(rest)) {
    if (k === 'properties') out[k] = Object.fromEntries(Object.entries(v as Schema).map(([p, s]) => [p, convert(s, components)]));
    else if (k === 'items' || k === 'additionalProperties' || k === 'not' || k === 'allOf' || k === 'anyOf' || k === 'oneOf') out[k] = convert(v, components);
    else out[k] = v;
  }
  if (nullable !== true) return out;
  if (out.$ref || out.allOf) return { anyOf: [{ type: 'null' }, out] };
  if (typeof out.type === 'string') out.type = [out.type, 'null'];
  if (Array.isArray(out.enum)) out.enum = [...(out.enum as unknown[]), null];
  return out;
}

/** `#/components/schemas/X` to the definitions registered under the id `osdm`. */
function rewriteRefs(node: unknown, to = 'osdm#/definitions/'): unknown {
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, to));
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith(REF) ? to + nameOf(v) : rewriteRefs(v, to)]),
  );
}

/**
 * The document parsed, through a JSON copy in the temporary folder keyed by the file's path, size and time: parsing
 * the document's YAML is much of what a checker costs, and every test file that checks answers builds one.
 */
function readDocument(file: string): unknown {
  const { size, mtimeMs } = statSync(file);
  const key = createHash('sha256')
    .update(`${resolve(file)} ${size} ${mtimeMs}`)
    .digest('hex')
    .slice(0, 16);
  const cached = join(tmpdir(), `signalbox-osdm-${key}.json`);
  try {
    return JSON.parse(readFileSync(cached, 'utf8'));
  } catch {
    const doc: unknown = parse(readFileSync(file, 'utf8'));
    // Written whole under another name, then renamed: a parallel reader never sees half a file.
    try {
      writeFileSync(`${cached}.${process.pid}`, JSON.stringify(doc));
      renameSync(`${cached}.${process.pid}`, cached);
    } catch {
      /* a cache only */
    }
    return doc;
  }
}

/** A list of known violations: one signature (signatureOf) a line; `#` comments and blank lines skipped. */
export function readKnownViolations(file: string): Set<string> {
  return new Set(
    readFileSync(file, 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#')),
  );
}
