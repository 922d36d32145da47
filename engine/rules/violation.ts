import type { DecisionTrace } from './decision.ts';
import type { ErrorCatalogue, Language, LocalizedText, TextCatalogue } from './schemas.ts';

/**
 * A phrase of rules/errors.yaml `texts`, filled with its own parameters when the Problem is rendered in the
 * caller's language: reasons, operation and resource names are phrases, never English written in the code.
 */
export interface Phrase {
  readonly phrase: string;
  readonly params?: Readonly<Record<string, unknown>>;
}
export const phrase = (key: string, params?: Record<string, unknown>): Phrase => ({ phrase: key, ...(params ? { params } : {}) });
const isPhrase = (v: unknown): v is Phrase => !!v && typeof v === 'object' && typeof (v as Phrase).phrase === 'string';

/** Something said to the caller: a phrase, a text in both languages, or a value shown as it is (an id, a code). */
export type Said = string | Phrase | LocalizedText;

/** Where in the request a problem lies: a JSON pointer into the body (`#/offers/0/offerId`), or a header/parameter name. */
export interface ProblemPointer {
  requestPointer: string;
  detail?: Said;
}

/** A rendered pointer: its detail in the caller's language. */
interface RenderedPointer {
  requestPointer: string;
  detail?: string;
}

/**
 * A broken rule: a code from rules/errors.yaml, the parameters its texts need, where in the request it lies,
 * and the decisions that led to it. The engine raises these; the adapter renders them as Problems.
 */
export class RuleViolation extends Error {
  readonly code: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly pointers: readonly ProblemPointer[];
  readonly traces: readonly DecisionTrace[];
  constructor(code: string, params: Readonly<Record<string, unknown>> = {}, pointers: readonly ProblemPointer[] = [], traces: readonly DecisionTrace[] = []) {
    super(`${code} ${JSON.stringify(params)}`);
    this.code = code;
    this.params = params;
    this.pointers = pointers;
    this.traces = traces;
    this.name = 'RuleViolation';
  }
}

export function violation(
  code: string,
  params: Record<string, unknown> = {},
  pointer?: string | ProblemPointer[],
  traces: readonly DecisionTrace[] = [],
): RuleViolation {
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
  pointers?: RenderedPointer[];
}

/** A value in the caller's language: a phrase from the catalogue, one of two texts, or the value itself. */
function say(value: unknown, language: Language, texts: TextCatalogue = {}): string {
  if (isPhrase(value)) {
    const text = texts[value.phrase];
    return text ? fill(text[language], value.params ?? {}, language, texts) : value.phrase;
  }
  if (value && typeof value === 'object' && language in value) return String((value as Record<string, unknown>)[language]);
  return String(value);
}

/** Fills `{name}` from the parameters, each said in the caller's language (see `say`). */
export function fill(template: string, params: Readonly<Record<string, unknown>>, language: Language, texts: TextCatalogue = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    return value === undefined ? whole : say(value, language, texts);
  });
}

export function renderProblem(errors: ErrorCatalogue, language: Language, v: RuleViolation, instance?: string, texts: TextCatalogue = {}): Problem {
  const entry = errors[v.code] ?? errors['INTERNAL_ERROR']!;
  const code = errors[v.code] ? v.code : 'INTERNAL_ERROR';
  return {
    code,
    type: `/errors/${code}`,
    title: entry.title[language],
    status: entry.status,
    detail: fill(entry.detail[language], v.params, language, texts),
    ...(instance ? { instance } : {}),
    ...(v.pointers.length > 0
      ? {
          pointers: v.pointers.map((p) => ({
            requestPointer: p.requestPointer,
            ...(p.detail !== undefined ? { detail: say(p.detail, language, texts) } : {}),
          })),
        }
      : {}),
  };
}

/** Turns a zod error path into the pointer form of OSDM examples: `#/tripSpecifications/0/legs`. */
export function pointerOf(path: readonly PropertyKey[]): string {
  return `#/${path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}
