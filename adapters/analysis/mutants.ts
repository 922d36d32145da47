import { parseDocument } from 'yaml';
import { z } from 'zod';
import { factCatalogue, type DecisionName, type RuleSet, type RuleSource } from '../../engine/index.ts';
import { kindOf, parseSource } from '../../engine/rules/index.ts';
import type { MutantResult } from '../http/openapi/studio-schemas.ts';
import { compiledWith, withoutExamples } from './edited-rules.ts';

/**
 * Small wrong versions of one decision table, to see whether the scenarios notice: a numeric bound moved by its
 * smallest step either way, a bound inclusive instead of exclusive (or the reverse), an operator flipped (`in` ↔
 * `notIn`, `<` ↔ `≥`, `equal` ↔ `notEqual`), a compared value replaced by another of its vocabulary, an outcome
 * value replaced by another row's (or a number moved by a step), a row removed, two neighbouring rows of a `first`
 * table swapped, a condition dropped. Each is the whole file's text with that one change, and names the place it
 * changed in the original file.
 */
type MutantKind = Exclude<MutantResult['kind'], 'transition-removed' | 'target-changed'>;

/** A mutant of a table as the report names it (`MutantResult`, before its verdict), and the whole file with its change. */
export type Mutant = Omit<MutantResult, 'decision' | 'kind' | 'verdict' | 'killedBy'> & { decision: DecisionName; kind: MutantKind; text: string };

interface Row {
  id: string;
  when?: Record<string, unknown>;
  then: Record<string, unknown>;
  otherwise?: boolean;
}

const show = (v: unknown): string => (v === undefined ? 'nothing' : JSON.stringify(v));
const isText = (v: unknown) => !!v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).every((k) => /^[a-z]{2}-[A-Z]{2}$/.test(k));

/** The smallest step of a number as written: 1 for 15, 0.1 for 0.5, 0.01 for 0.75. */
function stepOf(n: number): number {
  const decimals = (String(n).split('.')[1] ?? '').length;
  return 10 ** -decimals;
}
const moved = (n: number, by: number) => Number((n + by).toFixed(10));

const FLIPPED: Record<string, string> = {
  in: 'notIn',
  notIn: 'in',
  equal: 'notEqual',
  notEqual: 'equal',
  lessThan: 'greaterThanInclusive',
  greaterThanInclusive: 'lessThan',
  greaterThan: 'lessThanInclusive',
  lessThanInclusive: 'greaterThan',
  before: 'notBefore',
  notBefore: 'before',
  after: 'notAfter',
  notAfter: 'after',
};
const INCLUSIVE: Record<string, string> = {
  lessThan: 'lessThanInclusive',
  lessThanInclusive: 'lessThan',
  greaterThan: 'greaterThanInclusive',
  greaterThanInclusive: 'greaterThan',
};

/** A wrong version of one condition: the value the row's `when` gives the fact, and what was changed, in words. */
type Variant = { value: unknown; kind: MutantKind; change: string };

function conditionVariants(test: unknown, vocabulary: readonly string[] | undefined): Variant[] {
  const out: Variant[] = [];
  if (test === null || typeof test !== 'object') {
    if (typeof test === 'boolean') out.push({ value: !test, kind: 'value', change: `${show(test)} → ${show(!test)}` });
    else if (typeof test === 'number')
      for (const d of [-1, 1]) out.push({ value: moved(test, d * stepOf(test)), kind: 'bound', change: `${test} → ${moved(test, d * stepOf(test))}` });
    else if (typeof test === 'string') {
      const other = vocabulary?.find((v) => v !== test);
      if (other !== undefined) out.push({ value: other, kind: 'value', change: `${test} → ${other}` });
      out.push({ value: { notEqual: test }, kind: 'operator', change: `${test} → { notEqual: ${test} }` });
    }
    return out;
  }
  const ops = test as Record<string, unknown>;
  const replaced = (op: string, to: Record<string, unknown>) => {
    const next: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(ops)) if (k !== op) next[k] = v;
    return { ...next, ...to };
  };
  for (const [op, v] of Object.entries(ops)) {
    if (op === 'between' && Array.isArray(v) && typeof v[0] === 'number' && typeof v[1] === 'number') {
      const [lo, hi] = v as [number, number];
      for (const [l, h] of [
        [moved(lo, -stepOf(lo)), hi],
        [moved(lo, stepOf(lo)), hi],
        [lo, moved(hi, -stepOf(hi))],
        [lo, moved(hi, stepOf(hi))],
      ] as Array<[number, number]>)
        out.push({ value: replaced(op, { between: [l, h] }), kind: 'bound', change: `between [${lo}, ${hi}] → [${l}, ${h}]` });
      out.push({ value: replaced(op, { greaterThan: lo, lessThanInclusive: hi }), kind: 'inclusive', change: `between [${lo}, ${hi}] → ${lo} excluded` });
      out.push({ value: replaced(op, { greaterThanInclusive: lo, lessThan: hi }), kind: 'inclusive', change: `between [${lo}, ${hi}] → ${hi} excluded` });
      continue;
    }
    if (typeof v === 'number' && op in INCLUSIVE) {
      for (const d of [-1, 1])
        out.push({ value: replaced(op, { [op]: moved(v, d * stepOf(v)) }), kind: 'bound', change: `${op} ${v} → ${op} ${moved(v, d * stepOf(v))}` });
      out.push({ value: replaced(op, { [INCLUSIVE[op]!]: v }), kind: 'inclusive', change: `${op} ${v} → ${INCLUSIVE[op]} ${v}` });
    }
    const flipped = FLIPPED[op];
    if (flipped && !(flipped in ops)) out.push({ value: replaced(op, { [flipped]: v }), kind: 'operator', change: `${op} ${show(v)} → ${flipped} ${show(v)}` });
  }
  return out;
}

/** Another row's value for the same outcome key; a number also moved by its step, a boolean flipped. */
function outcomeVariants(key: string, value: unknown, rows: readonly Row[]): Variant[] {
  if (isText(value)) return [];
  const out: Variant[] = [];
  const other = rows.map((r) => r.then[key]).find((v) => v !== undefined && JSON.stringify(v) !== JSON.stringify(value));
  if (other !== undefined && typeof value !== 'boolean') out.push({ value: other, kind: 'outcome', change: `${key} ${show(value)} → ${show(other)}` });
  if (typeof value === 'number') out.push({ value: moved(value, stepOf(value)), kind: 'outcome', change: `${key} ${value} → ${moved(value, stepOf(value))}` });
  if (typeof value === 'boolean') out.push({ value: !value, kind: 'outcome', change: `${key} ${value} → ${!value}` });
  return out;
}

/** Every mutant of the decision's table, in row order. */
export function mutantsOf(rules: RuleSet, sources: readonly RuleSource[], decision: DecisionName): Mutant[] {
  const { file } = rules.decisions[decision];
  const text = sources.find((s) => s.file === file)?.text;
  if (text === undefined) return [];
  const source = parseSource(file, text);
  const { rows, hitPolicy } = source.data as { rows: Row[]; hitPolicy: string };
  const shape = (factCatalogue[decision] as z.ZodObject).shape as Record<string, z.ZodType>;
  const vocabularyOf = (fact: string) => {
    const schema = shape[fact];
    if (!schema) return undefined;
    const kind = kindOf(schema);
    return kind.kind === 'enum' ? kind.values : undefined;
  };
  const out: Mutant[] = [];
  const add = (row: string, path: Array<string | number>, kind: MutantKind, change: string, edit: (doc: ReturnType<typeof parseDocument>) => void) => {
    const doc = parseDocument(text);
    edit(doc);
    out.push({
      id: `${decision}:${out.length + 1}`,
      decision,
      file,
      at: source.at(path),
      row,
      kind,
      change: `${row}: ${change}`,
      text: doc.toString({ lineWidth: 0 }),
    });
  };
  rows.forEach((row, i) => {
    for (const [fact, test] of Object.entries(row.when ?? {})) {
      for (const v of conditionVariants(test, vocabularyOf(fact)))
        add(row.id, ['rows', i, 'when', fact], v.kind, `${fact} ${v.change}`, (doc) =>
          doc.setIn(['rows', i, 'when', fact], doc.createNode(v.value, { flow: true })),
        );
      add(row.id, ['rows', i, 'when', fact], 'condition-dropped', `${fact} ${show(test)} dropped`, (doc) => doc.deleteIn(['rows', i, 'when', fact]));
    }
    for (const [key, value] of Object.entries(row.then))
      for (const v of outcomeVariants(key, value, rows))
        add(row.id, ['rows', i, 'then', key], v.kind, v.change, (doc) => doc.setIn(['rows', i, 'then', key], doc.createNode(v.value, { flow: true })));
    if (rows.length > 1) add(row.id, ['rows', i], 'row-removed', 'row removed', (doc) => doc.deleteIn(['rows', i]));
    if (hitPolicy === 'first' && i + 1 < rows.length)
      add(row.id, ['rows', i], 'rows-swapped', `swapped with ${rows[i + 1]!.id}`, (doc) => {
        const seq = doc.get('rows', true) as { items: unknown[] };
        [seq.items[i], seq.items[i + 1]] = [seq.items[i + 1], seq.items[i]];
      });
  });
  return out;
}

/**
 * A mutant's rule set, compiled as `check` would: undefined when `check` refuses it for what it is (a unique table
 * with a gap or an overlap, a row that can never fire). The table's examples are left out of that check and run on
 * their own: those that fail are tests the mutant does not pass, like a failing scenario.
 */
export function compileMutant(sources: readonly RuleSource[], mutant: Mutant): { rules?: RuleSet; failedExamples: string[] } {
  const whole = compiledWith(sources, mutant.file, mutant.text);
  if (whole.rules) return { rules: whole.rules, failedExamples: [] };
  const bare = compiledWith(sources, mutant.file, withoutExamples(mutant.text));
  return bare.rules ? { rules: bare.rules, failedExamples: [...whole.problems] } : { failedExamples: [] };
}
