import { Engine as JsonRulesEngine } from 'json-rules-engine';
import { createEngine } from '../engine/index.ts';
import type { CompiledDecision } from '../engine/rules/decision.ts';
import { factCatalogue } from '../engine/rules/facts.ts';
import { AGES } from './fixtures.ts';
import { fmt, median, microsPerCall, microsPerCallAsync, ratios, report, type CaseReport } from './measure.ts';

/**
 * The compiled rule evaluator against json-rules-engine on the same rules (each decision's `jsonRules()`)
 * and the same facts: passenger typing, the family discount role where rules/ has it, and the fare factor,
 * for 9 passengers. The facts are worked out once (with the compiled evaluator); both are then timed on them.
 */
type Facts = Record<string, unknown>;

const TYPING = ['NONE', 'NONE', 'NONE', 'SWE_STUDENT', 'NONE', 'NONE', 'NONE', 'NONE', 'SWE_PENSIONER'] as const;

/** Fills facts the catalogue declares but this bench does not know (a boolean is false) and checks them. */
function complete(decision: string, given: Facts): Facts {
  const schema = factCatalogue[decision as keyof typeof factCatalogue];
  const facts: Facts = { ...given };
  for (const [name, type] of Object.entries(schema.shape as Record<string, { def?: { type?: string } }>)) {
    if (facts[name] === undefined && type.def?.type === 'boolean') facts[name] = false;
  }
  const checked = schema.safeParse(facts);
  if (!checked.success) {
    throw new Error(
      `bench/rules.ts: the facts no longer fit ${decision} (engine/rules/facts.ts changed?): ${checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return facts;
}

export async function run(runs = Number(process.env['BENCH_RUNS'] ?? 5)): Promise<CaseReport> {
  const rules = createEngine().rules;
  const decisions = rules.decisions as unknown as Record<string, CompiledDecision | undefined>;
  const chain = ['passengerType', 'familyDiscountRole', 'fareFactor'].filter((d) => decisions[d]);
  const r = report('rules', `compiled evaluator vs json-rules-engine, 9 passengers × (${chain.join(' + ')})`);

  // The facts of every evaluation, worked out once.
  const evaluations: Array<{ decision: CompiledDecision; facts: Facts }> = [];
  for (const [i, age] of AGES.entries()) {
    const typing = complete('passengerType', { age, typingCard: TYPING[i] });
    const typed = decisions['passengerType']!.evaluate<{ internalType: string }>(typing).outcome;
    if (!typed) throw new Error(`no passenger type for age ${age}`);
    evaluations.push({ decision: decisions['passengerType']!, facts: typing });
    if (decisions['familyDiscountRole']) {
      evaluations.push({
        decision: decisions['familyDiscountRole'],
        facts: complete('familyDiscountRole', { internalType: typed.internalType, age, travelClass: 'SECOND' }),
      });
    }
    evaluations.push({
      decision: decisions['fareFactor']!,
      facts: complete('fareFactor', { internalType: typed.internalType, age, trafficDisturbanceTicket: false }),
    });
  }

  // json-rules-engine: one Engine per decision, runs awaited one after the other (never two run() at once on one Engine).
  const jre = new Map<CompiledDecision, JsonRulesEngine>();
  for (const { decision } of evaluations) {
    if (jre.has(decision)) continue;
    const e = new JsonRulesEngine(decision.jsonRules(), { allowUndefinedFacts: true });
    const operators = (decision as { jsonOperators?: () => Array<{ name: string; test: (a: unknown, b: unknown) => boolean }> }).jsonOperators?.() ?? [];
    for (const op of operators) e.addOperator(op.name, op.test as never);
    jre.set(decision, e);
  }

  // Both must agree on which rows fire, or the comparison means nothing.
  for (const { decision, facts } of evaluations) {
    const compiled = decision.evaluate(facts).trace.fired.map((f) => f.row);
    const { events } = await jre.get(decision)!.run(facts);
    const reference = events.map((e) => e.type);
    const expected = decision.hitPolicy === 'collect' ? reference : reference.slice(0, 1);
    if (compiled.join() !== expected.join()) {
      throw new Error(`${decision.name} ${JSON.stringify(facts)}: compiled fired [${compiled.join()}] but json-rules-engine [${reference.join()}]`);
    }
  }

  const compiledOnce = () => {
    for (const { decision, facts } of evaluations) decision.evaluate(facts);
  };
  const jreOnce = async () => {
    for (const { decision, facts } of evaluations) await jre.get(decision)!.run(facts);
  };

  const compiled: number[] = [];
  const reference: number[] = [];
  microsPerCall(compiledOnce, 200); // warm-up
  await microsPerCallAsync(jreOnce, 200);
  for (let i = 0; i < runs; i++) {
    compiled.push(microsPerCall(compiledOnce));
    reference.push(await microsPerCallAsync(jreOnce));
  }
  r.row('compiled evaluator, 9 passengers', 'µs', compiled);
  r.row('json-rules-engine, 9 passengers', 'µs', reference);
  const speedup = r.ratio('speed-up (json-rules-engine / compiled)', ratios(reference, compiled));
  r.row(
    'compiled, per decision evaluation',
    'µs',
    compiled.map((x) => x / evaluations.length),
  );
  r.goal('compiled ≥ 50× json-rules-engine', median(speedup) >= 50, `${fmt(median(speedup))}×`);
  r.goal('compiled < 20 µs for 9 passengers', median(compiled) < 20, `${fmt(median(compiled))} µs`);
  r.note(`${evaluations.length} decision evaluations per 9-passenger run; the compiled evaluator also builds its trace (the fired rows) every time.`);
  return r;
}
