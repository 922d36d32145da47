import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { painter, wantsColour } from '../adapters/cli/colour.ts';
import { colourReport } from '../adapters/cli/report-colour.ts';
import { cli } from './helpers/cli.ts';

/** What a QA engineer writing scenarios reaches for: all problems at once, --bail, variables, colour, HTML, --watch. */
const dir = mkdtempSync(join(tmpdir(), 'signalbox-runner-'));
const CLOCK = 'clock: 2026-11-20T10:00:00+01:00';

describe('signalbox test, for the one writing scenarios', () => {
  it('reports every problem of every broken file in one run', async () => {
    const broken = join(dir, 'broken');
    mkdirSync(broken, { recursive: true });
    // The fixtures path is relative to the scenario: copies keep their problems but not a fixture file.
    copyFileSync('scenarios/failing/malformed.yaml', join(broken, 'a-malformed.yaml'));
    writeFileSync(join(broken, 'b-typos.yaml'), readFileSync('scenarios/failing/three-typos.yaml', 'utf8').replace('uses: [../fixtures/trips.yaml]\n', ''));
    const { code, stdout } = await cli(broken);
    expect(code).toBe(1);
    const problems = stdout.split('\n').filter((l) => /^ {4}\S+\.yaml:\d+:\d+: /.test(l));
    expect(problems.filter((l) => l.includes('a-malformed.yaml'))).toHaveLength(4);
    expect(problems.filter((l) => l.includes('b-typos.yaml'))).toEqual([
      expect.stringContaining('b-typos.yaml:11:41: steps.0.body.anonymousPassengerSpecifications: a list of ages is written { $passengers: [35, 8] }'),
      expect.stringContaining('Unrecognized key: "stauts"'),
      expect.stringContaining('Unrecognized key: "bdy"'),
      expect.stringContaining('a step names exactly one of get'),
      expect.stringContaining('Unrecognized key: "advanse"'),
    ]);
    expect(stdout).toContain('0 passed, 2 failed');
  });

  it('accepts a fixture group written as a list of ages, its passengers p1…pN', async () => {
    const file = join(dir, 'ages', 'group.yaml');
    mkdirSync(join(dir, 'ages', 'fixtures'), { recursive: true });
    writeFileSync(join(dir, 'ages', 'fixtures', 'people.yaml'), 'passengers:\n  two: [35, 8]\n');
    writeFileSync(
      file,
      `name: ages\n${CLOCK}\nuses: [${join(process.cwd(), 'scenarios/fixtures/trips.yaml')}, fixtures/people.yaml]\nsteps:\n  - post: /v3/offers\n    body: { tripSpecifications: [{ $trip: sto-gbg-0800 }], anonymousPassengerSpecifications: { $passengers: two } }\n    expect: { status: 200 }\n`,
    );
    const { stdout } = await cli(file, '--reporter', 'json');
    const step = JSON.parse(stdout).scenarios[0].steps[0];
    expect(step.request.body.anonymousPassengerSpecifications).toEqual([
      { externalRef: 'p1', type: 'PERSON', age: 35 },
      { externalRef: 'p2', type: 'PERSON', age: 8 },
    ]);
    expect(step.response.status).toBe(200);
  });

  it('--bail stops starting scenarios after the first failure and says how many did not run', async () => {
    const { code, stdout, stderr } = await cli('scenarios/failing', '--bail', '--jobs', '1');
    expect(code).toBe(1);
    expect(stdout).toContain('0 passed, 1 failed (1 scenario,');
    expect(stderr).toMatch(/stopped at the first failure \(--bail\): \d+ scenarios not run/);
  });

  it('--vars FILE and --var NAME=VALUE give every scenario values, the client and its secret included', async () => {
    const file = join(dir, 'vars.yaml');
    writeFileSync(
      file,
      `name: vars\nclient: \${client}\nsalesApplication: \${app}\n${CLOCK}\nsteps:\n  - get: /v3/bookings/\${booking}\n    expect: { status: 404, body: { code: RESOURCE_NOT_FOUND } }\n`,
    );
    const varsFile = join(dir, 'target.yaml');
    writeFileSync(varsFile, 'client: demo-reseller\napp: WEB_SE\nbooking: FROM-FILE\n');
    const passed = await cli(file, '--vars', varsFile, '--var', 'booking=FROM-FLAG', '--reporter', 'json');
    expect(passed.code).toBe(0);
    expect(JSON.parse(passed.stdout).scenarios[0].steps[0].request.path).toBe('/v3/bookings/FROM-FLAG');

    const missing = await cli(file, '--var', 'booking=X');
    expect(missing.stdout).toContain('${client} was not saved by an earlier step (saved so far: booking)');
    const wrongSecret = await cli(file, '--vars', varsFile, '--var', 'secret.demo-reseller=not-the-secret');
    expect(wrongSecret.stdout).toContain('the token request for demo-reseller answered 401');
    await expect(cli(file, '--var', 'no-equals-sign')).rejects.toThrow('--var wants NAME=VALUE, not no-equals-sign');
  });

  it('--skip-tags leaves out the scenarios with any of the tags', async () => {
    const { stdout } = await cli('scenarios/seats', '--skip-tags', 'needs-reset', '--grep', 'place map');
    expect(stdout).not.toContain('place-map.yaml');
    expect(stdout).toContain('place-map-booking-without-seat-map.yaml'); // the untagged one still runs
  });

  it('colours a terminal report unless NO_COLOR is set; a pipe gets plain text', () => {
    expect(wantsColour({ isTTY: true }, {})).toBe(true);
    expect(wantsColour({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(wantsColour({ isTTY: false }, {})).toBe(false);
    expect(wantsColour({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    const report = '✗ A scenario  [s.yaml] 3 ms\n        expected  200\n        actual    400\n\n0 passed, 1 failed (1 scenario, 1 step)\n';
    const coloured = colourReport(report, painter({ isTTY: true }, {}));
    expect(coloured).toContain('\x1b[31m\x1b[1m✗ A scenario\x1b[22m\x1b[39m\x1b[2m  [s.yaml] 3 ms\x1b[22m');
    expect(coloured).toContain('\x1b[32mexpected  200\x1b[39m');
    expect(colourReport(report, painter({ isTTY: false }, {}))).toBe(report);
    expect(stripVTControlCharacters(coloured)).toBe(report);
  });

  it("--reporter html shows each step's request, response, mismatches and the failing step's traces", async () => {
    const file = join(dir, 'report.html');
    const { code, stdout } = await cli('scenarios/failing/wrong-status.yaml', 'scenarios/booking/sell-one-journey.yaml', '--reporter', 'html', '--out', file);
    expect(code).toBe(1);
    expect(stdout).toContain('1 passed, 1 failed'); // the terminal still gets the pretty report
    const html = readFileSync(file, 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<script|(?:src|href)=["']?https?:/); // self-contained: nothing loaded from elsewhere
    expect(html).toContain('<details class="scenario fail" open><summary>✗ Golden: a wrong status');
    expect(html).toContain(
      '<details class="step fail" open><summary>✗ ten passengers are expected to be fine (they are not) <span class="at">(scenarios/failing/wrong-status.yaml:9)</span>',
    );
    expect(html).toContain('<h3>Response 400</h3>');
    expect(html).toContain('status: different status  (scenarios/failing/wrong-status.yaml:14:23)\n  expected  200\n  actual    400');
    expect(html).toContain('offerRequestLimits → too-many-passengers (rules/offer-request-limits.yaml:10:5)');
    expect(html).toContain('<details class="step skip"><summary>– never reached');
    // A passing scenario's steps are there too, closed, each with what it sent and got.
    const passing = html.slice(html.indexOf('<details class="scenario pass">'));
    expect(passing).toContain('<h3>Request</h3><pre class="request">POST /v3/offers');
    expect(passing.match(/<details class="step pass">/g)!.length).toBeGreaterThan(2);

    // --html writes the same page beside another report (JUnit for CI).
    const beside = join(dir, 'beside.html');
    await cli(
      'scenarios/failing/wrong-status.yaml',
      'scenarios/booking/sell-one-journey.yaml',
      '--reporter',
      'junit',
      '--out',
      join(dir, 'junit.xml'),
      '--html',
      beside,
    );
    expect(readFileSync(beside, 'utf8').replace(/\d+ ms/g, 'N ms')).toBe(html.replace(/\d+ ms/g, 'N ms'));
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('<testsuites');
  });

  it('--watch runs again when a scenario file changes', async () => {
    const file = join(dir, 'watched', 'health.yaml');
    mkdirSync(join(dir, 'watched'), { recursive: true });
    const write = (status: number) => writeFileSync(file, `name: watched\n${CLOCK}\nsteps:\n  - get: /health\n    expect: { status: ${status} }\n`);
    write(200);
    const child = spawn(process.execPath, ['bin/signalbox.js', 'test', join(dir, 'watched'), '--watch'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const seen = (text: string) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (out.includes(text)) resolve();
        };
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          check();
        });
        child.stderr.on('data', (c: Buffer) => {
          out += c.toString();
          check();
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}:\n${out}`)));
        check();
      });
    try {
      await seen('watching for changes');
      expect(out).toContain('1 passed, 0 failed');
      write(201);
      await seen('0 passed, 1 failed');
      expect(out).toContain('change seen; running again');
    } finally {
      child.kill('SIGINT');
    }
  }, 60_000);
});
