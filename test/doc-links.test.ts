import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The README, rules/README.md and every page of docs/ link to files and headings that exist, so a newcomer
 * following them never lands nowhere. Headings are addressed as GitHub names them (`#osdm-34-conformance`).
 */
const pages = [
  'README.md',
  'rules/README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Paths the docs ask the reader to create. */
const toBeWritten = ['scenarios/mine/'];
const withoutCode = (text: string) => text.replace(/```[\s\S]*?```/g, '');

const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
const anchorsOf = (file: string) =>
  new Set(
    [
      ...readFileSync(file, 'utf8')
        .replace(/```[\s\S]*?```/g, '')
        .matchAll(/^#{1,6} (.+)$/gm),
    ].map(([, h]) => slug(h!)),
  );

describe('links between the docs', () => {
  it.each(pages)('%s links only to files and headings that exist', (page) => {
    const broken: string[] = [];
    const text = withoutCode(readFileSync(page, 'utf8'));
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue; // http:, mailto:
      const [path, anchor] = target!.split('#') as [string, string | undefined];
      const file = path === '' ? page : normalize(join(dirname(page), path));
      if (!existsSync(file)) {
        broken.push(`${target}: no file ${file}`);
        continue;
      }
      if (anchor && file.endsWith('.md') && !anchorsOf(file).has(anchor)) broken.push(`${target}: no heading #${anchor} in ${file}`);
    }
    expect(broken).toEqual([]);
  });

  it.each(pages)('%s names only files of the repository that exist', (page) => {
    const folders = 'engine|machines|adapters|rules|scenarios|test|bench|examples|schemas|bin|docs|\\.ci';
    const named = [...withoutCode(readFileSync(page, 'utf8')).matchAll(new RegExp(`\`((?:${folders})/[^\`\\s*<>{}…]*)\``, 'g'))].map(([, path]) =>
      path!.replace(/:\d.*$/, ''),
    );
    const missing = named.filter((path) => !existsSync(path) && !toBeWritten.some((p) => path.startsWith(p)));
    expect([...new Set(missing)]).toEqual([]);
  });
});
