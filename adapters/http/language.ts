import type { Language } from '../../engine/index.ts';
import { headerMemo } from './header-memo.ts';

/**
 * CONTRACT §4: Accept-Language picks sv-SE or en-GB (highest quality wins; `sv`, `sv-FI`, `en`, `en-US`
 * count for their language); anything else gets the first language of rules/limits.yaml.
 */
export function negotiateLanguage(header: string | undefined, supported: readonly Language[]): Language {
  if (!header) return supported[0]!;
  let memo = negotiated.get(supported);
  if (!memo) negotiated.set(supported, (memo = headerMemo((text) => negotiate(text, supported))));
  return memo(header);
}

/** Per list of languages (the rules in force), what each Accept-Language text picks. */
const negotiated = new WeakMap<readonly Language[], (header: string) => Language>();

function negotiate(header: string, supported: readonly Language[]): Language {
  const fallback = supported[0]!;
  const ranked = header
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.toLowerCase(), q: q ? Number(q.slice(2)) || 0 : 1, i };
    })
    .filter((x) => x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of ranked) {
    const exact = supported.find((l) => l.toLowerCase() === tag);
    if (exact) return exact;
    const primary = supported.find((l) => l.split('-')[0]!.toLowerCase() === tag.split('-')[0]);
    if (primary) return primary;
  }
  return fallback;
}
