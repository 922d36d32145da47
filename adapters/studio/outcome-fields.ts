import { z } from 'zod';
import type { DecisionName, RuleSet } from '../../engine/index.ts';
import { DATE_TIME_WITH_OFFSET, LocalizedText, outcomeCatalogue } from '../../engine/rules/index.ts';
import type { OutcomeField } from '../http/openapi/studio-schemas.ts';

/**
 * What a row's `then` may say, as editors: the decision's outcome catalogue (engine/rules/outcomes.ts) read key by
 * key, so the page offers a list for a closed vocabulary, a number within its bounds, a checkbox, a text in every
 * language side by side; a refusal's code is one of the error catalogue's. Values the catalogue leaves open (an
 * instant that may be an expression, a refusal's parameters) are edited as JSON.
 */
export function outcomeFields(rules: RuleSet, decision: DecisionName): OutcomeField[] {
  const entry = outcomeCatalogue[decision];
  const fields = Object.entries(entry.outcome.shape as Record<string, z.ZodType>).map(([name, schema]) => fieldOf(name, schema));
  if (!entry.rejects) return fields;
  return [
    ...fields,
    { name: 'reject', kind: 'enum', values: Object.keys(rules.errors).sort(), optional: true },
    { name: 'pointer', kind: 'string', optional: true },
    { name: 'params', kind: 'json', optional: true },
  ];
}

function fieldOf(name: string, declared: z.ZodType): OutcomeField {
  const optional = declared instanceof z.ZodOptional;
  const schema = optional ? (declared.def.innerType as z.ZodType) : declared;
  const base = { name, ...(optional ? { optional: true } : {}) };
  if (schema === LocalizedText) return { ...base, kind: 'text', values: Object.keys(LocalizedText.shape) };
  if (schema instanceof z.ZodEnum) return { ...base, kind: 'enum', values: schema.options as string[] };
  if (schema instanceof z.ZodLiteral)
    return [...schema.values].every((v) => typeof v === 'boolean')
      ? { ...base, kind: 'boolean' }
      : { ...base, kind: 'enum', values: [...schema.values].map(String) };
  if (schema instanceof z.ZodBoolean) return { ...base, kind: 'boolean' };
  if (schema instanceof z.ZodNumber) {
    return {
      ...base,
      kind: schema.format === 'safeint' ? 'integer' : 'number',
      ...(bounded(schema.minValue) ? { min: schema.minValue } : {}),
      ...(bounded(schema.maxValue) ? { max: schema.maxValue } : {}),
    };
  }
  if (schema instanceof z.ZodArray && schema.element instanceof z.ZodString) return { ...base, kind: 'list' };
  // An instant may also be an expression over the facts (`{ earliest: [...] }`): JSON, like the other open values.
  if (schema instanceof z.ZodString && patternOf(schema) !== DATE_TIME_WITH_OFFSET.source) {
    const pattern = patternOf(schema);
    return { ...base, kind: 'string', ...(pattern ? { pattern } : {}) };
  }
  return { ...base, kind: 'json' };
}

const patternOf = (s: z.ZodString): string | undefined => (s.def.checks ?? []).map((c) => (c._zod.def as { pattern?: RegExp }).pattern?.source).find(Boolean);
/** A bound the schema sets, not zod's default for integers (±2^53 − 1). */
const bounded = (n: number | null): n is number => n !== null && Number.isFinite(n) && Math.abs(n) < Number.MAX_SAFE_INTEGER;
