import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SECRETS } from '../adapters/harness/demo-secrets.ts';
import { lineDiff } from '../adapters/harness/diff.ts';
import { jsonReport } from '../adapters/harness/json-report.ts';
import { junit } from '../adapters/harness/junit.ts';
import { describeScenario } from '../adapters/harness/report.ts';
import { runScenario, type ScenarioResult } from '../adapters/harness/runner.ts';
import { inProcess } from '../adapters/harness/targets.ts';
import { engine } from './helpers/server.ts';

/** `--reporter junit|json`: valid, one entry per scenario, and enough in a failure to act on without the terminal. */
interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/** A strict reader for the XML subset JUnit uses; it throws where a CI's parser would reject the file. */
function parseXml(source: string): XmlElement {
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(source)) throw new Error('control character in XML');
  const decode = (s: string, where: string) => {
    if (/<|&(?!(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);)/i.test(s)) throw new Error(`unescaped < or & in ${where}: ${s.slice(0, 80)}`);
    return s.replace(/&(lt|gt|amp|quot|apos);/g, (_m, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[e]!);
  };
  const body = source.replace(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n/, '');
  if (body === source) throw new Error('no XML declaration');
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack = [root];
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w:-]+="[^"]*")*)\s*(\/?)>|([^<]+)/gy;
  let m: RegExpExecArray | null;
  let read = 0;
  while ((m = token.exec(body))) {
    read = token.lastIndex;
    const top = stack[stack.length - 1]!;
    if (m[5] !== undefined) {
      top.text += decode(m[5], `text of <${top.name}>`);
      continue;
    }
    const [, closing, name, attrs, selfClosing] = m;
    if (closing) {
      if (top.name !== name) throw new Error(`</${name}> closes <${top.name}>`);
      stack.pop();
      continue;
    }
    const attributes: Record<string, string> = {};
    for (const a of attrs!.matchAll(/([\w:-]+)="([^"]*)"/g)) attributes[a[1]!] = decode(a[2]!, `attribute ${a[1]}`);
    const element: XmlElement = { name: name!, attributes, children: [], text: '' };
    top.children.push(element);
    if (!selfClosing) stack.push(element);
  }
  if (read !== body.length) throw new Error(`cannot read XML at ${body.slice(read, read + 40)}`);
  if (stack.length !== 1) throw new Error(`<${stack[stack.length - 1]!.name}> is never closed`);
  if (root.children.length !== 1) throw new Error('not exactly one root element');
  return root.children[0]!;
}

describe('reporters', () => {
  let results: ScenarioResult[];
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'signalbox-reporters-'));
    const passing = join(dir, 'passing.yaml');
    // A name with characters XML must escape, and a control character it cannot hold at all.
    writeFileSync(
      passing,
      'name: "Health <ok> & \\"fine\\" \\u001b[1m"\nclock: 2026-11-20T10:00:00+01:00\nsteps:\n  - get: /health\n    expect: { status: 200 }\n',
    );
    const target = inProcess(engine());
    results = [];
    for (const file of [passing, 'scenarios/failing/wrong-status.yaml', 'scenarios/failing/malformed.yaml']) {
      results.push(await runScenario(file, target, { secrets: DEMO_SECRETS }));
    }
  });

  it('the XML reader used here rejects what a CI parser would', () => {
    const decl = '<?xml version="1.0" encoding="UTF-8"?>\n';
    expect(parseXml(`${decl}<a b="1 &amp; 2"><c/>x &lt; y</a>`)).toMatchObject({ name: 'a', attributes: { b: '1 & 2' }, text: 'x < y' });
    expect(() => parseXml(`${decl}<a>x & y</a>`)).toThrow(/unescaped/);
    expect(() => parseXml(`${decl}<a b="<">x</a>`)).toThrow();
    expect(() => parseXml(`${decl}<a><b></a>`)).toThrow(/closes/);
    expect(() => parseXml(`${decl}<a>\u001b</a>`)).toThrow(/control/);
  });

  it('JUnit: valid XML, a testcase per scenario, failures that name the step and its file:line, the report in system-out', () => {
    const suites = parseXml(junit(results));
    expect(suites.name).toBe('testsuites');
    expect(suites.attributes).toMatchObject({ tests: '3', failures: '1', errors: '1' });
    const suite = suites.children[0]!;
    expect(suite.name).toBe('testsuite');
    const [passing, failing, malformed] = suite.children;
    expect(suite.children).toHaveLength(3);

    expect(passing!.attributes['name']).toBe('Health <ok> & "fine" \uFFFD[1m');
    expect(passing!.children.map((c) => c.name)).toEqual(['system-out']);

    expect(failing!.attributes).toMatchObject({
      classname: 'scenarios/failing/wrong-status.yaml',
      file: 'scenarios/failing/wrong-status.yaml',
      name: 'Golden: a wrong status',
    });
    expect(Number(failing!.attributes['time'])).toBeGreaterThanOrEqual(0);
    const failure = failing!.children.find((c) => c.name === 'failure')!;
    expect(failure.attributes['message']).toBe(
      'step "ten passengers are expected to be fine (they are not)" at scenarios/failing/wrong-status.yaml:9: status: different status',
    );
    expect(failure.text).toContain('offerRequestLimits → too-many-passengers');
    expect(failing!.children.find((c) => c.name === 'system-out')!.text).toBe(describeScenario(results[1]!).join('\n'));

    const error = malformed!.children.find((c) => c.name === 'error')!;
    expect(error.attributes['message']).toBe(
      'scenarios/failing/malformed.yaml:5:8: clock: an ISO 8601 date-time with offset, e.g. 2026-12-01T08:00:00+01:00 (and 3 more problems)',
    );
    expect(error.text.split('\n')).toHaveLength(4);
  });

  it('JSON: counts, every scenario in order with its steps, a one-line failure for the failing ones', () => {
    const report = JSON.parse(jsonReport(results));
    expect(report).toMatchObject({ passed: 1, failed: 2, steps: 2 });
    expect(report.scenarios.map((s: ScenarioResult) => s.file)).toEqual(results.map((r) => r.file));
    expect(report.scenarios[0]).not.toHaveProperty('failure');
    const failing = report.scenarios[1];
    expect(failing.failure).toBe(
      'step "ten passengers are expected to be fine (they are not)" at scenarios/failing/wrong-status.yaml:9: status: different status',
    );
    expect(failing.steps[0]).toMatchObject({
      passed: false,
      at: 'scenarios/failing/wrong-status.yaml:9',
      mismatches: [{ path: 'status', expected: 200, actual: 400, at: 'scenarios/failing/wrong-status.yaml:14:23' }],
      traces: [{ decision: 'offerRequestLimits', fired: [{ row: 'too-many-passengers' }] }],
    });
    expect(failing.steps[1]).toMatchObject({ skipped: true });
    expect(report.scenarios[2].problems).toHaveLength(4);
  });
});

describe('the diff of a mismatch', () => {
  it('shows changed lines with a little context and folds the rest', () => {
    const a = ['{', '  "a": 1,', '  "b": 2,', '  "c": 3,', '  "d": 4,', '  "e": 5,', '  "f": 6', '}'];
    const b = ['{', '  "a": 1,', '  "b": 2,', '  "c": 3,', '  "d": 40,', '  "e": 5,', '  "f": 6', '}'];
    expect(lineDiff(a, b)).toEqual(['  …', '    "b": 2,', '    "c": 3,', '-   "d": 4,', '+   "d": 40,', '    "e": 5,', '    "f": 6', '  …']);
  });
});
