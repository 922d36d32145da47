import { readFileSync } from 'node:fs';
import { phrase, RuleViolation, type Phrase } from '../../engine/index.ts';
import { parseSource } from '../../engine/rules/index.ts';
import { scenarioFiles } from '../harness/files.ts';
import type { ExpectationUpdate } from '../http/openapi/studio-schemas.ts';
import { keepingLayout } from './tables.ts';

/**
 * Scenario expectations a rule change updates in the same save: each names its scenario file, its step (as the
 * impact report places it, `file:line`) and the expectation's keys in that step, and says what to expect from now on.
 * The files are rewritten as the rule files are (tables.ts `keepingLayout`): every line the update does not touch
 * stays byte for byte. Only the corpus's own files are written, and only where an expectation already stands.
 */
export function updatedScenarios(corpus: string[], updates: readonly ExpectationUpdate[]): Map<string, string> {
  const files = new Set(scenarioFiles(corpus));
  const texts = new Map<string, string>();
  updates.forEach((u, i) => {
    const refuse = (field: string, problem: Phrase): never => {
      throw new RuleViolation('86001', { reason: phrase('field-invalid', { field, problem }) }, [{ requestPointer: `#/expectations/${i}/${field}` }]);
    };
    if (!files.has(u.scenario)) refuse('scenario', phrase('expectation-not-in-corpus', { scenario: u.scenario }));
    const text = texts.get(u.scenario) ?? readFileSync(u.scenario, 'utf8');
    const source = parseSource(u.scenario, text);
    const steps = (source.data as { steps?: unknown[] } | null)?.steps ?? [];
    const index = steps.findIndex((_, n) => `${u.scenario}:${source.locate(['steps', n]).line}` === u.step);
    if (index < 0) refuse('step', phrase('expectation-no-step', { scenario: u.scenario, step: u.step }));
    if (u.keys[0] !== 'expect') refuse('keys', phrase('expectation-not-expect'));
    texts.set(
      u.scenario,
      keepingLayout(text, (doc) => {
        if (!doc.hasIn(['steps', index, ...u.keys])) refuse('keys', phrase('expectation-nothing-at', { step: u.step, keys: u.keys.join('.') }));
        doc.setIn(['steps', index, ...u.keys], u.value);
      }),
    );
  });
  return texts;
}
