import type { Exported, ExportedRequest } from './export.ts';
import { DATE_TIME as DATE_TIME_PATTERN, UUID as UUID_PATTERN } from './match.ts';

/**
 * A Hurl file (`hurl --test --variable baseUrl=http://… FILE`): every request in order, its expected status as
 * `HTTP <status>`, its saves as `[Captures]` (a capture is a variable for the rest of the file), and what the
 * scenario expects of the body and headers as `[Asserts]`.
 *
 * An assert is a JSONPath query and one predicate, so the scenario's expectation is spelled out leaf by leaf:
 * `jsonpath "$.booking.id" isString`. What one query and predicate cannot say is written as a `# not checked:` comment
 * at its place instead: an exact match's "no other field", `$contains` and `$anyOrder` of objects (items of plain
 * values become `includes`), a `$length` of a string (`count` counts list items).
 */
// The runner's own wildcard patterns (match.ts); Hurl's regexes take the case-insensitive flag inline.
const UUID = `(?i)${UUID_PATTERN.source}`;
const DATE_TIME = DATE_TIME_PATTERN.source;

/** Hurl's variable names are word characters: `secret.demo-reseller` is `secret_demo_reseller`. */
const safe = (name: string) => name.replace(/\W/g, '_');
const variables = (text: string) => text.replace(/\{\{([^{}]+)\}\}/g, (_m, name: string) => `{{${safe(name)}}}`);
/** A Hurl quoted string: JSON's escapes are Hurl's, and `${name}` becomes the template `{{name}}`. */
const quoted = (text: string) => JSON.stringify(text).replace(/\$\{([\w.-]+)\}/g, (_m, name: string) => `{{${safe(name)}}}`);
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** `$.booking.bookedOffers[0]`, with `['…']` for a key JSONPath's dot cannot name. */
const child = (path: string, key: string | number) =>
  typeof key === 'number' ? `${path}[${key}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${path}.${key}` : `${path}['${key.replace(/['\\]/g, '\\$&')}']`;
/** A save's path (`offers[0].offerId`) as JSONPath. */
const jsonPath = (from: string) =>
  from
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean)
    .reduce<string>((path, part) => child(path, /^\d+$/.test(part) ? Number(part) : part), '$');

const isMatcher = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0 && Object.keys(v).every((k) => k.startsWith('$') && !k.startsWith('$$'));
const isPlain = (v: unknown) => v === null || typeof v !== 'object';
/** `$string`, not `$$5` (a literal `$5`) nor `${name}` (a saved value). */
const isWildcard = (v: unknown): v is string => typeof v === 'string' && v.startsWith('$') && !v.startsWith('$$') && !v.startsWith('${');

/**
 * A literal as a predicate value: numbers, booleans and null bare, a string quoted. A whole `${name}` is the bare
 * `{{name}}`, which keeps the type of the value captured (a saved price is a number, as in the runner).
 */
const literal = (v: unknown) => {
  if (typeof v !== 'string') return JSON.stringify(v);
  const whole = /^\$\{([\w.-]+)\}$/.exec(v);
  if (whole) return `{{${safe(whole[1]!)}}}`;
  return quoted(v.startsWith('$$') ? v.slice(1) : v);
};

const wildcards: Record<string, string[]> = {
  $any: ['exists'],
  $absent: ['not exists'],
  $string: ['isString'],
  $number: ['isNumber'],
  $boolean: ['isBoolean'],
  $array: ['isCollection'],
  $object: ['isCollection'],
  $uuid: [`matches ${JSON.stringify(UUID)}`],
  '$date-time': [`matches ${JSON.stringify(DATE_TIME)}`],
};

/** The asserts (and `# not checked:` comments) for `expected` at the query `query` (`jsonpath "$.a"`, `header "x"`). */
function asserts(expected: unknown, at: string, query: (path: string) => string, exact: boolean): string[] {
  const q = query(at);
  const note = (why: string) => [`# not checked: ${at} ${why}`];
  if (isWildcard(expected)) {
    if (expected === '$money')
      return [`${query(child(at, 'currency'))} isString`, `${query(child(at, 'amount'))} isInteger`, `${query(child(at, 'scale'))} isInteger`];
    const predicates = wildcards[expected];
    return predicates ? predicates.map((p) => `${q} ${p}`) : note(`(unknown wildcard ${expected})`);
  }
  if (isMatcher(expected)) {
    return Object.entries(expected).flatMap(([op, arg]): string[] => {
      switch (op) {
        case '$length': {
          if (typeof arg === 'number') return [`${q} count == ${arg}`];
          const { min, max } = arg as { min?: number; max?: number };
          return [...(min === undefined ? [] : [`${q} count >= ${min}`]), ...(max === undefined ? [] : [`${q} count <= ${max}`])];
        }
        case '$gt':
          return [`${q} > ${String(arg)}`];
        case '$gte':
          return [`${q} >= ${String(arg)}`];
        case '$lt':
          return [`${q} < ${String(arg)}`];
        case '$lte':
          return [`${q} <= ${String(arg)}`];
        case '$regex':
          return [`${q} matches ${quoted(String(arg))}`];
        case '$contains':
        case '$anyOrder': {
          const items = arg as unknown[];
          const plain = items.filter((i) => isPlain(i) && !isWildcard(i));
          return [
            ...(op === '$anyOrder' ? [`${q} count == ${items.length}`] : [`${q} isCollection`]),
            ...plain.map((i) => `${q} includes ${literal(i)}`),
            ...(plain.length < items.length
              ? note(`${op}: an item that is an object, a list or a wildcard: ${JSON.stringify(items.filter((i) => !plain.includes(i)))}`)
              : []),
          ];
        }
        default:
          return note(`(unknown matcher ${op})`);
      }
    });
  }
  if (Array.isArray(expected)) {
    return [`${q} count == ${expected.length}`, ...expected.flatMap((e, i) => asserts(e, child(at, i), query, exact))];
  }
  if (expected !== null && typeof expected === 'object') {
    const keys = Object.keys(expected);
    return [
      ...(keys.length === 0 ? [`${q} isCollection`] : []),
      ...keys.flatMap((k) => asserts((expected as Record<string, unknown>)[k], child(at, k), query, exact)),
      ...(exact ? note('has no fields but these (an exact match): Hurl checks the fields named') : []),
    ];
  }
  return [`${q} == ${literal(expected)}`];
}

function entry(r: ExportedRequest): string[] {
  const lines = [`# ${oneLine(r.name)}`, `${r.method} ${variables(r.url)}`, ...r.headers.map(([k, v]) => `${k}: ${variables(v)}`)];
  if (r.body?.type === 'form') {
    lines.push('[FormParams]', ...[...new URLSearchParams(r.body.text)].map(([k, v]) => `${k}: ${variables(v)}`));
  } else if (r.body) {
    lines.push(variables(r.body.text));
  }
  const checks = [
    ...Object.entries(r.expect?.headers ?? {}).flatMap(([h, v]) => asserts(v, h, (name) => `header ${JSON.stringify(name)}`, false)),
    ...(r.expect?.body === undefined ? [] : asserts(r.expect.body, '$', (path) => `jsonpath ${JSON.stringify(path)}`, r.expect.exact)),
  ];
  if (r.expectStatus === undefined && r.saves.length === 0 && checks.length === 0) return lines;
  lines.push('', `HTTP ${r.expectStatus ?? '*'}`);
  if (r.saves.length > 0)
    lines.push(
      '[Captures]',
      ...r.saves.map(
        ([name, from]) =>
          `${safe(name)}: ${from.startsWith('header:') ? `header ${JSON.stringify(from.slice(7))}` : `jsonpath ${JSON.stringify(jsonPath(from))}`}`,
      ),
    );
  if (checks.length > 0) lines.push('[Asserts]', ...checks);
  return lines;
}

export function hurlFile(exported: Exported): string {
  const flags = Object.entries(exported.variables)
    .map(([k, v]) => `--variable ${safe(k)}=${v}`)
    .join(' ');
  const out = ['# signalbox scenarios as a Hurl file; clock requests need a server started with --sandbox. Run it with', `#   hurl --test ${flags} FILE`, ''];
  for (const folder of exported.folders) {
    out.push(`# ━━ ${oneLine(folder.name)}  (${folder.file})`, '');
    for (const r of folder.requests) out.push(...entry(r), '');
  }
  return `${out.join('\n')}\n`;
}
