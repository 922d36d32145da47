import { z } from 'zod';
import { checkDecision } from './check.ts';
import { checkOutcomes } from './check-outcomes.ts';
import { crossFileProblems, type ParsedFile } from './cross-file.ts';
import { salvageDecision } from './salvage.ts';
import { compileDecision, type CompiledDecision } from './decision.ts';
import { factCatalogue, type DecisionName } from './facts.ts';
import { outcomeCatalogue } from './outcomes.ts';
import {
  DecisionFile,
  valueFiles,
  type AncillaryItems,
  type Cards,
  type Customers,
  type PassProducts,
  type Timetable,
  type Clients,
  type ErrorCatalogue,
  type WarningCatalogue,
  type TextCatalogue,
  type Limits,
  type Product,
  type Products,
  type SalesApplication,
  type Station,
  type Tariff,
} from './schemas.ts';
import type { CoachLayouts, Fleet } from './seat-schemas.ts';
import { parseSource, RuleFileError, type SourceFile } from './source.ts';
import { withoutPrototypes } from './null-prototype.ts';
import { calendarIn, type Calendar } from './calendar.ts';

/** Everything the operator decides, loaded once, checked, compiled and frozen before serving. */
export interface RuleSet {
  readonly decisions: Readonly<Record<DecisionName, CompiledDecision>>;
  readonly limits: Limits;
  readonly salesApplications: ReadonlyMap<string, SalesApplication>;
  readonly clients: Clients;
  readonly stations: StationRegistry;
  readonly products: Products & { byCode: ReadonlyMap<string, Product> };
  readonly tariff: Tariff;
  readonly errors: ErrorCatalogue;
  /** The phrases errors are filled with (errors.yaml `texts`). */
  readonly texts: TextCatalogue;
  readonly cards: Cards;
  readonly ancillaryItems: AncillaryItems;
  readonly timetable: Timetable;
  /** The operator's calendar, in rules/timetable.yaml's time zone: operating days, validity days, ages. */
  readonly calendar: Calendar;
  readonly passProducts: PassProducts;
  /** Customers, their travel passes and corporate contracts (Customer API; loyalty and pass facts for offers and bookings). */
  readonly customers: Customers;
  readonly warnings: WarningCatalogue;
  /** The coaches of each product category's trains (rules/fleet.yaml, spec §2.10). */
  readonly fleet: Fleet;
  /** Coach layouts by id (rules/coach-layouts.yaml, spec §2.11). */
  readonly coachLayouts: CoachLayouts;
  /** The files the rule set was made of, for `signalbox check` and traces. */
  readonly files: readonly string[];
  /** Their texts as compiled: a rule release is made of them (docs/releases.md). */
  readonly sources: readonly RuleSource[];
  /**
   * `file:line:col` of a value in a reference-data file (`tariff.yaml`, `['categories', 'ST', 'base']`), so an
   * explanation can point at the line an amount came from as a trace points at a decision's row.
   */
  referenceAt(file: keyof typeof valueFiles, path: readonly PropertyKey[]): string;
}

interface StationRegistry {
  readonly operatorCarrier: { ref: string; name: string };
  /** Looks up a station by either of its codes. */
  byRef(ref: string): Station | undefined;
  all: readonly Station[];
}

export interface RuleSource {
  /** Path as shown in messages, e.g. `rules/passenger-types.yaml`. */
  readonly file: string;
  readonly text: string;
}

function zodProblems(source: SourceFile, error: z.ZodError): string[] {
  return error.issues.map((issue) => `${source.at(issue.path)}: ${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
}

/**
 * Parses, validates, checks and compiles rule files. Pure: the caller reads the files.
 * Throws RuleFileError listing every problem as `file:line:col: message`.
 */
export function compileRuleSet(sources: readonly RuleSource[]): RuleSet {
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  const parsedFiles: Record<string, ParsedFile> = {};
  const valueSources = new Map<string, SourceFile>();
  const decisions: Partial<Record<DecisionName, CompiledDecision>> = {};
  const decisionFiles = new Map<string, string>();
  const tables: Array<{ table: DecisionFile; source: SourceFile }> = [];
  // What the files that failed meant to be, so a broken file is not reported missing as well.
  const attempted = new Set<string>();
  let unreadable = false;

  for (const { file, text } of sources) {
    let source: SourceFile;
    try {
      source = parseSource(file, text);
    } catch (e) {
      if (e instanceof RuleFileError) {
        problems.push(...e.problems);
        unreadable = true;
        continue;
      }
      throw e;
    }
    const base = file.split('/').pop()!;
    attempted.add(base);
    const data = source.data as Record<string, unknown> | null;
    if (data && typeof data === 'object' && 'decision' in data) {
      attempted.add(String(data['decision']));
      const parsed = DecisionFile.safeParse(data);
      if (!parsed.success) {
        problems.push(...zodProblems(source, parsed.error));
        const rest = salvageDecision(data, parsed.error, source);
        if (rest) problems.push(...tableProblems(rest.table, compileDecision(rest.table, rest.source), rest.source, true));
        continue;
      }
      const table = parsed.data;
      const compiled = compileDecision(table, source);
      const found = tableProblems(table, compiled, source, false);
      if (decisionFiles.has(table.decision))
        found.push(`${source.at(['decision'])}: decision "${table.decision}" is already defined in ${decisionFiles.get(table.decision)}`);
      problems.push(...found);
      if (found.length === 0) {
        decisions[table.decision as DecisionName] = compiled;
        decisionFiles.set(table.decision, file);
        tables.push({ table, source });
      }
      continue;
    }
    const schema = valueFiles[base as keyof typeof valueFiles];
    if (!schema) {
      problems.push(`${file}:1:1: unknown rule file; expected a decision table (first key \`decision\`) or one of ${Object.keys(valueFiles).join(', ')}`);
      continue;
    }
    const parsed = (schema as z.ZodType).safeParse(data);
    if (!parsed.success) {
      problems.push(...zodProblems(source, parsed.error));
      continue;
    }
    values[base] = withoutPrototypes(parsed.data);
    parsedFiles[base] = { data: values[base], source };
    valueSources.set(base, source);
  }

  // A file that cannot be read could have been any decision: missing decisions wait until every file reads.
  if (!unreadable)
    for (const name of Object.keys(factCatalogue))
      if (!decisions[name as DecisionName] && !attempted.has(name)) problems.push(`rules: no file defines the decision "${name}"`);
  for (const base of Object.keys(valueFiles)) if (!values[base] && !attempted.has(base)) problems.push(`rules/${base}: file missing`);
  problems.push(...crossFileProblems(parsedFiles, decisions, tables));
  if (problems.length > 0) throw new RuleFileError(problems);

  const products = values['products.yaml'] as Products;
  const salesApps = (values['sales-applications.yaml'] as { salesApplications: Record<string, Omit<SalesApplication, 'code'>> }).salesApplications;
  const stationsFile = values['stations.yaml'] as { operatorCarrier: { ref: string; name: string }; stations: Station[] };
  const clients = values['clients.yaml'] as Clients;
  const { errors, warnings, texts } = values['errors.yaml'] as { errors: ErrorCatalogue; warnings: WarningCatalogue; texts: TextCatalogue };
  const fleet = values['fleet.yaml'] as Fleet;
  const coachLayouts = values['coach-layouts.yaml'] as CoachLayouts;

  const byRef = new Map<string, Station>();
  for (const s of stationsFile.stations) {
    if (s.x_swe) byRef.set(s.x_swe, s);
    if (s.uic) byRef.set(s.uic, s);
  }
  return deepFreeze({
    decisions: decisions as Record<DecisionName, CompiledDecision>,
    limits: values['limits.yaml'] as Limits,
    salesApplications: new Map(Object.entries(salesApps).map(([code, a]) => [code, { ...a, code }])),
    clients,
    stations: { operatorCarrier: stationsFile.operatorCarrier, byRef: (ref: string) => byRef.get(ref), all: stationsFile.stations },
    products: { ...products, byCode: new Map(Object.entries(products.products).map(([code, p]) => [code, { ...p, code }])) },
    tariff: values['tariff.yaml'] as Tariff,
    errors,
    texts,
    cards: values['cards.yaml'] as Cards,
    ancillaryItems: (values['ancillary-items.yaml'] as { items: AncillaryItems }).items,
    timetable: values['timetable.yaml'] as Timetable,
    calendar: calendarIn((values['timetable.yaml'] as Timetable).timeZone),
    passProducts: values['pass-products.yaml'] as PassProducts,
    customers: values['customers.yaml'] as Customers,
    warnings,
    fleet,
    coachLayouts,
    files: sources.map((s) => s.file),
    sources,
    referenceAt: (file: string, path: readonly PropertyKey[]) => valueSources.get(file)?.at(path) ?? `rules/${file}`,
  });
}

/** One table's own problems; `partial` when rows or examples were left out for schema problems (salvage.ts). */
function tableProblems(table: DecisionFile, compiled: CompiledDecision, source: SourceFile, partial: boolean): string[] {
  return [
    ...checkDecision(table, compiled, source, factCatalogue[table.decision as DecisionName], partial),
    ...checkOutcomes(table, source, outcomeCatalogue[table.decision as DecisionName]),
  ];
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value) && !(value instanceof Map)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
