import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** `signalbox table export` and `import` on a copy of rules/: a spreadsheet edit written back after check. */
const work = mkdtempSync(join(tmpdir(), 'signalbox-table-'));
const rules = join(work, 'rules');
cpSync('rules', rules, { recursive: true });
afterAll(() => rmSync(work, { recursive: true, force: true }));

const cli = (...args: string[]) => spawnSync(process.execPath, ['bin/signalbox.js', ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

describe('signalbox table', () => {
  const file = join(rules, 'fare-factors.yaml');
  const original = readFileSync(file, 'utf8');
  const exported = cli('table', 'export', 'fareFactor', '--rules', rules);

  it('exports a table as CSV on stdout', () => {
    expect(exported.status).toBe(0);
    expect(exported.stdout.split('\r\n')[0]).toMatch(/^id,otherwise,when\.internalType,.*then\.factor$/);
  });

  it('imports an unchanged export as no change at all', () => {
    writeFileSync(join(work, 'same.csv'), exported.stdout);
    const r = cli('table', 'import', 'fareFactor', join(work, 'same.csv'), '--rules', rules);
    expect(r.stdout).toContain('nothing changed');
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it('refuses an edit check refuses, and writes nothing', () => {
    writeFileSync(join(work, 'broken.csv'), exported.stdout.replace('0.75', '7.5'));
    const r = cli('table', 'import', 'fareFactor', join(work, 'broken.csv'), '--rules', rules);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/fare-factors\.yaml:\d+:\d+: /);
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it('writes an edit into the file, changing only the line of the edited cell', () => {
    writeFileSync(join(work, 'edit.csv'), exported.stdout.replace('0.75', '0.7'));
    const r = cli('table', 'import', 'fareFactor', join(work, 'edit.csv'), '--rules', rules);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const after = readFileSync(file, 'utf8').split('\n');
    const before = original.split('\n');
    const changed = before.flatMap((line, i) => (line === after[i] ? [] : [[line, after[i]]]));
    expect(changed).toEqual([['    then: { factor: 0.75 }', '    then: { factor: 0.7 }']]);
    expect(after).toHaveLength(before.length);
  });
});
