/**
 * The API document as integrators read it: what the API does, without citations of the documents and files
 * behind this implementation ("spec §4.1", "CONTRACT §6", "errors.yaml"). Those stay in the sources, where
 * they help maintainers (the route table, adapters/http/operations/, names the section each operation follows).
 */
const CITATION = /(?:spec|CONTRACT)\s?§|CONTRACT(?:\.md)?\b|\b[\w-]+\.(?:yaml|ts)\b|\bcited\b/;

function clean(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((paragraph) =>
      paragraph
        // A citation in parentheses goes; a sentence that only cites goes; a citation inside a sentence says what it is.
        .replace(/\s*\([^()]*(?:(?:spec|CONTRACT)\s?§|\.yaml\b|\.ts\b)[^()]*\)/g, '')
        .replace(/a rule of spec §7/g, 'another error code of the operator')
        .replace(/CONTRACT §6 names it; this server/g, 'This server')
        .split(/(?<=[.!?])\s+(?=\S)/)
        .filter((sentence) => !/^Decided by /.test(sentence) && !CITATION.test(sentence))
        .join(' ')
        .trim(),
    )
    .filter((paragraph) => paragraph !== '')
    .join('\n\n');
}

export function forIntegrators<T>(value: T, key = ''): T {
  if (typeof value === 'string') return (key === 'description' || key === 'summary' ? clean(value) : value) as T;
  if (Array.isArray(value)) return (value as unknown[]).map((v) => forIntegrators(v)) as T;
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, forIntegrators(v, k)])) as T;
}
