import type { Engine } from '../../engine/index.ts';
import { bookingMachine } from '../../machines/booking.ts';
import { nothingExercised, type Exercised } from './exercised.ts';
import { routeOf, type Route } from './routes.ts';
import type { ScenarioResult } from './results.ts';

/**
 * Which of the operator's decision rows, error and warning codes, HTTP routes and booking-machine
 * transitions the selected scenarios exercised, and by which scenario files; an empty `by` is a gap.
 * Rows come from the rule traces, codes from the Problems and warnings answered, routes from the
 * requests sent, transitions from the booking states the responses showed one after another.
 */
export interface CoverageMatrix {
  scenarios: number;
  decisions: Array<{ decision: string; file: string; rows: Array<{ row: string; at: string; by: string[] }> }>;
  errors: Array<{ code: string; status: number; by: string[] }>;
  warnings: Array<{ code: string; by: string[] }>;
  routes: Array<{ method: string; url: string; by: string[] }>;
  /** Booking-machine transitions that change the state (derived from the states responses show, one after another). */
  transitions: Array<{ from: string; event: string; to: string; by: string[] }>;
  /** `STATE EVENT` the machine handles without changing state: not observable from outside, so not counted. */
  notObservable: string[];
  /** Answered, but not in the catalogue or not a route of this server: a sign of a stale rule set. */
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

/** `routes`: the server's routes (listRoutes), sandbox controls left out by the caller. */
export function coverageMatrix(results: readonly ScenarioResult[], engine: Engine, routes: readonly Route[]): CoverageMatrix {
  const rows = new Map<string, Set<string>>();
  const codes = new Map<string, Set<string>>();
  const warnings = new Map<string, Set<string>>();
  const hitRoutes = new Map<string, Set<string>>();
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
      const route = routeOf(routes, q.method, q.path);
      if (route) note(hitRoutes, `${route.method} ${route.url}`, r.file);
      else if (!q.path.startsWith('/sandbox/')) unknownRequests.add(`${q.method} ${q.path}`);
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
    decision: d.name, file: d.file, rows: d.rows.map((row) => ({ row: row.id, at: row.at, by: by(rows, `${d.name}#${row.id}`) })),
  }));
  const machine = machineTransitions();
  const knownRows = new Set(decisions.flatMap((d) => d.rows.map((row) => `${d.decision}#${row.row}`)));
  return {
    scenarios: results.length,
    decisions,
    errors: Object.entries(engine.rules.errors).map(([code, e]) => ({ code, status: e.status, by: by(codes, code) })),
    warnings: Object.keys(engine.rules.warnings).map((code) => ({ code, by: by(warnings, code) })),
    routes: routes.map((route) => ({ ...route, by: by(hitRoutes, `${route.method} ${route.url}`) })),
    transitions: machine.moves.map((t) => ({ ...t, by: by(moves, `${t.from}>${t.to}`) })),
    notObservable: machine.staying,
    unknown: {
      rows: [...rows.keys()].filter((k) => !knownRows.has(k)).sort(),
      codes: [...codes.keys()].filter((c) => !(c in engine.rules.errors)).sort(),
      requests: [...unknownRequests].sort(),
    },
  };
}
