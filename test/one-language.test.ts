import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_SECRETS } from '../adapters/harness/demo-secrets.ts';
import { scenarioFiles } from '../adapters/harness/files.ts';
import { runScenario } from '../adapters/harness/runner.ts';
import { inProcess, type HttpResult, type Target } from '../adapters/harness/targets.ts';
import { loadRules } from '../engine/index.ts';
import { engine, passengers, requestorHeader, testServer } from './helpers/server.ts';

/**
 * One language per answer: every scenario is run twice, once asking for sv-SE and once for en-GB (steps that
 * ask for sv-SE themselves keep it), and every text of every answer is searched for words of the other language:
 * the fixed parts of the rule files' texts, and zod's own messages. Steps that expect a text of the other
 * language stop their scenario early; what ran before is still searched.
 */
type Language = 'en-GB' | 'sv-SE';
const other = (l: Language): Language => (l === 'en-GB' ? 'sv-SE' : 'en-GB');

/** Every text of rules/ given in both languages, as pairs. */
function bilingualTexts(value: unknown, out: Array<Record<Language, string>> = [], seen = new Set<unknown>()): Array<Record<Language, string>> {
  if (!value || typeof value !== 'object' || seen.has(value)) return out;
  seen.add(value);
  const v = value as Record<string, unknown>;
  if (typeof v['en-GB'] === 'string' && typeof v['sv-SE'] === 'string') out.push({ 'en-GB': v['en-GB'], 'sv-SE': v['sv-SE'] });
  for (const child of value instanceof Map ? value.values() : Object.values(v)) bilingualTexts(child, out, seen);
  return out;
}

/** The words a text in `language` is made of and the other language's text does not share: its fixed parts. */
function markers(language: Language): string[] {
  const rules = loadRules();
  const pairs = bilingualTexts([rules, Object.values(rules.decisions).map((d) => d.rows.map((r) => r.then))]);
  const fixed = new Set<string>();
  for (const pair of pairs) {
    for (const part of pair[language].split(/\{\w+\}/)) {
      const words = part.trim();
      if (words.length >= 12 && words.includes(' ') && !pair[other(language)].includes(words)) fixed.add(words);
    }
  }
  const zod =
    language === 'en-GB'
      ? ['Invalid input', 'Invalid option', 'Unrecognized key', 'Too small', 'Too big', 'Invalid string']
      : ['Ogiltig inmatning', 'Ogiltigt val', 'Okänd nyckel', 'För lite', 'För stor'];
  return [...fixed, ...zod];
}

function strings(value: unknown, path = ''): Array<{ path: string; text: string }> {
  if (typeof value === 'string') return [{ path, text: value }];
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => strings(v, `${path}/${k}`));
}

/** The target, asking for `language` instead of the scenarios' default (en-GB), keeping what it answers. */
function speaking(target: Target, language: Language, answers: HttpResult[]): Target {
  return {
    name: `${target.name} (${language})`,
    async open(start, clients) {
      const session = await target.open(start, clients);
      return {
        ...session,
        async send(x) {
          const headers = Object.fromEntries(
            Object.entries(x.headers).map(([h, v]) => [h, h.toLowerCase() === 'accept-language' && v === 'en-GB' ? language : v]),
          );
          const res = await session.send({ ...x, headers });
          answers.push(res);
          return res;
        },
      };
    },
  };
}

describe('every answer speaks one language', () => {
  const target = inProcess(engine());
  const files = scenarioFiles(['scenarios']);
  const foreign = { 'en-GB': markers('sv-SE'), 'sv-SE': markers('en-GB') };

  for (const language of ['sv-SE', 'en-GB'] as const) {
    it(`all scenarios, asking for ${language}`, async () => {
      const answers: HttpResult[] = [];
      for (const file of files) await runScenario(file, speaking(target, language, answers), { secrets: DEMO_SECRETS });
      const mixed = answers.flatMap((res) => {
        const said = (res.headers['content-language'] ?? '') as Language;
        if (!foreign[said]) return [];
        return strings(res.body).flatMap(({ path, text }) =>
          foreign[said].filter((m) => text.includes(m)).map((m) => `${said} answer ${path}: "${text}" has "${m}"`),
        );
      });
      expect(answers.length).toBeGreaterThan(300);
      expect([...new Set(mixed)]).toEqual([]);
      // Answers speak to integrators: no citation of the operator's documents behind this implementation.
      const citing = answers.flatMap((res) =>
        strings(res.body)
          .filter(({ text }) => /spec §|CONTRACT/.test(text))
          .map(({ path, text }) => `${path}: "${text}"`),
      );
      expect([...new Set(citing)]).toEqual([]);
    }, 120_000); // the whole corpus: seconds alone, much longer on a loaded machine
  }
});

describe('the mixed answers an analyst found, in Swedish', async () => {
  const server = await testServer();
  const ask = async (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    (
      await server.app.inject({
        method,
        url,
        ...(payload !== undefined ? { payload: payload as object } : {}),
        headers: {
          authorization: `Bearer ${await server.token()}`,
          requestor: requestorHeader(),
          'content-type': 'application/json',
          'accept-language': 'sv-SE',
        },
      })
    ).json<{ detail: string; pointers?: Array<{ detail?: string }> }>();

  it('a reason of the engine', async () => {
    expect((await ask('POST', '/v3/offers', { anonymousPassengerSpecifications: passengers(30) })).detail).toBe(
      'Förfrågan är ogiltig: en offertförfrågan för resor behöver tripSpecifications',
    );
  });
  it('a resource name', async () => {
    expect((await ask('GET', '/v3/bookings/NOPE')).detail).toBe('Det finns ingen bokning med id NOPE.');
  });
  it("a validation message, from zod's Swedish locale", async () => {
    const res = await ask('POST', '/v3/offers', { anonymousPassengerSpecifications: [{ externalRef: 'p1', type: 'PERSON', age: 'thirty' }] });
    expect(res.detail).toBe('Förfrågan är ogiltig: anonymousPassengerSpecifications/0/age: Ogiltig inmatning: förväntat antal, fick string');
    expect(res.pointers?.[0]?.detail).toBe('Ogiltig inmatning: förväntat antal, fick string');
  });
});

describe('the code hands the Problem texts it names to the catalogue', () => {
  // A reason or a resource written as an English literal reaches a Swedish answer as it is: the scenario run above
  // only finds texts of the catalogue, so literals in the code are looked for here.
  it('gives every reason and resource as a phrase of rules/errors.yaml texts, never a string literal', () => {
    const sources = ['engine', 'adapters/http', 'adapters/service/service.ts'].flatMap((p) =>
      statSync(p).isDirectory()
        ? readdirSync(p, { recursive: true, encoding: 'utf8' })
            .filter((f) => f.endsWith('.ts'))
            .map((f) => join(p, f))
        : [p],
    );
    const literals = sources.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/\b(reason|resource|feature): *[`'"]|\? *'the /.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(literals).toEqual([]);
  });
});
