import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cli } from './helpers/cli.ts';

const out = mkdtempSync(join(tmpdir(), 'signalbox-cli-'));

describe('signalbox test', () => {
  afterEach(() => vi.restoreAllMocks());

  it('--grep picks scenarios by name; a failure exits 1', async () => {
    const { code, stdout } = await cli('scenarios/failing', '--grep', 'WRONG STATUS');
    expect(code).toBe(1);
    expect(stdout).toMatch(/^✗ Golden: a wrong status {2}\[scenarios\/failing\/wrong-status\.yaml\] \d+ ms$/m);
    expect(stdout).toContain('0 passed, 1 failed (1 scenario, 1 step)');
  });

  it('--tags picks any of the tags; all passing exits 0', async () => {
    const { code, stdout } = await cli('scenarios/failing/clock-without-sandbox.yaml', 'scenarios/failing/malformed.yaml', '--tags', 'nope,golden');
    expect(code).toBe(0); // in-process the clock step works; malformed.yaml has no tags
    expect(stdout).toContain('1 passed, 0 failed (1 scenario, 3 steps)');
  });

  it('an empty selection is an error, not a green run', async () => {
    const { code, stderr } = await cli('scenarios/failing', '--tags', 'no-such-tag');
    expect(code).toBe(1);
    expect(stderr).toContain('no scenario files selected (check --grep and --tags)');
  });

  it('--jobs wants a whole number', async () => {
    await expect(cli('scenarios/failing', '--jobs', '0')).rejects.toThrow('--jobs wants a whole number of at least 1, not 0');
  });

  it('--reporter junit --out writes the XML and prints the pretty report', async () => {
    const file = join(out, 'junit', 'report.xml');
    const { code, stdout } = await cli('scenarios/failing/wrong-status.yaml', '--reporter', 'junit', '--out', file);
    expect(code).toBe(1);
    expect(readFileSync(file, 'utf8')).toContain('<testcase classname="scenarios/failing/wrong-status.yaml" name="Golden: a wrong status"');
    expect(stdout).toContain('✗ Golden: a wrong status');
  });

  it('--reporter json on stdout is JSON alone, even with --coverage (its summary goes to stderr)', async () => {
    const matrix = join(out, 'coverage.json');
    const { stdout, stderr } = await cli('scenarios/failing/wrong-status.yaml', '--reporter', 'json', '--coverage', '--coverage-out', matrix);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({ passed: 0, failed: 1 });
    expect(report.coverage.errors.find((e: { code: string }) => e.code === '86003').by).toEqual(['scenarios/failing/wrong-status.yaml']);
    expect(stderr).toContain('coverage of 1 scenario:');
    expect(stderr).toContain(`matrix: ${matrix}`);
    expect(JSON.parse(readFileSync(matrix, 'utf8'))).toEqual(report.coverage);
  });

  it('--coverage prints the summary after the pretty report', async () => {
    const { stdout } = await cli('scenarios/failing/wrong-status.yaml', '--coverage', '--coverage-out', join(out, 'c2.json'));
    expect(stdout).toMatch(/1 step\)\n\ncoverage of 1 scenario:\n {2}decision rows/);
    expect(stdout).toMatch(/^ {2}error codes +1\/\d+/m);
  });

  it('--osdm reports each step whose answer breaks the OSDM document, and fails the run; --osdm-known counts them instead', async () => {
    // A stand-in for the OSDM document whose offers answer wants a field signalbox never sends.
    const document = join(out, 'osdm.yml');
    writeFileSync(
      document,
      [
        'openapi: 3.0.3',
        'paths:',
        '  /offers:',
        '    post:',
        '      responses:',
        "        '200':",
        '          content:',
        '            application/json:',
        '              schema: { $ref: "#/components/schemas/Answer" }',
        'components:',
        '  responses: {}',
        '  schemas:',
        '    Answer: { type: object, required: [neverSent], properties: { neverSent: { type: string, nullable: true } } }',
        '',
      ].join('\n'),
    );
    const { code, stdout } = await cli('scenarios/offers/no-offers.yaml', '--osdm', document);
    expect(code).toBe(1);
    expect(stdout).toContain('1 passed, 0 failed');
    expect(stdout).toMatch(
      /OSDM 3\.4 conformance\n {2}✗ the train 999 on Christmas Eve is cancelled {2}\(scenarios\/offers\/no-offers\.yaml:\d+\)\n {6}POST \/v3\/offers → 200 {2}\(POST \/offers\)\n {8}\(body\): required property neverSent is missing/,
    );
    expect(stdout).toContain('4 responses checked: 4 violations');
    const xml = join(out, 'osdm.xml');
    await cli('scenarios/offers/no-offers.yaml', '--osdm', document, '--reporter', 'junit', '--out', xml);
    expect(readFileSync(xml, 'utf8')).toMatch(
      /<testsuite name="OSDM 3\.4 conformance" tests="1" failures="1"[^>]*>\n {2}<testcase classname="scenarios\/offers\/no-offers\.yaml" name="OSDM 3\.4: No offers[^"]*"[^>]*>\n {4}<failure message="4 violations of OSDM 3\.4" type="OsdmViolation">/,
    );
    const known = join(out, 'known.txt');
    writeFileSync(known, '# already known\nPOST /offers 200 : required property neverSent is missing\n');
    const again = await cli('scenarios/offers/no-offers.yaml', '--osdm', document, '--osdm-known', known);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('4 responses checked: 0 violations, 4 known (--osdm-known)');
  });
});
