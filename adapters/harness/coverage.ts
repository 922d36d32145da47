import type { Engine } from '../../engine/index.ts';
import { bookingMachine } from '../../machines/booking.ts';
import { keyOf, operationOf, operations, sandboxOnly, type Operation } from '../http/operations/index.ts';
import { nothingExercised, type Exercised } from './exercised.ts';
import type { ScenarioResult } from './results.ts';

/**
 * Which of the operator's decision rows, error and warning codes, API operations (the route table's, and
 * the OSDM operations they stand for) and booking-machine transitions the selected scenarios exercised, and by
 * which scenario files; an empty `by` is a gap. Rows come from the rule traces, codes from the Problems and
 * warnings answered, operations from the requests sent, transitions from the booking states the responses
 * showed one after another.
 */
export interface CoverageMatrix {
  scenarios: number;
  decisions: Array<{ decision: string; file: string; rows: Array<{ row: string; at: string; by: string[] }> }>;
  errors: Array<{ code: string; status: number; by: string[] }>;
  warnings: Array<{ code: string; by: string[] }>;
  /** The route table's operations, sandbox controls left out: `ANY` is one operation whatever the methods called. */
  operations: Array<{ method: string; path: string; osdm: readonly string[]; by: string[] }>;
  /** The OSDM 3.4 operations (by operationId) the route table says it serves, each exercised through any of its routes. */
  osdmOperations: Array<{ operationId: string; by: string[] }>;
  /** Booking-machine transitions that change the state (derived from the states responses show, one after another). */
  transitions: Array<{ from: string; event: string; to: string; by: string[] }>;
  /** `STATE EVENT` the machine handles without changing state: not observable from outside, so not counted. */
  notObservable: string[];
  /** Answered, but not in the catalogue or not an operation of this server: a sign of a stale rule set. */
  unknown: { rows: string[]; codes: string[]; requests: string[] };
}

/**
 * The machine's transitions, read off its state nodes: those that change the state, which responses
 * show, and the events a state handles without leaving it (a patch), which no response can show.
 */
function machineTransitions(): { moves: Array<{ from: string; event: string; to: string }>; staying: string[] } {
  const moves: Array<{ from: string; event: string; to: string }> = [];
  const staying: string[] = [];
  for (const [from, node] of Object.entries(bookingMachine.root.states)) {
    for (const [event, definitions] of node.transitions) {
      for (const d of definitions) {
        const to = d.target?.[0]?.key;
        if (to && to !== from) moves.push({ from, event, to });
        else staying.push(`${from} ${event}`);
      }
    }
  }
  return { moves, staying };
}

/** The operations the coverage counts: the route table's, without the sandbox controls (a scenario's tools) and the studio (a page for analysts), neither of them the API. */
const counted = (op: Operation | undefined): op is Operation => op !== undefined && !sandboxOnly(op.access);

export function coverageMatrix(results: readonly ScenarioResult[], engine: Engine): CoverageMatrix {
  const rows = new Map<string, Set<string>>();
  const codes = new Map<string, Set<string>>();
  const warnings = new Map<string, Set<string>>();
  const hitOperations = new Map<string, Set<string>>();
  const moves = new Map<string, Set<string>>();
  const unknownRequests = new Set<string>();
  const note = (into: Map<string, Set<string>>, key: string, file: string) => {
    if (!into.has(key)) into.set(key, new Set());
    into.get(key)!.add(file);
  };
  for (const r of results) {
    const seen: Exercised = r.exercised ?? nothingExercised();
    for (const row of seen.rows) note(rows, row, r.file);
    for (const code of seen.codes) note(codes, code, r.file);
    for (const code of seen.warnings) note(warnings, code, r.file);
    for (const q of seen.requests) {
      const op = operationOf(q.method, q.path);
      if (counted(op)) note(hitOperations, keyOf(op), r.file);
      else if (!op && !q.path.startsWith('/sandbox/')) unknownRequests.add(`${q.method} ${q.path}`);
    }
    const last = new Map<string, string>();
    for (const { booking, state } of seen.bookingStates) {
      const before = last.get(booking);
      if (before && before !== state) note(moves, `${before}>${state}`, r.file);
      last.set(booking, state);
    }
  }
  const by = (into: Map<string, Set<string>>, key: string) => [...(into.get(key) ?? [])].sort();
  const decisions = Object.values(engine.rules.decisions).map((d) => ({
    decision: d.name,
    file: d.file,
    rows: d.rows.map((row) => ({ row: row.id, at: row.at, by: by(rows, `${d.name}#${row.id}`) })),
  }));
  const machine = machineTransitions();
  const knownRows = new Set(decisions.flatMap((d) => d.rows.map((row) => `${d.decision}#${row.row}`)));
  const api = operations.filter(counted).map((op) => ({ method: op.method, path: op.path, osdm: op.osdm ?? [], by: by(hitOperations, keyOf(op)) }));
  const osdmBy = new Map<string, Set<string>>();
  for (const op of api) for (const id of op.osdm) for (const file of op.by) note(osdmBy, id, file);
  return {
    scenarios: results.length,
    decisions,
    errors: Object.entries(engine.rules.errors).map(([code, e]) => ({ code, status: e.status, by: by(codes, code) })),
    warnings: Object.keys(engine.rules.warnings).map((code) => ({ code, by: by(warnings, code) })),
    operations: api,
    osdmOperations: [...new Set(api.flatMap((op) => op.osdm))].map((operationId) => ({ operationId, by: by(osdmBy, operationId) })),
    transitions: machine.moves.map((t) => ({ ...t, by: by(moves, `${t.from}>${t.to}`) })),
    notObservable: machine.staying,
    unknown: {
      rows: [...rows.keys()].filter((k) => !knownRows.has(k)).sort(),
      codes: [...codes.keys()].filter((c) => !(c in engine.rules.errors)).sort(),
      requests: [...unknownRequests].sort(),
    },
  };
}
