import type { z } from 'zod';
import { kindOf, type FactKind } from './check.ts';
import { conditionTest, type CompiledDecision, type Condition } from './decision.ts';
import { isInstantRef, offsetOf } from './operators.ts';

/**
 * Boundary cases of a decision, for `signalbox simulate --boundaries` and `signalbox diff`: every bound a
 * row names ±1, every enum value, both booleans, and for instants every offset a row names ±1 second.
 * One case per row that satisfies it as far as it can, then each fact moved over all its values from there:
 * a few dozen cases per table, not the full product.
 */
const T0 = Date.parse('2026-01-01T00:00:00Z');

function valuesOf(kind: FactKind, conditions: readonly Condition[]): unknown[] {
  if (kind.kind === 'enum') return [...kind.values];
  if (kind.kind === 'boolean') return [false, true];
  const named = conditions.flatMap((c) => (Array.isArray(c.value) ? (c.value as unknown[]) : [c.value]));
  if (kind.kind === 'string') return [...new Set([...named.filter((v) => typeof v === 'string'), 'OTHER'])];
  if (kind.kind === 'instant') {
    const offsets = new Set<number>([0]);
    for (const c of conditions) if (isInstantRef(c.value)) offsets.add(offsetOf(c.value));
    const points = new Set<number>();
    for (const o of offsets) for (const d of [-1000, 0, 1000]) for (const sign of [1, -1]) points.add(T0 + sign * o + d);
    return [...points].sort((a, b) => a - b).map((t) => new Date(t).toISOString());
  }
  const points = new Set<number>([kind.min]);
  for (const v of named) if (typeof v === 'number') for (const p of [v - 1, v, v + 1]) if (p >= kind.min && p <= kind.max) points.add(p);
  return [...points].sort((a, b) => a - b);
}

/** The boundary cases of `decision`; `alsoFrom` adds the bounds another version of the table names (diff). */
export function boundaryCases(decision: CompiledDecision, facts: z.ZodObject, alsoFrom?: CompiledDecision): Array<Record<string, unknown>> {
  const names = Object.keys(facts.shape);
  const conditions = [...decision.rows, ...(alsoFrom?.rows ?? [])].flatMap((r) => r.conditions);
  // Instants are compared with each other through offsets: they all move together from T0, one at a time.
  const values = Object.fromEntries(
    names.map((n) => [
      n,
      valuesOf(
        kindOf(facts.shape[n] as z.ZodType),
        conditions.filter((c) => c.fact === n || (isInstantRef(c.value) && c.value.fact === n)),
      ),
    ]),
  );
  const cases = new Map<string, Record<string, unknown>>();
  const add = (c: Record<string, unknown>) => cases.set(JSON.stringify(c), { ...c });
  const instantsAt = (c: Record<string, unknown>) => {
    for (const n of names) if (kindOf(facts.shape[n] as z.ZodType).kind === 'instant') c[n] = new Date(T0).toISOString();
  };
  for (const row of [...decision.rows, ...(alsoFrom?.rows ?? [])]) {
    const base: Record<string, unknown> = Object.fromEntries(names.map((n) => [n, values[n]![0]]));
    instantsAt(base);
    const tests = row.conditions.map(conditionTest);
    const passing = (c: Record<string, unknown>) => tests.filter((t) => t(c)).length;
    for (let round = 0; round < 2; round++) {
      for (const n of names) {
        let best = base[n];
        let score = passing(base);
        for (const v of values[n]!) {
          const score2 = passing({ ...base, [n]: v });
          if (score2 > score) {
            best = v;
            score = score2;
          }
        }
        base[n] = best;
      }
    }
    add(base);
    for (const n of names) for (const v of values[n]!) add({ ...base, [n]: v });
  }
  return [...cases.values()];
}
