import fc from 'fast-check';
import { Engine } from 'json-rules-engine';
import { describe, expect, it } from 'vitest';
import { factCatalogue, type DecisionName } from '../engine/rules/facts.ts';
import { engine } from './helpers/server.ts';
import { factsArbitrary, runs, seed } from './helpers/facts.ts';

/**
 * The compiled evaluator (the hot path) decides exactly as json-rules-engine (the reference semantics)
 * on the same rules, for generated facts, in every decision of rules/. Replay a failure with FC_SEED.
 */
describe('compiled evaluator ≡ json-rules-engine', () => {
  const { decisions } = engine().rules;
  const s = seed();
  for (const name of Object.keys(decisions) as DecisionName[]) {
    it(`${name} (seed ${s})`, async () => {
      const decision = decisions[name];
      const rules = decision.jsonRules();
      await fc.assert(
        fc.asyncProperty(factsArbitrary(factCatalogue[name]), async (facts) => {
          // A fresh Engine per run: one Engine shared by concurrent run() calls loses rules (DESIGN "Rules").
          const jre = new Engine(rules, { allowUndefinedFacts: true });
          for (const { name: op, test } of decision.jsonOperators()) jre.addOperator(op, test);
          const { events } = await jre.run(facts);
          const expected = decision.rows.map((r) => r.id).filter((id) => events.some((e) => e.type === id));
          const compiled = decision.rows.filter((r) => r.firstFailing(facts) === -1).map((r) => r.id);
          expect(compiled).toEqual(expected);
          const result = decision.evaluate(facts);
          expect(result.trace.fired.map((f) => f.row)).toEqual(decision.hitPolicy === 'first' ? expected.slice(0, 1) : expected);
        }),
        { seed: s, numRuns: runs(300) },
      );
    });
  }
});
