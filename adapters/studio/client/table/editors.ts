import type { FactField, OutcomeField } from '../../../http/openapi/studio-schemas.ts';
import { h } from '../dom.ts';

/**
 * Typed editors for a table's cells, built from the decision's fact and outcome catalogues: a list for a closed
 * vocabulary, number inputs and a range with its two bounds, booleans, instants compared with another instant fact
 * moved by a duration, a text in every language side by side. What they produce is the cell's value; the page sends it
 * as JSON, which is YAML too, and the server writes it into the file in the file's own style. Only values the
 * catalogues leave open (a refusal's parameters, an instant given as an expression) are edited as JSON.
 */

type Changed = (value: unknown) => void;

// ---------------------------------------------------------------- conditions

const NUMERIC = ['between', 'greaterThan', 'greaterThanInclusive', 'lessThan', 'lessThanInclusive'] as const;
const TIME = ['before', 'after', 'notBefore', 'notAfter'] as const;
type TimeOperator = (typeof TIME)[number];

type Condition =
  | { op: 'any' }
  | { op: 'is' | 'is not'; value: unknown }
  | { op: 'one of' | 'none of'; values: unknown[] }
  | { op: 'range'; low?: number; lowInclusive: boolean; high?: number; highInclusive: boolean }
  | { op: TimeOperator; fact?: string; instant?: string; sign: 'plus' | 'minus'; amount?: number; unit: 'M' | 'H' | 'D' }
  | { op: 'json'; text: string };

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** A duration of one unit (`PT60M`, `PT24H`, `P1D`) as amount and unit; anything else is not one. */
function readDuration(d: string | undefined): { amount?: number; unit: 'M' | 'H' | 'D' } | undefined {
  if (d === undefined) return { unit: 'H' };
  const m = /^P(?:(\d+)D|T(\d+)([HM]))$/.exec(d);
  if (!m) return undefined;
  return m[1] !== undefined ? { amount: Number(m[1]), unit: 'D' } : { amount: Number(m[2]), unit: m[3] as 'H' | 'M' };
}

function readCondition(value: unknown, kind: FactField['kind']): Condition {
  if (value === undefined) return { op: 'any' };
  if (!isObject(value)) return { op: 'is', value };
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === 'equal') return { op: 'is', value: value['equal'] };
  if (keys.length === 1 && keys[0] === 'notEqual') return { op: 'is not', value: value['notEqual'] };
  if (keys.length === 1 && (keys[0] === 'in' || keys[0] === 'notIn') && Array.isArray(value[keys[0]]))
    return { op: keys[0] === 'in' ? 'one of' : 'none of', values: value[keys[0]] as unknown[] };
  if (kind === 'number' && keys.every((k) => (NUMERIC as readonly string[]).includes(k))) {
    const b = value['between'];
    if (Array.isArray(b) && keys.length === 1) return { op: 'range', low: b[0] as number, lowInclusive: true, high: b[1] as number, highInclusive: true };
    const lows = keys.filter((k) => k.startsWith('greater'));
    const highs = keys.filter((k) => k.startsWith('less'));
    if (!b && lows.length <= 1 && highs.length <= 1)
      return {
        op: 'range',
        ...(lows[0] ? { low: value[lows[0]] as number } : {}),
        lowInclusive: lows[0] !== 'greaterThan',
        ...(highs[0] ? { high: value[highs[0]] as number } : {}),
        highInclusive: highs[0] !== 'lessThan',
      };
  }
  if (keys.length === 1 && (TIME as readonly string[]).includes(keys[0]!)) {
    const op = keys[0] as TimeOperator;
    const target = value[op];
    if (typeof target === 'string') return { op, instant: target, sign: 'plus', unit: 'H' };
    if (isObject(target) && typeof target['fact'] === 'string') {
      const sign = target['minus'] !== undefined ? 'minus' : 'plus';
      const d = readDuration(target[sign] as string | undefined);
      if (d) return { op, fact: target['fact'], sign, ...d };
    }
  }
  return { op: 'json', text: JSON.stringify(value) };
}

function writeCondition(c: Condition): unknown {
  switch (c.op) {
    case 'any':
      return undefined;
    case 'is':
      return c.value;
    case 'is not':
      return { notEqual: c.value };
    case 'one of':
      return { in: c.values };
    case 'none of':
      return { notIn: c.values };
    case 'range': {
      if (c.low === undefined && c.high === undefined) return undefined;
      if (c.low !== undefined && c.high !== undefined && c.lowInclusive && c.highInclusive) return { between: [c.low, c.high] };
      return {
        ...(c.low !== undefined ? { [c.lowInclusive ? 'greaterThanInclusive' : 'greaterThan']: c.low } : {}),
        ...(c.high !== undefined ? { [c.highInclusive ? 'lessThanInclusive' : 'lessThan']: c.high } : {}),
      };
    }
    case 'json':
      try {
        return JSON.parse(c.text) as unknown;
      } catch {
        return c.text;
      }
    default: {
      if (c.fact === undefined) return { [c.op]: c.instant ?? '' };
      const duration = c.amount ? (c.unit === 'D' ? `P${c.amount}D` : `PT${c.amount}${c.unit}`) : undefined;
      return { [c.op]: { fact: c.fact, ...(duration ? { [c.sign]: duration } : {}) } };
    }
  }
}

const OPERATORS: Record<FactField['kind'], Array<Condition['op']>> = {
  enum: ['any', 'is', 'is not', 'one of', 'none of'],
  string: ['any', 'is', 'is not', 'one of', 'none of'],
  number: ['any', 'is', 'is not', 'range', 'one of'],
  boolean: ['any', 'is'],
  instant: ['any', ...TIME],
};
const OPERATOR_WORDS: Record<Condition['op'], string> = {
  any: 'any',
  is: 'is',
  'is not': 'is not',
  'one of': 'one of',
  'none of': 'none of',
  range: 'from … to',
  before: 'before',
  after: 'after',
  notBefore: 'not before',
  notAfter: 'not after',
  json: 'as JSON',
};

/** A fresh condition of an operator, keeping what can be kept of the one before. */
function switchTo(op: Condition['op'], was: Condition, fact: FactField): Condition {
  const first = fact.kind === 'boolean' ? true : fact.kind === 'number' ? (fact.min ?? 0) : (fact.values?.[0] ?? '');
  const kept = 'value' in was ? was.value : 'values' in was ? was.values[0] : first;
  switch (op) {
    case 'any':
      return { op };
    case 'is':
    case 'is not':
      return { op, value: kept };
    case 'one of':
    case 'none of':
      return { op, values: 'values' in was ? was.values : [kept] };
    case 'range':
      return { op, low: typeof kept === 'number' ? kept : undefined, lowInclusive: true, highInclusive: true };
    case 'json':
      return { op, text: JSON.stringify(writeCondition(was) ?? null) };
    default:
      return { op, sign: 'minus', unit: 'H', ...('fact' in was ? { fact: was.fact, amount: was.amount, unit: was.unit, sign: was.sign } : {}) };
  }
}

/**
 * The editor of one condition cell: the operator, then what it compares with. `instantFacts` are the decision's other
 * instants, which a time operator may compare with.
 */
export function conditionEditor(fact: FactField, instantFacts: string[], value: unknown, label: string, id: string, changed: Changed): HTMLElement {
  let c = readCondition(value, fact.kind);
  const box = h('span', { class: 'cond' });
  const emit = () => changed(writeCondition(c));
  const draw = () => {
    const ops = c.op === 'json' ? [...OPERATORS[fact.kind], 'json' as const] : OPERATORS[fact.kind];
    const op = h(
      'select',
      { id, 'aria-label': `${label}: operator` },
      ops.map((o) => h('option', { value: o, selected: o === c.op }, OPERATOR_WORDS[o])),
    );
    op.addEventListener('change', () => {
      c = switchTo(op.value as Condition['op'], c, fact);
      emit();
      draw();
    });
    box.replaceChildren(op, ...operands(c, fact, instantFacts, label, emit, draw));
  };
  draw();
  return box;
}

function operands(c: Condition, fact: FactField, instantFacts: string[], label: string, emit: () => void, draw: () => void): HTMLElement[] {
  switch (c.op) {
    case 'any':
      return [];
    case 'is':
    case 'is not':
      return [
        valueInput(factAsField(fact), c.value, `${label}: value`, (v) => {
          c.value = v;
          emit();
        }),
      ];
    case 'one of':
    case 'none of':
      return [
        choices(fact, c.values, `${label}: values`, (vs) => {
          c.values = vs;
          emit();
        }),
      ];
    case 'range':
      return [rangeInputs(c, fact, label, emit)];
    case 'json':
      return [
        jsonInput(c.text, `${label}: as JSON`, (text) => {
          c.text = text;
          emit();
        }),
      ];
    default:
      return [instantTarget(c, instantFacts, label, emit, draw)];
  }
}

/** `from [16] ☑ incl.` over `to [64] ☑ incl.`: either bound may be left empty; each inclusive or not. */
function rangeInputs(c: Extract<Condition, { op: 'range' }>, fact: FactField, label: string, emit: () => void): HTMLElement {
  const bound = (which: 'low' | 'high') => {
    const word = which === 'low' ? 'from' : 'to';
    const input = h('input', { type: 'number', class: 'num-input', value: c[which] ?? '', min: fact.min, max: fact.max, 'aria-label': `${label}: ${word}` });
    input.addEventListener('input', () => {
      if (input.value === '') delete c[which];
      else c[which] = Number(input.value);
      emit();
    });
    const key = which === 'low' ? 'lowInclusive' : 'highInclusive';
    const inclusive = h('input', { type: 'checkbox', checked: c[key], 'aria-label': `${label}: ${word} inclusive` });
    inclusive.addEventListener('change', () => {
      c[key] = inclusive.checked;
      emit();
    });
    return h('span', { class: 'bound' }, h('span', { class: 'word' }, word), input, h('label', { class: 'incl' }, inclusive, ' incl.'));
  };
  return h('span', { class: 'range' }, bound('low'), bound('high'));
}

/** The instant a time operator compares with: another instant fact moved by a duration, or a fixed instant. */
function instantTarget(c: Extract<Condition, { op: TimeOperator }>, facts: string[], label: string, emit: () => void, draw: () => void): HTMLElement {
  const FIXED = '';
  const target = h(
    'select',
    { 'aria-label': `${label}: compared with` },
    facts.map((f) => h('option', { value: f, selected: c.fact === f }, f)),
    h('option', { value: FIXED, selected: c.fact === undefined }, 'a fixed instant'),
  );
  target.addEventListener('change', () => {
    if (target.value === FIXED) delete c.fact;
    else c.fact = target.value;
    emit();
    draw();
  });
  if (c.fact === undefined) {
    const instant = h('input', { value: c.instant ?? '', placeholder: '2026-12-13T00:00:00+01:00', 'aria-label': `${label}: instant`, size: 24 });
    instant.addEventListener('input', () => {
      c.instant = instant.value;
      emit();
    });
    return h('span', { class: 'instant' }, target, instant);
  }
  const sign = h(
    'select',
    { 'aria-label': `${label}: plus or minus` },
    h('option', { value: 'plus', selected: c.sign === 'plus' }, '+'),
    h('option', { value: 'minus', selected: c.sign === 'minus' }, '−'),
  );
  sign.addEventListener('change', () => {
    c.sign = sign.value as 'plus' | 'minus';
    emit();
  });
  const amount = h('input', { type: 'number', min: 0, class: 'num-input', value: c.amount ?? '', 'aria-label': `${label}: duration` });
  amount.addEventListener('input', () => {
    c.amount = amount.value === '' ? undefined : Number(amount.value);
    emit();
  });
  const unit = h(
    'select',
    { 'aria-label': `${label}: unit` },
    (['M', 'H', 'D'] as const).map((u) => h('option', { value: u, selected: c.unit === u }, { M: 'minutes', H: 'hours', D: 'days' }[u])),
  );
  unit.addEventListener('change', () => {
    c.unit = unit.value as 'M' | 'H' | 'D';
    emit();
  });
  return h('span', { class: 'instant' }, target, sign, amount, unit);
}

/** The values of a closed vocabulary as checkboxes; of an open one, as a comma-separated list. */
function choices(fact: FactField, values: unknown[], label: string, changed: (vs: unknown[]) => void): HTMLElement {
  if (!fact.values) {
    const input = h('input', { value: values.join(', '), 'aria-label': label, size: 16 });
    input.addEventListener('input', () =>
      changed(
        input.value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
          .map((s) => (fact.kind === 'number' ? Number(s) : s)),
      ),
    );
    return input;
  }
  const chosen = new Set(values);
  return h(
    'span',
    { class: 'choices', role: 'group', 'aria-label': label },
    fact.values.map((v) => {
      const box = h('input', { type: 'checkbox', checked: chosen.has(v), 'aria-label': `${label}: ${v}` });
      box.addEventListener('change', () => {
        if (box.checked) chosen.add(v);
        else chosen.delete(v);
        changed(fact.values!.filter((x) => chosen.has(x)));
      });
      return h('label', {}, box, ' ', v);
    }),
  );
}

// ---------------------------------------------------------------- values

/** A fact as a value's editor sees it (an example's given facts, a condition's `is`). */
export const factAsField = (f: FactField): OutcomeField => ({
  name: f.name,
  kind: f.kind === 'instant' ? 'string' : f.kind === 'number' ? 'number' : f.kind,
  ...(f.values ? { values: f.values } : {}),
  ...(f.min !== undefined && f.min > -1e9 ? { min: f.min } : {}),
  ...(f.max !== undefined && f.max < 1e9 ? { max: f.max } : {}),
});

/** The editor of one value: what a row says under one outcome key, an example's fact or expectation. */
export function valueInput(field: OutcomeField, value: unknown, label: string, changed: Changed): HTMLElement {
  switch (field.kind) {
    case 'enum': {
      const select = h(
        'select',
        { 'aria-label': label },
        field.optional || value === undefined ? h('option', { value: '', selected: value === undefined }, '—') : null,
        (field.values ?? []).map((v) => h('option', { value: v, selected: v === value }, v)),
      );
      select.addEventListener('change', () => changed(select.value === '' ? undefined : select.value));
      return select;
    }
    case 'boolean': {
      const select = h(
        'select',
        { 'aria-label': label },
        field.optional || value === undefined ? h('option', { value: '', selected: value === undefined }, '—') : null,
        h('option', { value: 'true', selected: value === true }, 'true'),
        h('option', { value: 'false', selected: value === false }, 'false'),
      );
      select.addEventListener('change', () => changed(select.value === '' ? undefined : select.value === 'true'));
      return select;
    }
    case 'number':
    case 'integer': {
      const input = h('input', {
        type: 'number',
        class: 'num-input',
        value: typeof value === 'number' ? value : '',
        step: field.kind === 'integer' ? 1 : 'any',
        min: field.min,
        max: field.max,
        'aria-label': label,
      });
      input.addEventListener('input', () => changed(input.value === '' ? undefined : Number(input.value)));
      return input;
    }
    case 'text': {
      const texts: Record<string, string> = isObject(value) ? { ...(value as Record<string, string>) } : {};
      return h(
        'span',
        { class: 'texts-edit' },
        (field.values ?? []).map((lang) => {
          const input = h('input', { lang, value: texts[lang] ?? '', 'aria-label': `${label} (${lang})`, size: 18 });
          input.addEventListener('input', () => {
            texts[lang] = input.value;
            changed({ ...texts });
          });
          return h('label', { class: 'text-lang' }, h('abbr', { title: lang }, lang.slice(0, 2)), input);
        }),
      );
    }
    case 'list': {
      const input = h('input', { value: Array.isArray(value) ? value.join(', ') : '', 'aria-label': label, size: 20 });
      input.addEventListener('input', () =>
        changed(
          input.value
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        ),
      );
      return input;
    }
    case 'string': {
      const input = h('input', { value: typeof value === 'string' ? value : '', pattern: field.pattern, 'aria-label': label, size: 14 });
      input.addEventListener('input', () => changed(input.value === '' ? undefined : input.value));
      return input;
    }
    default:
      return jsonInput(value === undefined ? '' : JSON.stringify(value), `${label} (JSON)`, (text) => {
        if (text.trim() === '') return changed(undefined);
        try {
          changed(JSON.parse(text));
        } catch {
          changed(text);
        }
      });
  }
}

function jsonInput(text: string, label: string, changed: (text: string) => void): HTMLElement {
  const area = h('textarea', { class: 'json', rows: 2, cols: 28, 'aria-label': label, spellcheck: 'false' });
  area.value = text;
  area.addEventListener('input', () => changed(area.value));
  return area;
}
