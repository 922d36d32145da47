import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_SECRETS } from '../adapters/harness/demo-secrets.ts';
import { runFiles } from '../adapters/harness/pool.ts';
import { progressLine } from '../adapters/harness/progress.ts';
import { pretty } from '../adapters/harness/report.ts';
import type { ScenarioResult } from '../adapters/harness/runner.ts';
import { selectScenarios } from '../adapters/harness/select.ts';
import { inProcess, type Target } from '../adapters/harness/targets.ts';
import { engine } from './helpers/server.ts';

/** `--grep`, `--tags`, `--jobs`: which files run, and that running them in parallel changes nothing but the time. */
function suite(count: number): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'signalbox-suite-'));
  return Array.from({ length: count }, (_, i) => {
    const file = join(dir, `s${String(i).padStart(2, '0')}.yaml`);
    const tags = i % 3 === 0 ? '[offers, fast]' : '[health]';
    const step =
      i % 3 === 0
        ? `  - post: /v3/offers\n    body: { tripSpecifications: [], anonymousPassengerSpecifications: [{ externalRef: p1, type: PERSON, age: ${20 + i} }] }\n    expect: { status: 400 }`
        : `  - get: /health\n    expect: { status: ${i === 4 ? 500 : 200} }`;
    writeFileSync(file, `name: Scenario number ${i}${i === 4 ? ' (fails)' : ''}\ntags: ${tags}\nclock: 2026-11-20T10:00:00+01:00\nsteps:\n${step}\n`);
    return file;
  });
}
const verdicts = (results: ScenarioResult[]) => results.map((r) => `${r.file} ${r.passed}`);
const withoutTimes = (results: ScenarioResult[]) => pretty(results).replace(/\] \d+ ms$/gm, '] N ms');

describe('selecting scenarios', () => {
  const files = suite(9);

  it('--grep matches the name in any case, --tags any of the tags', () => {
    expect(selectScenarios(files, { grep: 'NUMBER 1' })).toEqual([files[1]]);
    expect(selectScenarios(files, { tags: ['fast'] })).toEqual([files[0], files[3], files[6]]);
    expect(selectScenarios(files, { tags: ['nope', 'fast'] })).toEqual([files[0], files[3], files[6]]);
    expect(selectScenarios(files, { grep: '(fails)', tags: ['health'] })).toEqual([files[4]]);
    expect(selectScenarios(files, {})).toEqual(files);
  });

  it('selects a broken file by its name, or by its path when it has none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'signalbox-broken-'));
    writeFileSync(join(dir, 'named.yaml'), 'name: Broken but named\ntags: [x]\nsteps: 3\n');
    writeFileSync(join(dir, 'garbled.yaml'), 'name: [unclosed\n');
    const both = [join(dir, 'garbled.yaml'), join(dir, 'named.yaml')];
    expect(selectScenarios(both, { grep: 'broken but' })).toEqual([both[1]]);
    expect(selectScenarios(both, { tags: ['x'] })).toEqual([both[1]]);
    expect(selectScenarios(both, { grep: 'garbled' })).toEqual([both[0]]);
  });
});

describe('running files in parallel', () => {
  const files = suite(12);
  const target = inProcess(engine());
  const run = { secrets: DEMO_SECRETS };

  it('reports in file order whatever order the runs finish in', async () => {
    // A target whose sessions answer after a delay that shrinks with the file: later files finish first.
    const slow: Target = {
      name: 'slow',
      async open(start, clients) {
        const session = await target.open(start, clients);
        const delay = 40 - 3 * openings++;
        return {
          ...session,
          send: async (x) => {
            await new Promise((r) => setTimeout(r, Math.max(delay, 0)));
            return session.send(x);
          },
        };
      },
    };
    let openings = 0;
    const arrival: number[] = [];
    const results = await runFiles(files, slow, { jobs: 4, run, onResult: (_r, i) => arrival.push(i) });
    expect(arrival).not.toEqual([...arrival].sort((a, b) => a - b));
    expect(results.map((r) => r.file)).toEqual(files);
    expect(verdicts(results)).toEqual(files.map((f, i) => `${f} ${i !== 4}`));
  });

  it('gives worker threads files once the work left is worth one, with the same report as one job', async () => {
    const serial = await runFiles(files, target, { jobs: 1, run });
    // After the three files it takes the pace from, the main thread waits for a worker to finish one,
    // so a worker surely gets some however slowly it starts.
    let workerFinished: () => void = () => {};
    const aWorkerHasRun = new Promise<void>((r) => {
      workerFinished = r;
    });
    let opened = 0;
    const waiting: Target = {
      name: 'waiting',
      async open(start, clients) {
        const session = await target.open(start, clients);
        if (++opened <= 3) return session;
        return {
          ...session,
          send: async (x) => {
            await Promise.race([aWorkerHasRun, new Promise((r) => setTimeout(r, 15_000))]);
            return session.send(x);
          },
        };
      },
    };
    const threads = new Set<number>();
    const parallel = await runFiles(files, waiting, {
      jobs: 2,
      run,
      workers: { startAfterMs: 0 },
      onResult: (_r, _i, thread) => {
        threads.add(thread);
        if (thread !== 0) workerFinished();
      },
    });
    expect(threads.size, 'a worker thread ran some of the files').toBe(2);
    expect(withoutTimes(parallel)).toBe(withoutTimes(serial));
  }, 20_000);

  it('starts no worker for a selection the main thread finishes sooner', async () => {
    const threads = new Set<number>();
    await runFiles(files.slice(0, 4), target, { jobs: 4, run, workers: {}, onResult: (_r, _i, thread) => threads.add(thread) });
    expect([...threads]).toEqual([0]);
  });

  it('runs the next files on the main thread while a scenario waits for a fault delay, and one at a time otherwise', async () => {
    const delayed = join(dirname(files[0]!), 'delayed.yaml');
    writeFileSync(
      delayed,
      'name: Answered late\nclock: 2026-11-20T10:00:00+01:00\nsteps:\n  - get: /health\n    headers: { X-Sandbox-Fault: delay;ms=500 }\n    expect: { status: 200 }\n',
    );
    let open = 0;
    let most = 0;
    const counting: Target = {
      ...target,
      async open(...args) {
        const session = await target.open(...args);
        most = Math.max(most, ++open);
        return { ...session, close: () => (open--, session.close()) };
      },
    };
    const oneThread = { jobs: 1, run, workers: { startAfterMs: Number.MAX_SAFE_INTEGER } };
    const arrival: string[] = [];
    const results = await runFiles([delayed, ...files], counting, { ...oneThread, onResult: (r) => arrival.push(r.file) });
    expect(arrival.indexOf(files[0]!), 'the file after the delayed one finished first').toBeLessThan(arrival.indexOf(delayed));
    expect(most).toBeGreaterThanOrEqual(2);
    expect(results.map((r) => r.file)).toEqual([delayed, ...files]);
    expect(withoutTimes(results.slice(1))).toBe(withoutTimes(await runFiles(files, target, { jobs: 1, run })));

    most = 0;
    await runFiles(files, counting, oneThread);
    expect(most, 'with nothing to wait for, the files run one at a time').toBe(1);
  });
});

describe('the progress line', () => {
  const result = (passed: boolean, file: string) => ({ file, name: file, tags: [], passed, problems: [], steps: [], ms: 1 });

  it('counts done and failed on a terminal, and clears itself', () => {
    let written = '';
    const tty = {
      isTTY: true,
      columns: 60,
      write: (s: string) => {
        written += s;
        return true;
      },
    } as unknown as NodeJS.WriteStream;
    const progress = progressLine(3, tty);
    progress.done(result(true, 'a.yaml'));
    progress.done(result(false, 'b.yaml'));
    expect(written).toBe('\r\x1b[K1/3 scenarios  ✓ a.yaml\r\x1b[K2/3 scenarios, 1 failed  ✗ b.yaml');
    progress.end();
    expect(written.endsWith('\r\x1b[K')).toBe(true);
  });

  it('writes nothing into a pipe or a CI log', () => {
    let written = '';
    const pipe = {
      isTTY: false,
      write: (s: string) => {
        written += s;
        return true;
      },
    } as unknown as NodeJS.WriteStream;
    const progress = progressLine(1, pipe);
    progress.done(result(true, 'a.yaml'));
    progress.end();
    expect(written).toBe('');
  });
});
