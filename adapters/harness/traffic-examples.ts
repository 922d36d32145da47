import type { Examples } from '../http/openapi/document.ts';
import { operationOf } from './api-schema.ts';
import type { ScenarioResult } from './results.ts';

/**
 * Examples for GET /openapi.json taken from scenario traffic (`signalbox examples`), not generated: for each
 * operation of the route table, a request body and one answer per status the scenarios saw, so Swagger UI at
 * /docs shows real bodies and prefills "Try it out" with one that works against a fresh sandbox's flow.
 */

const size = (v: unknown) => JSON.stringify(v ?? null).length;
/** A body worth showing: no top-level list empty (an offers answer with no offers teaches nothing). */
const telling = (body: unknown) => !!body && typeof body === 'object' && Object.values(body).every((v) => !Array.isArray(v) || v.length > 0);

/**
 * Per operation and status, the smallest telling answer the scenarios got (the smallest at all when none is
 * telling), with the request that got the chosen success answer. Deterministic: in-process runs are.
 */
export function examplesFrom(results: readonly ScenarioResult[]): Examples {
  const best = new Map<string, { request?: unknown; body: unknown; score: number }>();
  for (const r of results)
    for (const step of r.steps) {
      if (!step.request || !step.response || step.response.body === undefined) continue;
      const key = operationOf(step.request.method, step.request.path);
      if (!key) continue;
      const { status, body } = step.response;
      const score = (telling(body) ? 0 : 1e9) + size(body);
      const slot = `${key}\n${status}`;
      const known = best.get(slot);
      if (!known || score < known.score) best.set(slot, { request: step.request.body, body, score });
    }
  const examples: Examples = {};
  for (const [slot, { request, body }] of [...best].sort(([a], [b]) => a.localeCompare(b))) {
    const [key, status] = slot.split('\n') as [string, string];
    const entry = (examples[key] ??= { responses: {} });
    entry.responses[status] = body;
    if (request !== undefined && Number(status) < 300 && entry.request === undefined) entry.request = request;
  }
  return examples;
}
