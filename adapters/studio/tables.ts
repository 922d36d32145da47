import { createHash } from 'node:crypto';
import { diffArrays } from 'diff';
import { z } from 'zod';
import { Document, isCollection, isMap, isScalar, isSeq, parse, parseDocument, stringify, type Node, type YAMLMap, type YAMLSeq } from 'yaml';
import { factCatalogue, type DecisionName, type RuleSet, type RuleSource } from '../../engine/index.ts';
import { kindOf, parseSource } from '../../engine/rules/index.ts';
import { compiledWith } from '../analysis/edited-rules.ts';
import { outcomeFields } from './outcome-fields.ts';
import type { DecisionTable, FactField, PlacedProblem, TableEdit } from '../http/openapi/studio-schemas.ts';

/**
 * A decision table as the studio shows and edits it: every cell is the YAML a person would write in that place
 * (`{ between: [16, 64] }`, `SWE_STUDENT`, `0.75`), so what the page shows is what the file says. An edit comes back
 * as the whole table in the same cell texts and is written into the file's own YAML document (yaml's Document API),
 * so comments, key order and flow or block style stay as the analyst wrote them.
 */

/** A value as a cell shows it: YAML flow text in the rule files' own spacing. */
const flowText = (value: unknown): string => (value === undefined ? '' : repoStyle(stringify(value, { collectionStyle: 'flow', lineWidth: 0 }).trimEnd()));

/** The fact catalogue of a decision, as form fields. */
function factFields(decision: DecisionName): z.infer<typeof FactField>[] {
  const shape = (factCatalogue[decision] as z.ZodObject).shape as Record<string, z.ZodType>;
  return Object.entries(shape).map(([name, schema]) => {
    const kind = kindOf(schema);
    const fallback = schema instanceof z.ZodDefault ? { default: (schema.def as { defaultValue: unknown }).defaultValue } : {};
    return {
      name,
      kind: kind.kind,
      ...(kind.kind === 'number' ? { min: kind.min, max: kind.max } : {}),
      ...(kind.kind === 'enum' ? { values: [...kind.values] } : {}),
      ...fallback,
    };
  });
}

/** The table of `decision` as its file `text` says it (the serving rule set names the file and its place). */
export function tableOf(rules: RuleSet, decision: DecisionName, text: string): DecisionTable {
  const compiled = rules.decisions[decision];
  const source = parseSource(compiled.file, text);
  const data = source.data as {
    rows?: Array<{ id: string; when?: Record<string, unknown>; then?: Record<string, unknown>; otherwise?: boolean }>;
    examples?: Array<{ given: Record<string, unknown>; expect: unknown }>;
  };
  const rows = (data.rows ?? []).map((row, i) => {
    const cells = (part: 'when' | 'then') =>
      Object.fromEntries(Object.entries(row[part] ?? {}).map(([k, v]) => [k, { text: flowText(v), value: v, at: source.at(['rows', i, part, k]) }]));
    return { id: String(row.id), at: source.at(['rows', i]), otherwise: row.otherwise === true, when: cells('when'), then: cells('then') };
  });
  const facts = factFields(decision);
  const used = new Set(rows.flatMap((r) => Object.keys(r.when)));
  return {
    decision,
    title: compiled.title,
    file: compiled.file,
    at: source.at(['decision']),
    ...(compiled.spec ? { spec: compiled.spec } : {}),
    hitPolicy: compiled.hitPolicy,
    // The facts in catalogue order, those no row tests left out; outcome keys in the order rows first use them.
    columns: { when: facts.map((f) => f.name).filter((f) => used.has(f)), then: [...new Set(rows.flatMap((r) => Object.keys(r.then)))] },
    rows,
    examples: (data.examples ?? []).map((e, i) => ({ given: e.given, expect: e.expect, at: source.at(['examples', i]) })),
    version: versionOf(text),
    facts,
    outcomes: outcomeFields(rules, decision),
  };
}

/** Names a file's text: a save that started from another text is refused rather than overwriting it. */
export const versionOf = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 16);

/** Writes `value` into `node`, changing only what differs, so comments and styles on what stays are kept. */
function patch(doc: Document, node: Node, value: unknown): Node {
  if (isScalar(node) && (value === null || typeof value !== 'object')) {
    if (node.value !== value) node.value = value;
    return node;
  }
  if (isMap(node) && value && typeof value === 'object' && !Array.isArray(value)) {
    const map = node;
    const entries = Object.entries(value as Record<string, unknown>);
    for (const key of map.items.map((p) => (isScalar(p.key) ? p.key.value : p.key))) {
      if (!entries.some(([k]) => k === key)) map.delete(key);
    }
    for (const [k, v] of entries) {
      const existing = map.get(k, true) as Node | undefined;
      map.set(k, (existing && isCollection(existing)) || isScalar(existing) ? patch(doc, existing, v) : created(doc, v, map.flow === true));
    }
    return map;
  }
  if (isSeq(node) && Array.isArray(value) && node.items.length === value.length) {
    const seq = node as YAMLSeq<Node>;
    seq.items = seq.items.map((item, i) => (isScalar(item) || isCollection(item) ? patch(doc, item, value[i]) : created(doc, value[i], true)));
    return seq;
  }
  return created(doc, value, (isCollection(node) && node.flow === true) || false, node);
}

/** A new node for `value`; collections inside a flow collection are flow too. */
function created(doc: Document, value: unknown, flow: boolean, replacing?: Node): Node {
  const node = doc.createNode(value) as Node;
  if (isCollection(node) && (flow || (replacing && isCollection(replacing) && replacing.flow))) node.flow = true;
  if (replacing && isScalar(replacing) && isScalar(node)) node.comment = replacing.comment ?? null;
  return node;
}

/** A new row in the style the tables use: block row, flow `when`, flow values in `then`. */
function newRow(doc: Document, value: Record<string, unknown>): Node {
  const row = doc.createNode(value) as YAMLMap;
  for (const pair of row.items) {
    const v = pair.value as Node;
    if (isCollection(v)) {
      const key = isScalar(pair.key) ? pair.key.value : pair.key;
      if (key === 'when') v.flow = true;
      else for (const inner of (v as YAMLMap).items) if (isCollection(inner.value)) (inner.value as YAMLMap).flow = true;
    }
  }
  return row;
}

interface ParsedEdit {
  rows: Array<{ was?: string; value: Record<string, unknown> }>;
  problems: PlacedProblem[];
}

/** The cell texts read as YAML; a cell that is not YAML is a problem at that cell. */
function readEdit(file: string, edit: TableEdit): ParsedEdit {
  const problems: PlacedProblem[] = [];
  const rows = edit.rows.map((r, i) => {
    const read = (part: 'when' | 'then') => {
      const out: Record<string, unknown> = {};
      for (const [key, text] of Object.entries(r[part])) {
        if (text.trim() === '') continue;
        try {
          out[key] = parse(text);
        } catch (e) {
          problems.push({ message: `not YAML: ${(e as Error).message.split('\n')[0]}`, at: file, row: i, cell: `${part}.${key}` });
        }
      }
      return out;
    };
    const when = read('when');
    const then = read('then');
    const value: Record<string, unknown> = { id: r.id, ...(r.otherwise ? { otherwise: true } : { when }), then };
    return { ...(r.was !== undefined ? { was: r.was } : {}), value };
  });
  return { rows, problems };
}

/**
 * The file's text with the table's rows (and, when the edit gives them, its examples) replaced by the edited ones:
 * rows kept by id and examples kept by place are patched in place.
 */
export function editedText(file: string, text: string, edit: TableEdit): { text: string; problems: PlacedProblem[] } {
  const { rows, problems } = readEdit(file, edit);
  return {
    text: keepingLayout(text, (doc) => {
      const seq = doc.get('rows', true) as YAMLSeq<Node>;
      const byId = new Map(seq.items.map((n) => [String((n as YAMLMap).get('id')), n]));
      seq.items = rows.map(({ was, value }) => {
        const node = was !== undefined ? byId.get(was) : undefined;
        return node ? patch(doc, node, value) : newRow(doc, value);
      });
      if (edit.examples !== undefined) writeExamples(doc, edit.examples);
    }),
    problems,
  };
}

/** The examples as edited: each one patched where one stood at its place, new ones in the tables' style. */
function writeExamples(doc: Document, examples: NonNullable<TableEdit['examples']>): void {
  const existing = doc.get('examples', true) as YAMLSeq<Node> | undefined;
  if (examples.length === 0) {
    if (existing) doc.delete('examples');
    return;
  }
  const items = examples.map((e, i) => {
    const node = existing?.items[i];
    if (node && isMap(node)) return patch(doc, node, e);
    const created = doc.createNode(e) as YAMLMap;
    for (const pair of created.items) if (isCollection(pair.value)) pair.value.flow = true;
    return created;
  });
  if (existing && isSeq(existing)) existing.items = items;
  else doc.set('examples', doc.createNode(items));
}

/**
 * `change` applied to the YAML document of `text`. yaml prints the whole document again in its own way (`[ 16, 64 ]`,
 * a flow map the file spreads over two lines joined into one), so only the passages the change touched are taken
 * from that print; every other line stays byte for byte as it was.
 */
export function keepingLayout(text: string, change: (doc: Document) => void): string {
  const doc = parseDocument(text);
  const printed = (d: Document) => d.toString({ lineWidth: 0 }).split('\n');
  const before = printed(doc);
  change(doc);
  const after = printed(doc);
  const { blockOf, blocks, trailing } = passages(text.split('\n'), before);
  // A passage is touched when the change removes one of its printed lines or adds lines inside it.
  const touched = new Set<number>();
  let k = 0;
  for (const part of diffArrays(before, after)) {
    const n = part.count ?? part.value.length;
    if (part.added) {
      if (k > 0 && k < before.length && blockOf[k - 1] === blockOf[k]) touched.add(blockOf[k]!);
      continue;
    }
    if (part.removed) for (let i = k; i < k + n; i++) touched.add(blockOf[i]!);
    k += n;
  }
  const out: string[] = [];
  k = 0;
  for (const part of diffArrays(before, after)) {
    const n = part.count ?? part.value.length;
    if (part.added) {
      out.push(...part.value.map(repoStyle));
      continue;
    }
    for (let i = k; i < k + n; i++) {
      const b = blockOf[i]!;
      if (part.removed) continue;
      if (!touched.has(b)) {
        if (blocks[b]!.first === i) out.push(...blocks[b]!.own);
      } else out.push(repoStyle(before[i]!));
    }
    k += n;
  }
  return [...out, ...trailing].join('\n');
}

/**
 * Which lines of the file each line of yaml's print stands for: equal lines one for one; where yaml prints a passage
 * its own way, that passage of the print for the file's lines it replaces (lines only the file has go with the next).
 */
function passages(original: string[], before: string[]) {
  const blockOf: number[] = [];
  const blocks: Array<{ first: number; own: string[] }> = [];
  let pending: string[] = [];
  let k = 0;
  const parts = diffArrays(original, before);
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p]!;
    if (part.removed) {
      pending.push(...part.value);
      continue;
    }
    if (part.added) {
      blocks.push({ first: k, own: pending });
      pending = [];
      for (let i = 0; i < part.value.length; i++) blockOf[k++] = blocks.length - 1;
      continue;
    }
    for (const line of part.value) {
      blocks.push({ first: k, own: [...pending, line] });
      pending = [];
      blockOf[k++] = blocks.length - 1;
    }
  }
  return { blockOf, blocks, trailing: pending };
}

/** The rule files write flow sequences without inner spaces (`[16, 64]`) and flow maps with them (`{ a: 1 }`). */
const repoStyle = (line: string) => line.replace(/\[ ([^[\]"'#]*?) \]/g, '[$1]');

/** `file:line:col: message` → the row and cell of the edited table it points into. */
function placeProblems(file: string, text: string, problems: readonly string[]): PlacedProblem[] {
  const source = parseSource(file, text);
  const rows = (source.data as { rows?: Array<{ when?: object; then?: object }> }).rows ?? [];
  const marks: Array<{ line: number; col: number; row?: number; cell?: string; example?: number }> = [];
  rows.forEach((row, i) => {
    marks.push({ ...source.locate(['rows', i]), row: i });
    marks.push({ ...source.locate(['rows', i, 'id']), row: i, cell: 'id' });
    for (const part of ['when', 'then'] as const) {
      for (const [key, value] of Object.entries(row[part] ?? {})) {
        marks.push({ ...source.locate(['rows', i, part, key]), row: i, cell: `${part}.${key}` });
        if (value && typeof value === 'object')
          for (const inner of Object.keys(value as object)) marks.push({ ...source.locate(['rows', i, part, key, inner]), row: i, cell: `${part}.${key}` });
      }
    }
  });
  marks.push({ ...source.locate(['examples']) });
  const examples = (source.data as { examples?: unknown[] }).examples ?? [];
  examples.forEach((_, i) => marks.push({ ...source.locate(['examples', i]), example: i }));
  marks.sort((a, b) => a.line - b.line || a.col - b.col);
  return problems.map((p) => {
    const m = /^(.*?):(\d+):(\d+): (.*)$/s.exec(p);
    if (!m || m[1] !== file) return { message: p, at: m ? `${m[1]}:${m[2]}:${m[3]}` : file };
    const line = Number(m[2]);
    const col = Number(m[3]);
    const before = marks.filter((k) => k.line < line || (k.line === line && k.col <= col)).at(-1);
    return {
      message: m[4]!,
      at: `${m[1]}:${line}:${col}`,
      ...(before?.row !== undefined ? { row: before.row } : {}),
      ...(before?.cell ? { cell: before.cell } : {}),
      ...(before?.example !== undefined ? { example: before.example } : {}),
    };
  });
}

/** What `check` says of the rule set with this file's text replaced: the compiled rules, or the problems placed. */
export function checkEdited(sources: readonly RuleSource[], file: string, text: string): { rules?: RuleSet; problems: PlacedProblem[] } {
  const { rules, problems } = compiledWith(sources, file, text);
  return rules ? { rules, problems: [] } : { problems: placeProblems(file, text, problems) };
}
