import { z } from 'zod';
import { checkDecision } from './check.ts';
import { checkOutcomes, checkRejects } from './check-outcomes.ts';
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
  const valueSources = new Map<string, SourceFile>();
  const decisions: Partial<Record<DecisionName, CompiledDecision>> = {};
  const decisionFiles = new Map<string, string>();
  const tables: Array<{ table: DecisionFile; source: SourceFile }> = [];

  for (const { file, text } of sources) {
    let source: SourceFile;
    try {
      source = parseSource(file, text);
    } catch (e) {
      if (e instanceof RuleFileError) {
        problems.push(...e.problems);
        continue;
      }
      throw e;
    }
    const base = file.split('/').pop()!;
    const data = source.data as Record<string, unknown> | null;
    if (data && typeof data === 'object' && 'decision' in data) {
      const parsed = DecisionFile.safeParse(data);
      if (!parsed.success) {
        problems.push(...zodProblems(source, parsed.error));
        continue;
      }
      const table = parsed.data;
      const compiled = compileDecision(table, source);
      const found = [
        ...checkDecision(table, compiled, source, factCatalogue[table.decision as DecisionName]),
        ...checkOutcomes(table, source, outcomeCatalogue[table.decision as DecisionName]),
      ];
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
    valueSources.set(base, source);
  }

  // Missing pieces are only worth reporting when nothing else failed: a broken file is usually why.
  if (problems.length === 0) {
    for (const name of Object.keys(factCatalogue)) if (!decisions[name as DecisionName]) problems.push(`rules: no file defines the decision "${name}"`);
    for (const base of Object.keys(valueFiles)) if (!values[base]) problems.push(`rules/${base}: file missing`);
  }
  if (problems.length > 0) throw new RuleFileError(problems);

  const products = values['products.yaml'] as Products;
  const salesApps = (values['sales-applications.yaml'] as { salesApplications: Record<string, Omit<SalesApplication, 'code'>> }).salesApplications;
  const stationsFile = values['stations.yaml'] as { operatorCarrier: { ref: string; name: string }; stations: Station[] };
  const clients = values['clients.yaml'] as Clients;
  const { errors, warnings, texts } = values['errors.yaml'] as { errors: ErrorCatalogue; warnings: WarningCatalogue; texts: TextCatalogue };

  // Cross-file references.
  for (const [code, cat] of Object.entries(products.productCategories))
    for (const p of cat.products) {
      if (!products.products[p]) problems.push(`rules/products.yaml: category ${code} names unknown product ${p}`);
    }
  // Product categories are products.yaml's: every other file naming one is checked against it.
  const categories = Object.keys(products.productCategories);
  const unknownCategory = (code: string) => !(code in products.productCategories);
  for (const code of categories)
    if (!(values['tariff.yaml'] as Tariff).categories[code]) problems.push(`rules/tariff.yaml: product category ${code} of products.yaml has no fare`);
  for (const code of Object.keys((values['tariff.yaml'] as Tariff).categories).filter(unknownCategory))
    problems.push(`rules/tariff.yaml: ${code} is not a product category of products.yaml (${categories.join(', ')})`);
  for (const [type, pass] of Object.entries((values['customers.yaml'] as Customers).passTypes))
    for (const code of (pass.productCategories ?? []).filter(unknownCategory)) {
      problems.push(`rules/customers.yaml: pass type ${type} names ${code}, which is not a product category of products.yaml (${categories.join(', ')})`);
    }
  for (const d of Object.values(decisions))
    for (const c of d.rows.flatMap((r) => r.conditions))
      if (c.fact === 'productCategory') {
        for (const code of [c.value].flat())
          if (typeof code !== 'string' || unknownCategory(code))
            problems.push(`${c.at}: ${JSON.stringify(code)} is not a product category of products.yaml (${categories.join(', ')})`);
      }
  const phone = new RegExp((values['cards.yaml'] as Cards).phoneNumberPattern);
  (values['customers.yaml'] as Customers).customers.forEach((c) => {
    if (!phone.test(c.phoneNumber))
      problems.push(`rules/customers.yaml: the phone number ${c.phoneNumber} of ${c.firstName} ${c.lastName} does not match cards.yaml phoneNumberPattern`);
  });
  for (const [id, client] of Object.entries(clients.clients))
    for (const app of client.salesApplications) {
      if (!salesApps[app]) problems.push(`rules/clients.yaml: client ${id} names unknown sales application ${app}`);
    }
  for (const c of (values['customers.yaml'] as Customers).customers)
    for (const p of c.travelPasses)
      for (const ref of [p.origin, p.destination]) {
        if (ref && !stationsFile.stations.some((s) => s.x_swe === ref || s.uic === ref))
          problems.push(`rules/customers.yaml: pass ${p.cardNumber} of ${c.firstName} ${c.lastName} names unknown station ${ref}`);
      }
  const items = (values['ancillary-items.yaml'] as { items: AncillaryItems }).items;
  for (const row of decisions.ancillaryGroups?.rows ?? []) {
    for (const item of [...((row.then['items'] as string[] | undefined) ?? []), row.then['default'] as string | undefined]) {
      if (item !== undefined && !items[item]) problems.push(`${row.at}: ancillary item ${item} is not in ancillary-items.yaml`);
    }
  }
  const passTypes = (values['customers.yaml'] as Customers).passTypes;
  for (const code of Object.keys((values['pass-products.yaml'] as PassProducts).products)) {
    if (!passTypes[code]) problems.push(`rules/pass-products.yaml: ${code} is not a pass type of customers.yaml`);
  }
  const fleet = values['fleet.yaml'] as Fleet;
  const coachLayouts = values['coach-layouts.yaml'] as CoachLayouts;
  for (const cat of Object.keys(fleet.categories))
    if (!(cat in products.productCategories)) problems.push(`rules/fleet.yaml: ${cat} is not a product category of products.yaml`);
  for (const [cat, c] of Object.entries(fleet.categories))
    for (const coach of c.coaches) {
      if (!coachLayouts.layouts[coach.layout]) problems.push(`rules/fleet.yaml: coach ${coach.number} of ${cat} names unknown layout ${coach.layout}`);
      for (const p of coach.products) if (!products.products[p]) problems.push(`rules/fleet.yaml: coach ${coach.number} of ${cat} names unknown product ${p}`);
    }
  for (const [cat, c] of Object.entries(products.productCategories))
    if (c.reservation === 'mandatory')
      for (const p of c.products) {
        if (!fleet.categories[cat]?.coaches.some((coach) => coach.products.includes(p)))
          problems.push(`rules/fleet.yaml: no coach of ${cat} sells ${p}, which needs a reservation`);
      }
  for (const [id, l] of Object.entries(coachLayouts.layouts))
    for (const p of l.places)
      for (const prop of p.placeProperties) {
        if (!fleet.supportedPlaceProperties.includes(prop))
          problems.push(`rules/coach-layouts.yaml: place ${p.number} of ${id} has ${prop}, not in fleet.yaml supportedPlaceProperties`);
      }
  for (const { table, source } of tables) {
    problems.push(...checkRejects(table, source, Object.keys(factCatalogue[table.decision as DecisionName].shape), errors));
  }
  if (problems.length > 0) throw new RuleFileError(problems);

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
    referenceAt: (file: string, path: readonly PropertyKey[]) => valueSources.get(file)?.at(path) ?? `rules/${file}`,
  });
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value) && !(value instanceof Map)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
