/**
 * A value as the rule files write it, in YAML's flow style: `NONE`, `[16, 64]`, `{ fact: departure, minus: PT24H }`,
 * so what the CLI shows can be found in the file as it is. Texts in both languages show in one when `language` is given.
 */
export function flow(value: unknown, language?: string): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return plain(value) ? value : JSON.stringify(value);
  if (typeof value !== 'object') return JSON.stringify(value) ?? typeof value;
  if (Array.isArray(value)) return `[${value.map((v) => flow(v, language)).join(', ')}]`;
  const record = value as Record<string, unknown>;
  if (language !== undefined && typeof record[language] === 'string' && Object.keys(record).every((k) => /^[a-z]{2}-[A-Z]{2}$/.test(k)))
    return flow(record[language]);
  const entries = Object.entries(record);
  return entries.length ? `{ ${entries.map(([k, v]) => `${k}: ${flow(v, language)}`).join(', ')} }` : '{}';
}

/** Whether YAML reads the text back as the same string without quotes. */
function plain(text: string): boolean {
  if (text === '' || text !== text.trim()) return false;
  if (/^(true|false|null|~|yes|no|on|off)$/i.test(text) || !Number.isNaN(Number(text))) return false;
  return !/[,[\]{}#&*!|>'"%@`]|: |:$|^[-?:] /.test(text);
}
