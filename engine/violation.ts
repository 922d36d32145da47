import type { DecisionTrace } from './rules/decision.ts';
import type { ErrorCatalogue, Language } from './rules/schemas.ts';

/** Where in the request a problem lies: a JSON pointer into the body (`#/offers/0/offerId`), or a header/parameter name. */
export interface ProblemPointer {
  requestPointer: string;
  detail?: string;
}

/**
 * A broken rule: a code from rules/errors.yaml, the parameters its texts need, where in the request it lies,
 * and the decisions that led to it. The engine raises these; the adapter renders them as Problems.
 */
export class RuleViolation extends Error {
  constructor(
    readonly code: string,
    readonly params: Readonly<Record<string, unknown>> = {},
    readonly pointers: readonly ProblemPointer[] = [],
    readonly traces: readonly DecisionTrace[] = [],
  ) {
    super(`${code} ${JSON.stringify(params)}`);
    this.name = 'RuleViolation';
  }
}

export function violation(code: string, params: Record<string, unknown> = {}, pointer?: string | ProblemPointer[], traces: readonly DecisionTrace[] = []): RuleViolation {
  const pointers = pointer === undefined ? [] : typeof pointer === 'string' ? [{ requestPointer: pointer }] : pointer;
  return new RuleViolation(code, params, pointers, traces);
}

/** RFC 9457 / OSDM Problem (CONTRACT §5). */
export interface Problem {
  code: string;
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  pointers?: ProblemPointer[];
}

/** Fills `{name}` from the parameters; a parameter given in both languages ({en-GB, sv-SE}) speaks the caller's. */
export function fill(template: string, params: Readonly<Record<string, unknown>>, language: Language): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    if (value && typeof value === 'object' && language in value) return String((value as Record<string, unknown>)[language]);
    return String(value);
  });
}

export function renderProblem(errors: ErrorCatalogue, language: Language, v: RuleViolation, instance?: string): Problem {
  const entry = errors[v.code] ?? errors['INTERNAL_ERROR']!;
  const code = errors[v.code] ? v.code : 'INTERNAL_ERROR';
  return {
    code,
    type: `/errors/${code}`,
    title: entry.title[language],
    status: entry.status,
    detail: fill(entry.detail[language], v.params, language),
    ...(instance ? { instance } : {}),
    ...(v.pointers.length > 0 ? { pointers: v.pointers.map((p) => ({ ...p })) } : {}),
  };
}

/** Turns a zod error path into the pointer form of OSDM examples: `#/tripSpecifications/0/legs`. */
export function pointerOf(path: readonly PropertyKey[]): string {
  return `#/${path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}
