import type { z } from 'zod';

/**
 * A zod schema compiled once into a plain yes/no test of a JSON value, for the scenario runner's check of every
 * response (api-schema.ts): zod's own parse copies the whole body on the way, which cost the runner a sixth of
 * its speed (the goal: 2,000 steps/s). The test understands the kinds of schema the response schemas use;
 * for any other kind, or a check it does not know, `compileTest` answers undefined and the caller parses with zod.
 * Only a "no" needs zod's issues: the caller parses the body again then, to say where and why.
 */
export type Test = (value: unknown) => boolean;

type Def = { type: string; checks?: Array<{ _zod: { def: CheckDef } }>; [key: string]: unknown };
type CheckDef = { check: string; format?: string; pattern?: RegExp; minimum?: number; maximum?: number; length?: number; value?: number; inclusive?: boolean };

const compiled = new WeakMap<z.ZodType, Test | null>();

export function compileTest(schema: z.ZodType): Test | undefined {
  return testOf(schema) ?? undefined;
}

function testOf(schema: z.ZodType): Test | null {
  const known = compiled.get(schema);
  if (known !== undefined) return known;
  // A placeholder first, so a schema that contains itself is not compiled forever (it falls back to zod).
  compiled.set(schema, null);
  const test = build(schema);
  compiled.set(schema, test);
  return test;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function build(schema: z.ZodType): Test | null {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  const checks = (def.checks ?? []).map((c) => c._zod.def);
  const inner = (key: string) => testOf(def[key] as z.ZodType);
  switch (def.type) {
    case 'string': {
      const parts = checks.map(stringCheck);
      if (parts.some((p) => p === null)) return null;
      if (parts.length === 0) return (v) => typeof v === 'string';
      if (parts.length === 1) {
        const p = parts[0]!;
        return (v) => typeof v === 'string' && p(v);
      }
      return (v) => typeof v === 'string' && parts.every((p) => p!(v));
    }
    case 'number': {
      const parts = checks.map(numberCheck);
      if (parts.some((p) => p === null)) return null;
      if (parts.length === 1) {
        const p = parts[0]!;
        return (v) => typeof v === 'number' && Number.isFinite(v) && p(v);
      }
      return (v) => typeof v === 'number' && Number.isFinite(v) && parts.every((p) => p!(v));
    }
    case 'boolean':
      return checks.length ? null : (v) => typeof v === 'boolean';
    case 'undefined':
      return (v) => v === undefined;
    case 'unknown':
    case 'any':
      return () => true;
    case 'literal': {
      const values = def['values'] as unknown[];
      return (v) => values.includes(v);
    }
    case 'enum': {
      const values = Object.values(def['entries'] as Record<string, unknown>);
      return (v) => values.includes(v);
    }
    case 'optional':
    case 'default': {
      const t = inner('innerType');
      return t && ((v) => v === undefined || t(v));
    }
    case 'nullable': {
      const t = inner('innerType');
      return t && ((v) => v === null || t(v));
    }
    case 'readonly':
      return inner('innerType');
    case 'array': {
      const element = inner('element');
      const sizes = checks.map(sizeCheck);
      if (!element || sizes.some((s) => s === null)) return null;
      return (v) => {
        if (!Array.isArray(v) || !sizes.every((s) => s!(v.length))) return false;
        for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
        return true;
      };
    }
    case 'union': {
      const options = (def['options'] as z.ZodType[]).map(testOf);
      if (options.some((o) => o === null)) return null;
      return (v) => options.some((o) => o!(v));
    }
    case 'record': {
      const key = inner('keyType');
      const value = inner('valueType');
      if (!key || !value || checks.length) return null;
      return (v) => isPlainObject(v) && Object.entries(v).every(([k, x]) => key(k) && value(x));
    }
    case 'object':
      return checks.length ? null : objectTest(def);
    default:
      return null;
  }
}

/** Every field of the shape; other fields refused (strict), allowed (catchall unknown, or a plain object, which zod strips), or tested. */
function objectTest(def: Def): Test | null {
  const shape = def['shape'] as Record<string, z.ZodType>;
  const fields = Object.entries(shape).map(([k, s]) => [k, testOf(s)] as const);
  if (fields.some(([, t]) => t === null)) return null;
  const catchall = def['catchall'] as z.ZodType | undefined;
  const catchallType = catchall && (catchall as unknown as { _zod: { def: Def } })._zod.def.type;
  const extra =
    catchall === undefined || catchallType === 'unknown' || catchallType === 'any' ? 'allow' : catchallType === 'never' ? 'refuse' : testOf(catchall);
  if (extra === null) return null;
  const keys = fields.map(([k]) => k);
  const tests = fields.map(([, t]) => t!);
  return (v) => {
    if (!isPlainObject(v)) return false;
    for (let i = 0; i < keys.length; i++) if (!tests[i]!(v[keys[i]!])) return false;
    if (extra === 'allow') return true;
    for (const k in v) {
      if (Object.hasOwn(shape, k)) continue;
      if (extra === 'refuse' || !extra(v[k])) return false;
    }
    return true;
  };
}

function stringCheck(c: CheckDef): ((v: string) => boolean) | null {
  if (c.check === 'string_format' && c.format === 'regex' && c.pattern) {
    const pattern = c.pattern;
    return (v) => {
      pattern.lastIndex = 0;
      return pattern.test(v);
    };
  }
  if (c.check === 'min_length' || c.check === 'max_length' || c.check === 'length_equals') {
    const size = sizeCheck(c);
    return size && ((v) => size(v.length));
  }
  return null;
}

function numberCheck(c: CheckDef): ((v: number) => boolean) | null {
  if (c.check === 'number_format' && c.format === 'safeint') return Number.isSafeInteger;
  if (c.check === 'greater_than') return c.inclusive ? (v) => v >= c.value! : (v) => v > c.value!;
  if (c.check === 'less_than') return c.inclusive ? (v) => v <= c.value! : (v) => v < c.value!;
  return null;
}

function sizeCheck(c: CheckDef): ((n: number) => boolean) | null {
  if (c.check === 'min_length') return (n) => n >= c.minimum!;
  if (c.check === 'max_length') return (n) => n <= c.maximum!;
  if (c.check === 'length_equals') return (n) => n === c.length!;
  return null;
}
