import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadRules, RuleFileError } from '../engine/index.ts';

/**
 * Golden tests of `signalbox check` (Hurl style): each folder of test/golden/check/ holds `case.yaml`, one
 * edit that breaks a file of rules/ (`file`, `replace`, `with`), and `expected.txt`, the exact problems
 * check must print. Edits rather than copies, so the cases follow the rules as they change.
 * Run with UPDATE_GOLDEN=1 to rewrite expected.txt after a deliberate change of wording (then review the diff).
 */
const root = 'test/golden/check';
const work = mkdtempSync(join(tmpdir(), 'signalbox-golden-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('signalbox check, golden output', () => {
  for (const name of readdirSync(root).sort()) {
    it(name, () => {
      const dir = join(work, name);
      cpSync('rules', dir, { recursive: true });
      const edit = parse(readFileSync(join(root, name, 'case.yaml'), 'utf8')) as { file: string; replace: string; with: string };
      const original = readFileSync(join(dir, edit.file), 'utf8');
      expect(original, `${name}: the text to replace is no longer in rules/${edit.file}`).toContain(edit.replace);
      writeFileSync(join(dir, edit.file), original.replace(edit.replace, edit.with));
      let output = '';
      try {
        loadRules(dir);
      } catch (e) {
        if (!(e instanceof RuleFileError)) throw e;
        output = e.problems.join('\n');
      }
      output = output.split(relative(process.cwd(), dir)).join('rules') + '\n';
      const expectedFile = join(root, name, 'expected.txt');
      if (process.env['UPDATE_GOLDEN'] || !existsSync(expectedFile)) writeFileSync(expectedFile, output);
      expect(output).not.toBe('\n');
      expect(output).toBe(readFileSync(expectedFile, 'utf8'));
    });
  }
});
