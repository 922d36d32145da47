import type { z } from 'zod';
import type { Engine } from '../../engine/index.ts';
import { DEMO_SECRETS } from '../harness/demo-secrets.ts';
import { coverageMatrix } from '../harness/coverage.ts';
import { readUnreachable } from '../harness/coverage-gate.ts';
import { scenarioFiles } from '../harness/files.ts';
import { readHeader } from '../harness/load.ts';
import type { ScenarioResult } from '../harness/runner.ts';
import { runRecorded, type RecordedAnswer } from '../analysis/impact.ts';
import { selectScenarios } from '../harness/select.ts';
import { inProcess } from '../harness/targets.ts';
import type { ScenarioList, ScenarioRun } from '../http/openapi/studio-schemas.ts';

/**
 * The scenario corpus run from the studio: in-process against the rules now serving (as `signalbox test` does),
 * one scenario after another, with what each step answered and the rule traces behind it, and for a failing step why.
 */

export function listScenarios(paths: string[]): z.infer<typeof ScenarioList> {
  return scenarioFiles(paths).map((file) => {
    const { name, tags } = readHeader(file);
    return { file, name: name ?? file, tags };
  });
}

export async function runCorpus(engine: Engine, paths: string[], fixtures: string, only: { tag?: string; file?: string } = {}): Promise<ScenarioRun> {
  const files = selectScenarios(scenarioFiles(paths), only.tag ? { tags: [only.tag] } : {}).filter((f) => only.file === undefined || f === only.file);
  const target = inProcess(engine);
  const results: ScenarioResult[] = [];
  const answered = new Map<string, RecordedAnswer[]>();
  for (const file of files) {
    const { result, answers } = await runRecorded(file, target, { secrets: DEMO_SECRETS, coverage: true });
    results.push(result);
    answered.set(file, answers);
  }
  // Every step's rule traces, passing ones too: the runner keeps those of a failing step only.
  const tracesOf = (file: string, at: string) => answered.get(file)?.find((a) => a.step?.at === at)?.result.traces;
  const m = coverageMatrix(results, engine);
  const unreachable = readUnreachable(fixtures).rows;
  const rows = m.decisions.flatMap((d) =>
    d.rows.map((r) => {
      const why = unreachable[`${d.decision}#${r.row}`];
      return { decision: d.decision, row: r.row, at: r.at, by: r.by, ...(why ? { unreachable: why } : {}) };
    }),
  );
  return {
    passed: results.filter((r) => r.passed).length,
    failed: results.filter((r) => !r.passed).length,
    scenarios: results.map((r) => ({
      file: r.file,
      name: r.name,
      tags: r.tags,
      passed: r.passed,
      problems: r.problems,
      steps: r.steps
        .map((s) => ({ s, traces: tracesOf(r.file, s.at) ?? s.traces }))
        .map(({ s, traces }) => ({
          name: s.name,
          at: s.at,
          passed: s.passed,
          ...(s.skipped ? { skipped: true } : {}),
          ...(s.request ? { request: { method: s.request.method, path: s.request.path } } : {}),
          ...(s.response ? { status: s.response.status } : {}),
          ...(s.error ? { error: s.error } : {}),
          mismatches: s.mismatches.map((x) => ({ path: x.path, expected: x.expected, actual: x.actual, message: x.message, ...(x.at ? { at: x.at } : {}) })),
          ...(traces ? { traces: traces.map((t) => ({ ...t, facts: { ...t.facts }, fired: [...t.fired] })) } : {}),
        })),
    })),
    coverage: { scenarios: files, rows, unexercised: rows.filter((r) => r.by.length === 0 && !r.unreachable).map((r) => `${r.decision}#${r.row}`) },
  };
}
